/**
 * The SQL runner: runs the runtime's own statements — the reads of loader batches
 * (docs/behaviour.md §2.1, §2.2, §8: a primary-key batch and the per-parent window), scoped lists
 * and checks, and a create's `INSERT … RETURNING` (./sql-insert.ts) — straight on the driver instead
 * of through Prisma's raw query path, with each statement prepared once and reused (Prisma's raw
 * path prepares the statement again and converts every value of every row on each call, which made
 * a nested query's window statement costlier: BENCHMARKS.md §"Where the time goes").
 *
 * Each database's runner is its dialect's (`createRunner` in runtime/dialects/): SQLite reads
 * through a second, read-only connection to the same file and inserts on the Prisma client's own
 * connection, PostgreSQL runs both on a small pool with server-side prepared statements. Rows come back as plain objects and are converted to the
 * values Prisma would return (`Date` for DateTime columns, booleans, numbers) by the repository,
 * which knows each column's kind ({@link readColumn}).
 */
import { join, type Sql, sqltag } from './sql-scope.js';
import type { DialectSql } from './sql-text.js';

/** How a stored column's raw value is read back (the kinds that are not plain text). */
export type ColumnKind = 'int' | 'float' | 'boolean' | 'datetime';

/**
 * A statement of the SQL runner that failed (other than a constraint violation, {@link SqlConstraintError}). `code` is the database's (a SQLSTATE such as `42P01`, a
 * `SQLITE_*` code) or the connection's (`ECONNREFUSED`, or `CONNECTION_LOST` when the driver says
 * only that the connection ended); the error classification reads it (docs/behaviour.md §7: `database error`,
 * 503 when the database cannot be reached).
 */
export class SqlStatementError extends Error {
  override readonly name = 'SqlStatementError';

  constructor(
    message: string,
    readonly code: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A write refused by one of the table's constraints (runtime/data/sql-insert.ts): `unique` (a unique
 * index or the primary key) or `foreign-key` (a key naming no row); `fields` are the columns the
 * database named, when it names them. The repository answers it as Prisma's P2002 / P2003
 * (docs/behaviour.md §7: CONFLICT, BAD_USER_INPUT).
 */
export class SqlConstraintError extends Error {
  override readonly name = 'SqlConstraintError';

  constructor(
    readonly kind: 'unique' | 'foreign-key',
    readonly fields: readonly string[],
    options: { cause: unknown },
  ) {
    super(`${kind} constraint violated${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`, options);
  }
}

/** Runs the runtime's own statements on the database the Prisma client writes to: reads, and a create's insert. */
export interface SqlRunner {
  /** The SQL text of its database (its dialect's): the statements it runs are written in it. */
  readonly sql: DialectSql;
  /** Runs one read statement; rows as column name → driver value. Driver errors propagate. */
  read(statement: Sql): Promise<Record<string, unknown>[]>;
  /**
   * Runs one `INSERT … RETURNING` (runtime/data/sql-insert.ts) and gives the rows it returned: on
   * SQLite on the Prisma client's very connection (opened for the client when it has not connected),
   * so a write never waits on a second writer; on PostgreSQL on the runner's own pool. Undefined
   * when the runner has no client connection to write on (a SQLite runner opened without
   * `writesThrough`): the caller then asks Prisma. A constraint violation rejects with
   * {@link SqlConstraintError}; other driver errors propagate. Absent on a runner that writes nothing (tests).
   */
  insert?(statement: Sql): Promise<Record<string, unknown>[] | undefined>;
  /**
   * Whether the database has room for a write now: SQLite's file may still grow (by its page limit and
   * the free space of its file system). Absent where the server cannot see it (PostgreSQL's disk is
   * the database server's: a full one shows only as writes refused, docs/behaviour.md §7). Never rejects.
   */
  roomToWrite?(): Promise<boolean>;
  /** Closes the runner's connections. */
  close(): Promise<void>;
}

/** "`column` is one of `keys`" in the SQL `sql` writes ({@link DialectSql.anyOf}, else `IN` with a parameter a key); `keys` is not empty. */
export function keyCondition(sql: DialectSql, column: Sql, keys: readonly string[]): Sql {
  return sql.anyOf ? sql.anyOf(column, keys) : sqltag`${column} IN (${join([...keys])})`;
}

/**
 * The database's state for `/health` (docs/behaviour.md §4.9, §7): `true` when it answers a trivial
 * query through `runner` and has room to write ({@link SqlRunner.roomToWrite}, where the runner can
 * tell), `'full'` when it answers but has none, `false` when it does not answer. Never rejects.
 */
export async function databaseHealth(runner: SqlRunner): Promise<boolean | 'full'> {
  try {
    await runner.read(sqltag`SELECT 1`);
  } catch {
    return false;
  }
  return (await (runner.roomToWrite?.() ?? Promise.resolve(true))) ? true : 'full';
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
