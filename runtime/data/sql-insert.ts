/**
 * A create's row written by the runtime itself (docs/decisions.md §6 "Creates without Prisma's
 * query interpreter"): one `INSERT … RETURNING` statement, prepared once and run by the dialect's
 * SQL runner (`SqlRunner.insert`: on SQLite on the Prisma client's own connection, on PostgreSQL on the
 * runner's pool), storing exactly what Prisma's `create` stores — the same generated values
 * (`@default(uuid(7))`, `@default(now())`), the same encodings (the dialect's runner binds them as
 * the Prisma adapter does), the database's own literal defaults.
 *
 * Prisma's `create` of one row costs several times the statement's own CPU on SQLite, most of it
 * the query interpreter (BENCHMARKS.md §"Where the time goes", "Write mix"). Only what this module is sure of goes this way: a value it cannot
 * check the way Prisma checks it (a nested write, a string for a `DateTime`, a value outside an
 * enum, a missing required column, a column it does not know) makes {@link insertStatement} answer
 * undefined, and the repository then asks Prisma, which accepts or refuses it as it always did.
 */
import { v7 as uuidv7 } from 'uuid';
import { isUuid } from './keyset.js';
import { join, quoteIdentifier, type Sql, sqltag } from './sql-scope.js';
import type { DialectSql } from './sql-text.js';

/** How one stored column is written (generated per entity in `generated/entities.ts`). */
export interface InsertColumn {
  /** The stored type: `id` (a UUID key), `text`, `int` (32-bit, as Prisma's `Int`), `float`, `boolean`, `datetime`, `enum`. */
  readonly type: 'id' | 'text' | 'int' | 'float' | 'boolean' | 'datetime' | 'enum';
  /** Whether it may be NULL (left out: NULL). */
  readonly nullable?: boolean;
  /**
   * Who fills it when the data leaves it out: `uuid7` a new UUID v7 (the primary key), `now` the
   * time of the write (`@default(now())`), `database` the table's own default (a literal).
   */
  readonly fill?: 'uuid7' | 'now' | 'database';
  /** The values of an `enum` column. */
  readonly values?: readonly string[];
}

/** The columns of one entity's table as a create writes them, by name (docs/decisions.md §6). */
export type InsertShape = Readonly<Record<string, InsertColumn>>;

/** Prisma's `Int` is a 32-bit signed integer. */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** Whether `value` is what Prisma accepts for `column` unchanged (the cases this module writes itself). */
function acceptable(column: InsertColumn, value: unknown): boolean {
  if (value === null) return column.nullable === true;
  switch (column.type) {
    case 'id':
      return typeof value === 'string' && isUuid(value);
    case 'text':
      return typeof value === 'string';
    case 'enum':
      return typeof value === 'string' && (column.values ?? []).includes(value);
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return value instanceof Date && !Number.isNaN(value.getTime());
  }
}

/**
 * The `INSERT INTO "<table>" (…) VALUES (…) RETURNING <every column>` of `data` (a Prisma unchecked
 * create input), with generated values for the columns it leaves out and `shape` fills; undefined
 * when `data` holds anything Prisma would check differently or write otherwise (module docstring).
 * `now` is the instant every `now` column of the row gets. With `guard`, the row is written only
 * when that condition holds, in the same statement (`INSERT … SELECT … WHERE <guard>`): it then
 * returns no row (docs/hostile-input.md §11). Written in the SQL `sql` writes (its quoted identifiers).
 */
export function insertStatement(
  sql: DialectSql,
  table: string,
  shape: InsertShape,
  data: object,
  now: Date = new Date(),
  guard?: Sql,
): Sql | undefined {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const column = shape[name];
    if (!column || !acceptable(column, value)) return undefined;
    names.push(name);
    values.push(value);
  }
  for (const [name, column] of Object.entries(shape)) {
    if (names.includes(name)) continue;
    if (column.fill === 'uuid7') {
      names.push(name);
      values.push(uuidv7());
    } else if (column.fill === 'now') {
      names.push(name);
      values.push(now);
    } else if (column.fill !== 'database' && !column.nullable) {
      // Prisma refuses a create missing a required column; let it say so.
      return undefined;
    }
  }
  const returning = join(
    Object.keys(shape).map((name) => quoteIdentifier(sql, name)),
    ', ',
  );
  const target = sqltag`INSERT INTO ${quoteIdentifier(sql, table)} (${join(
    names.map((name) => quoteIdentifier(sql, name)),
    ', ',
  )})`;
  if (guard !== undefined) return sqltag`${target} SELECT ${join(values)} WHERE ${guard} RETURNING ${returning}`;
  return sqltag`${target} VALUES (${join(values)}) RETURNING ${returning}`;
}
