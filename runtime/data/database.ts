/**
 * Opening the database (docs/decisions.md §2): the dialect of `APP_DATABASE__URL`'s scheme
 * (runtime/dialects/) gives the driver adapter that the generated Prisma client of that database
 * is handed. This module keeps what generated code and the CLI import by this path; everything
 * that differs per database is in the dialects.
 */
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { dialectFor, dialectOfAdapter } from '../dialects/index.js';
import type { RawQueryClient } from './repository.js';

/** The minimum of a Prisma client the runtime itself calls. */
export interface DatabaseClient extends RawQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $disconnect(): Promise<void>;
}

/** Options of the generated `createDatabase`. */
export interface DatabaseOptions {
  /** Called with the text of every SQL statement the client sends (tests, benchmarks). */
  readonly onQuery?: (sql: string) => void;
}

/**
 * The Prisma driver adapter factory for `url`, from its dialect (SQLite: the folder is created and
 * every connection gets WAL and the other settings; PostgreSQL: pg). Only that database's driver is
 * loaded. Throws for an unsupported scheme.
 */
export function createAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  return dialectFor(url).createAdapterFactory(url);
}

/**
 * Updates the query planner's statistics of the database behind `factory` on a connection of its
 * own, with its dialect's statement (docs/decisions.md §6 "SQLite plans need statistics": without them
 * SQLite ranks a has_many through the `(orgId, id)` index and a temporary B-tree instead of the
 * relation's `(fk, id)` index). Called after migrations are applied and after a seed. Rejects with
 * the driver's error, or for an adapter no dialect has.
 */
export async function updateStatistics(factory: SqlDriverAdapterFactory): Promise<void> {
  const statement = dialectOfAdapter(factory).statisticsStatement;
  const connection = await factory.connect();
  try {
    await connection.executeScript(statement);
  } finally {
    await connection.dispose();
  }
}

/**
 * The error to report when loading the Prisma client in `folder` (relative to the application,
 * `generated/prisma/sqlite/client`) failed with `error`: the Prisma clients are not committed
 * (docs/decisions.md §2), so a missing one says which command writes it; any other error is
 * returned as it is.
 */
export function prismaClientLoadError(error: unknown, folder: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' || !(error as Error).message.includes(`${folder}/`)) return error;
  return new Error(
    `the Prisma client ${folder} is missing (it is not committed): run \`resource-service generate\` (or \`build\` before \`start\`) to write it`,
    { cause: error },
  );
}
