/**
 * `engines` stays honest: every installed package supports the Node versions package.json
 * declares (a dependency that needs a newer Node would make our declaration a lie).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { packagesNeedingOtherNode } from '../support/engines.js';
import { ROOT } from '../support/project.js';

/**
 * Packages that declare a newer Node but are never loaded by anything we run: the `prisma` CLI
 * depends on them for its `prisma dev` local server, which this project does not use.
 */
const NEVER_LOADED = new Set(['@prisma/streams-local']);

describe('engines', () => {
  it('declares a Node range every installed dependency supports', () => {
    const declared = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(semver.satisfies(process.versions.node, declared)).toBe(true);
    expect(packagesNeedingOtherNode(path.join(ROOT, 'node_modules'), declared, NEVER_LOADED)).toEqual([]);
  });

  // `npm ci` refuses a lock file that names an optional dependency without an entry for it, which
  // happens when a package's native bindings for other platforms are missing from the registry the
  // lock was written against (knip 6's oxc-parser did): CI's first step would fail.
  it('locks an entry for every optional dependency the lock file names, so npm ci accepts it', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const locked = new Set(Object.keys(lock.packages).map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    const named = Object.values(lock.packages).flatMap((entry) => Object.keys(entry.optionalDependencies ?? {}));
    expect([...new Set(named.filter((name) => !locked.has(name)))].sort()).toEqual([]);
  });
});
