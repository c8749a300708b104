/**
 * Paths of this repository, for tests.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProjectLayout } from '../../generator/parse/project.js';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The layout of a project rooted at `root` using this repository's runtime. */
export function layoutAt(root: string, generatedDir = path.join(root, 'generated')): ProjectLayout {
  return { root, entitiesDir: path.join(root, 'entities'), runtimeDir: path.join(ROOT, 'runtime'), generatedDir };
}

/** The secret test servers sign tokens with. */
export const TEST_SECRET = 'test-secret-0123456789-0123456789-0123456789';

/** Where {@link scratchDir} makes folders during `npm test` (made and removed by test/support/global-setup.ts). */
export const SCRATCH_ROOT_VARIABLE = 'TEST_SCRATCH_ROOT';

/**
 * A new empty folder named `<prefix>XXXXXX` for one test's files (SQLite databases, projects):
 * under the run's scratch folder, which the run removes at its end, or the OS's temporary
 * folder outside `npm test`.
 */
export function scratchDir(prefix: string): string {
  return mkdtempSync(path.join(process.env[SCRATCH_ROOT_VARIABLE] ?? os.tmpdir(), prefix));
}
