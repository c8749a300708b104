/**
 * The installed package (or the checkout) the generator runs from — the folder holding its
 * `package.json`, `templates/` and the runtime — for everything the generator finds beside its
 * own code. Run from its sources (`generator/`) or compiled into the package (`dist/generator/`),
 * it is the nearest folder above this file whose `package.json` is the generator's; run as the
 * repository's compiled copy (generator/launch.mjs), that copy replaces this module with one
 * naming the checkout it was compiled from.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name, as its `package.json` spells it. */
const PACKAGE_NAME = 'resource-service';

/** The nearest folder at or above `start` whose package.json names this package; throws when there is none. */
function packageRootAbove(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`no package.json named ${PACKAGE_NAME} above ${start}: the generator runs from inside its package`);
  }
}

/** Absolute path of the package root (module docstring). */
export const TOOL_ROOT = packageRootAbove(path.dirname(fileURLToPath(import.meta.url)));
