/**
 * Where things go inside the output folder (`generated/`). A module of its own, with no imports,
 * so the CLI can name these paths without loading the generator.
 */

/** The emitted Prisma schema for SQLite, relative to the output folder. */
export const SQLITE_SCHEMA_PATH = 'prisma/sqlite/schema.prisma';
/** The migrations folder for SQLite, relative to the output folder. */
export const SQLITE_MIGRATIONS_PATH = 'prisma/sqlite/migrations';
/** The generated Prisma client for SQLite, relative to the output folder. */
export const SQLITE_CLIENT_PATH = 'prisma/sqlite/client';
/** The committed SDL, relative to the output folder (also written at boot by APP_GRAPHQL__EMIT_SDL). */
export const SDL_PATH = 'schema.graphql';
