/**
 * Where things go inside the output folder (`generated/`). A module of its own, importing only the
 * runtime's dialects (each names its Prisma folder), so the CLI can name these paths without
 * loading the generator.
 */
import { type DatabaseName, dialectNamed } from '../runtime/dialects/index.js';

export { type DatabaseName, SUPPORTED_DATABASES } from '../runtime/dialects/index.js';

/** The emitted Prisma schema of `database`, relative to the output folder. */
export function schemaPath(database: DatabaseName): string {
  return `${dialectNamed(database).prisma.folder}/schema.prisma`;
}

/** The migrations folder of `database`, relative to the output folder. */
export function migrationsPath(database: DatabaseName): string {
  return `${dialectNamed(database).prisma.folder}/migrations`;
}

/** The generated Prisma client of `database`, relative to the output folder. */
export function clientPath(database: DatabaseName): string {
  return `${dialectNamed(database).prisma.folder}/client`;
}

/** The committed SDL, relative to the output folder (also written at boot by APP_GRAPHQL__EMIT_SDL). */
export const SDL_PATH = 'schema.graphql';

/** The persisted-document manifest, relative to the output folder (docs/behaviour.md §4.10). */
export const DOCUMENTS_PATH = 'graphql/documents.json';

/**
 * The committed OpenAPI document of one version in the default configuration, relative to the
 * output folder: `2` → `openapi/v2.json`; without a version, the document of every version,
 * `openapi/openapi.json` (docs/guide/versioning.md "OpenAPI 3.1").
 */
export function openApiDocumentPath(version: string | undefined): string {
  return version === undefined ? 'openapi/openapi.json' : `openapi/v${version}.json`;
}
