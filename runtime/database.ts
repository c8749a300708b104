/**
 * Opening the database (PRODUCT.md §2): the driver adapter is chosen from the URL scheme —
 * `file:` → SQLite through better-sqlite3 (WAL mode), `postgres://` → PostgreSQL through pg —
 * and handed to the generated Prisma client of that provider.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { RawQueryClient } from './repository.js';

/** Database providers the generated server runs on. */
export type DatabaseProvider = 'sqlite' | 'postgresql';

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

/** The provider a database URL selects. Throws for an unsupported scheme. */
export function providerOf(url: string): DatabaseProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`unsupported database URL ${JSON.stringify(url.replace(/\/\/[^@]*@/, '//…@'))}: use file:<path> or postgres://…`);
}

/** The absolute path of a `file:` URL's SQLite database, resolved against `cwd`. */
export function sqliteFilePath(url: string, cwd = process.cwd()): string {
  return path.resolve(cwd, url.slice('file:'.length).replace(/\?.*$/, ''));
}

/**
 * Settings every SQLite connection gets when it opens: WAL journal (readers do not block the
 * writer; a crash loses no acknowledged write), `synchronous=NORMAL` (durable against process
 * crashes in WAL mode), foreign keys enforced, and a 5 s wait on a locked database.
 */
export const SQLITE_PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'busy_timeout = 5000'] as const;

/** The part of a better-sqlite3 connection the settings need. */
interface PragmaConnection {
  pragma(source: string): unknown;
}

/**
 * The Prisma driver adapter factory for `url`. For SQLite, creates the database folder (the file
 * is created by the first connection) and applies {@link SQLITE_PRAGMAS} on the driver's own
 * connection as each one opens — not through a Prisma query, so nothing is loaded before the
 * first request needs it. Only the provider's driver is loaded (a SQLite server never loads pg,
 * and the reverse), which keeps an idle process smaller.
 */
export async function createAdapterFactory(url: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (providerOf(url) === 'sqlite') {
    const file = sqliteFilePath(url);
    mkdirSync(path.dirname(file), { recursive: true });
    const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
    const factory = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 5000 });
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = await connect();
      // The adapter keeps its better-sqlite3 connection as `client`.
      const connection = (adapter as unknown as { client?: PragmaConnection }).client;
      if (typeof connection?.pragma !== 'function') throw new Error('the better-sqlite3 adapter no longer exposes its connection; SQLite settings cannot be applied');
      for (const pragma of SQLITE_PRAGMAS) connection.pragma(pragma);
      return adapter;
    };
    return factory;
  }
  const { PrismaPg } = await import('@prisma/adapter-pg');
  return new PrismaPg({ connectionString: url });
}

/**
 * What brings the query planner's statistics up to date, per adapter provider. SQLite:
 * `PRAGMA optimize=0x10002` runs an exact ANALYZE on each table that was never analyzed, has an
 * index without statistics (a migration just added it) or grew or shrank 25-fold since it was;
 * bit 0x10000 makes it look at every table, since a fresh connection has used none and plain
 * `PRAGMA optimize` would then skip a table that grew. PostgreSQL: `ANALYZE`, which samples a
 * bounded number of rows per table.
 */
const STATISTICS: Readonly<Record<string, string>> = { sqlite: 'PRAGMA optimize=0x10002', postgres: 'ANALYZE' };

/**
 * Updates the query planner's statistics of the database behind `factory` on a connection of its
 * own (PRODUCT.md §6 "SQLite plans need statistics": without them SQLite ranks a has_many through
 * the `(orgId, id)` index and a temporary B-tree instead of the relation's `(fk, id)` index).
 * Called after migrations are applied and after a seed. Rejects with the driver's error, or for a
 * provider other than SQLite and PostgreSQL.
 */
export async function updateStatistics(factory: SqlDriverAdapterFactory): Promise<void> {
  const statement = STATISTICS[factory.provider];
  if (statement === undefined) throw new Error(`no statistics statement for the ${factory.provider} provider`);
  const connection = await factory.connect();
  try {
    await connection.executeScript(statement);
  } finally {
    await connection.dispose();
  }
}

/** Whether the database answers a trivial query (`/health`). */
export async function isDatabaseReachable(client: DatabaseClient): Promise<boolean> {
  try {
    await client.$queryRawUnsafe('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
