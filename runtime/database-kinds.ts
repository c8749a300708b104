/**
 * The databases the generated server runs on (PRODUCT.md §2), in one list: the generator emits one
 * Prisma schema, client and migrations folder for each, and the runtime picks one from
 * `APP_DATABASE__URL`. "Provider" in this project means an injectable class; a database is a
 * {@link DatabaseKind} (Prisma's own files still say `provider = "sqlite"`, their word for it).
 */

/** Every supported database, in the order output is written for them. */
export const DATABASE_KINDS = ['sqlite', 'postgresql'] as const;

/** One supported database. */
export type DatabaseKind = (typeof DATABASE_KINDS)[number];
