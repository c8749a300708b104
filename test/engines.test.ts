/**
 * `engines` stays honest: every installed package supports the Node versions package.json
 * declares (a dependency that needs a newer Node would make our declaration a lie).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/project.js';

/**
 * Packages that declare a newer Node but are never loaded by anything we run: the `prisma` CLI
 * depends on them for its `prisma dev` local server, which this project does not use.
 */
const NEVER_LOADED = new Set(['@prisma/streams-local']);

/** Every installed package folder's manifest, nested ones included. */
function manifests(dir: string): { name: string; version: string; engines?: { node?: string } }[] {
  const found: { name: string; version: string; engines?: { node?: string } }[] = [];
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const folder = path.join(dir, name);
    if (name.startsWith('@')) {
      found.push(...manifests(folder));
      continue;
    }
    const manifest = path.join(folder, 'package.json');
    if (!existsSync(manifest)) continue;
    found.push(JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } });
    found.push(...manifests(path.join(folder, 'node_modules')));
  }
  return found;
}

describe('engines', () => {
  it('declares a Node range every installed dependency supports', () => {
    const declared = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(semver.satisfies(process.versions.node, declared)).toBe(true);
    const unsupported = manifests(path.join(ROOT, 'node_modules'))
      .filter((manifest) => manifest.engines?.node && !NEVER_LOADED.has(manifest.name))
      .filter((manifest) => !semver.subset(declared, manifest.engines?.node ?? '*', { includePrerelease: false }))
      .map((manifest) => `${manifest.name}@${manifest.version} needs node ${manifest.engines?.node}`);
    expect(unsupported).toEqual([]);
  });

  // `npm ci` refuses a lock file that names an optional dependency without an entry for it, which
  // happens when a package's native bindings for other platforms are missing from the registry the
  // lock was written against (knip 6's oxc-parser did): CI's first step would fail.
  it('locks an entry for every optional dependency the lock file names, so npm ci accepts it', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: Record<string, string> }> };
    const locked = new Set(Object.keys(lock.packages).map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    const named = Object.values(lock.packages).flatMap((entry) => Object.keys(entry.optionalDependencies ?? {}));
    expect([...new Set(named.filter((name) => !locked.has(name)))].sort()).toEqual([]);
  });
});
