/**
 * Where one database's SQL text differs from the text the runtime writes for every database
 * (docs/architecture.md §3): each dialect in runtime/dialects/ gives one {@link DialectSql}, and the
 * statements the runtime builds itself (runtime/data/repository.ts, ./sql-scope.ts, ./sql-insert.ts)
 * ask it instead of writing that text themselves. It lives here, beside the statements, so that
 * runtime/data/ needs nothing of runtime/dialects/ to build them.
 */
import type { Sql } from '@prisma/client/runtime/client';

/** Where a matched text must appear in a column's value: anywhere, at its start, at its end (Prisma's operators). */
export type TextMatch = 'contains' | 'startsWith' | 'endsWith';

/**
 * The SQL text of one database where it differs from the runtime's common text (module docstring).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DialectSql {
  /** Most parameters one statement may bind (SQLite's default 32 766, PostgreSQL's 65 535); batches are split below it. */
  readonly maxBindParameters: number;
  /**
   * `name` as a quoted identifier of this database (`"User"`), so that a table or column is found
   * whatever its case and even when it is a keyword. `name` is a plain identifier: the caller has
   * refused anything else (runtime/data/sql-scope.ts `quoteIdentifier`).
   */
  identifier(name: string): string;
  /**
   * The condition "the text of `column` contains (starts with, ends with) `text`", `text` matched
   * literally — none of its characters is a wildcard — and bound as one parameter
   * (docs/behaviour.md §5.8, docs/hostile-input.md §8).
   */
  textMatch(column: Sql, match: TextMatch, text: string): Sql;
  /** The placeholder of the `position`-th (from 1) parameter of a statement sent through the Prisma driver adapter (`?`, `$1`). */
  placeholder(position: number): string;
  /**
   * The condition "`column` is one of `keys`" in this database's best form for a loader batch
   * (docs/behaviour.md §2.1, §2.2): PostgreSQL binds the keys as one array, `column = ANY($1)` —
   * a prepared statement's generic plan then reads the key's index alone, where `IN ($1, …, $20)`
   * had it intersect the key's index with the scope's (BENCHMARKS.md "Where the time goes"); absent:
   * `column IN (…)`, one parameter a key (runtime/data/sql-runner.ts `keyCondition`).
   */
  anyOf?(column: Sql, keys: readonly string[]): Sql;
  /**
   * The clause that locks the rows a write's check reads against change until the write commits
   * (`FOR SHARE` on PostgreSQL, docs/hostile-input.md §11); absent: the database runs one write at a
   * time (SQLite), so the statement checking and writing is atomic as it is.
   */
  readonly referenceLock?: string;
}
