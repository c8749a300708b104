/**
 * Installed packages and the Node versions they declare, for the checks that keep `engines`
 * honest: in this repository's node_modules (test/project/engines.test.ts) and in an application that
 * installed the packed package without our lock file (test/cli/package.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/** What a manifest says about itself and the Node versions it supports. */
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly engines?: { readonly node?: string };
}

/** Every installed package folder's manifest under `dir` (a node_modules), nested ones included. */
function manifests(dir: string): Manifest[] {
  const found: Manifest[] = [];
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
    found.push(JSON.parse(readFileSync(manifest, 'utf8')) as Manifest);
    found.push(...manifests(path.join(folder, 'node_modules')));
  }
  return found;
}

/**
 * The packages under `nodeModules` whose `engines.node` does not cover every version of `declared`
 * (a semver range), as `name@version needs node <range>`; packages named in `ignore` are skipped.
 */
export function packagesNeedingOtherNode(nodeModules: string, declared: string, ignore: ReadonlySet<string> = new Set()): string[] {
  return manifests(nodeModules)
    .filter((manifest) => manifest.engines?.node && !ignore.has(manifest.name))
    .filter((manifest) => !semver.subset(declared, manifest.engines?.node ?? '*', { includePrerelease: false }))
    .map((manifest) => `${manifest.name}@${manifest.version} needs node ${manifest.engines?.node ?? ''}`);
}
