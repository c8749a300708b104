/**
 * Where things go inside the output folder (`generated/`). A module of its own, with no imports,
 * so the CLI can name these paths without loading the generator.
 */

/** Database providers the generated server runs on (one Prisma schema, client and migrations each). */
export const PROVIDERS = ['sqlite', 'postgresql'] as const;

/** A database provider. */
export type Provider = (typeof PROVIDERS)[number];

/** The emitted Prisma schema of `provider`, relative to the output folder. */
export function schemaPath(provider: Provider): string {
  return `prisma/${provider}/schema.prisma`;
}

/** The migrations folder of `provider`, relative to the output folder. */
export function migrationsPath(provider: Provider): string {
  return `prisma/${provider}/migrations`;
}

/** The generated Prisma client of `provider`, relative to the output folder. */
export function clientPath(provider: Provider): string {
  return `prisma/${provider}/client`;
}

/** The committed SDL, relative to the output folder (also written at boot by APP_GRAPHQL__EMIT_SDL). */
export const SDL_PATH = 'schema.graphql';
