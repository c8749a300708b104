/**
 * Where things go inside the output folder (`generated/`). A module of its own, importing only
 * the runtime's list of databases, so the CLI can name these paths without loading the generator.
 */
import type { DatabaseKind } from '../runtime/database-kinds.js';

export { DATABASE_KINDS, type DatabaseKind } from '../runtime/database-kinds.js';

/**
 * The name `generator/cli.ts` still imports for a database; another branch is editing the CLI, so
 * it is kept until that branch adopts {@link DatabaseKind}.
 * @deprecated use {@link DatabaseKind}: "provider" means an injectable class in this project.
 */
export type Provider = DatabaseKind;

/** The emitted Prisma schema of `database`, relative to the output folder. */
export function schemaPath(database: DatabaseKind): string {
  return `prisma/${database}/schema.prisma`;
}

/** The migrations folder of `database`, relative to the output folder. */
export function migrationsPath(database: DatabaseKind): string {
  return `prisma/${database}/migrations`;
}

/** The generated Prisma client of `database`, relative to the output folder. */
export function clientPath(database: DatabaseKind): string {
  return `prisma/${database}/client`;
}

/** The committed SDL, relative to the output folder (also written at boot by APP_GRAPHQL__EMIT_SDL). */
export const SDL_PATH = 'schema.graphql';
