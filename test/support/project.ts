/**
 * Paths of this repository, for tests.
 */
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
