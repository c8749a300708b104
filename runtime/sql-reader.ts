/**
 * The runtime's own read statements — loader batches (spec §2.1, §2.2, §8): a primary-key batch
 * and the per-parent window — sent straight to the driver instead of through Prisma's raw query
 * path, with each statement prepared once and reused (issue 7: Prisma's raw path prepares the
 * statement again and converts every value of every row on each call, which doubled the cost of
 * a nested query's window statement).
 *
 * SQLite: a second better-sqlite3 connection to the same file, `query_only` (WAL: it reads the
 * latest committed state and never blocks the writer). PostgreSQL: a small pg pool with named
 * (server-side prepared) statements. Rows come back as plain objects and are converted to the
 * values Prisma would return (`Date` for DateTime columns, booleans, numbers) by the repository,
 * which knows each column's kind.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { type DatabaseOptions, providerOf, SQLITE_PRAGMAS, sqliteFilePath } from './database.js';
import { type Sql, sqltag } from './sql-scope.js';

/** How a stored column's raw value is read back (the kinds that are not plain text). */
export type ColumnKind = 'int' | 'float' | 'boolean' | 'datetime';

/**
 * A reader statement that failed. `code` is the database's (a SQLSTATE such as `42P01`, a
 * `SQLITE_*` code) or the connection's (`ECONNREFUSED`, or `CONNECTION_LOST` when the driver says
 * only that the connection ended); the error classification reads it (spec §7: `database error`,
 * 503 when the database cannot be reached).
 */
export class SqlReadError extends Error {
  override readonly name = 'SqlReadError';

  constructor(
    message: string,
    readonly code: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The reader error of a pg failure: its SQLSTATE, its socket code, or a lost connection. */
function postgresReadError(error: unknown): SqlReadError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return new SqlReadError(error instanceof Error ? error.message : String(error), typeof code === 'string' ? code : 'CONNECTION_LOST', { cause: error });
}

/** Runs read statements on the database the Prisma client writes to. */
export interface SqlReader {
  /** Runs one read statement; rows as column name → driver value. Driver errors propagate. */
  read(statement: Sql): Promise<Record<string, unknown>[]>;
  /** Closes the reader's connections. */
  close(): Promise<void>;
}

/** Prepared statements kept per connection. */
const STATEMENT_CACHE_SIZE = 500;

/** A bound value as SQLite stores what Prisma writes: booleans as 0/1, dates as ISO text. */
function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  return value;
}

class SqliteReader implements SqlReader {
  private readonly statements = new LRUCache<string, Database.Statement>({ max: STATEMENT_CACHE_SIZE });

  constructor(
    private readonly connection: Database.Database,
    private readonly onQuery: ((sql: string) => void) | undefined,
  ) {
    for (const pragma of SQLITE_PRAGMAS) this.connection.pragma(pragma);
    this.connection.pragma('query_only = ON');
  }

  read(statement: Sql): Promise<Record<string, unknown>[]> {
    let prepared = this.statements.get(statement.sql);
    if (!prepared) {
      prepared = this.connection.prepare(statement.sql);
      this.statements.set(statement.sql, prepared);
    }
    this.onQuery?.(statement.sql);
    return Promise.resolve(prepared.all(...statement.values.map(sqliteValue)) as Record<string, unknown>[]);
  }

  close(): Promise<void> {
    this.statements.clear();
    this.connection.close();
    return Promise.resolve();
  }
}

/** `timestamp without time zone` (what Prisma's `DateTime` maps to) holds UTC: read it as UTC. */
const TIMESTAMP_OID = 1114;

class PostgresReader implements SqlReader {
  constructor(
    private readonly pool: pg.Pool,
    private readonly onQuery: ((sql: string) => void) | undefined,
  ) {
    // An idle connection lost during an outage must not crash the process; the next read reconnects.
    this.pool.on('error', () => undefined);
  }

  async read(statement: Sql): Promise<Record<string, unknown>[]> {
    // A named statement is prepared once per connection and reused by name afterwards.
    const name = `rs_${createHash('sha1').update(statement.text).digest('hex').slice(0, 20)}`;
    this.onQuery?.(statement.text);
    // A Date binds as UTC text: the column is `timestamp without time zone` holding UTC.
    const values = statement.values.map((value) => (value instanceof Date ? value.toISOString() : value));
    try {
      const result = await this.pool.query({ name, text: statement.text, values });
      return result.rows as Record<string, unknown>[];
    } catch (error) {
      throw postgresReadError(error);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * The reader of the database at `url` (`file:` or `postgres://`); `onQuery` sees each statement.
 * Loads only the provider's driver.
 */
export async function createSqlReader(url: string, options: DatabaseOptions = {}): Promise<SqlReader> {
  if (providerOf(url) === 'sqlite') {
    const { default: Sqlite } = await import('better-sqlite3');
    return new SqliteReader(new Sqlite(sqliteFilePath(url), { timeout: 5_000 }), options.onQuery);
  }
  const { default: postgres } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === TIMESTAMP_OID && format !== 'binary' ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`) : postgres.types.getTypeParser(oid, format as 'text'),
  } as pg.CustomTypesConfig;
  return new PostgresReader(new postgres.Pool({ connectionString: url, max: 5, types }), options.onQuery);
}

/** Whether the database answers a trivial query through `reader` (`/health`). */
export async function isReachable(reader: SqlReader): Promise<boolean> {
  try {
    await reader.read(sqltag`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A raw row's value as Prisma would return it for a column of `kind` (undefined: text, as is):
 * SQLite's ISO text or epoch milliseconds become `Date`, 0/1 become booleans, bigints numbers.
 */
export function readColumn(value: unknown, kind: ColumnKind | undefined): unknown {
  if (value === null || value === undefined || kind === undefined) return value;
  switch (kind) {
    case 'datetime':
      return value instanceof Date ? value : new Date(typeof value === 'bigint' ? Number(value) : (value as string | number));
    case 'boolean':
      return typeof value === 'boolean' ? value : Number(value) !== 0;
    case 'int':
    case 'float':
      return typeof value === 'number' ? value : Number(value);
  }
}
