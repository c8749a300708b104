/**
 * Row scope inside raw SQL (docs/behaviour.md §5.8, docs/decisions.md §6 "Row scope inside the per-parent window").
 *
 * has_many pages rank rows per parent with a window function, which Prisma cannot express, so
 * that statement is raw SQL. The caller's read scope must filter rows *before* ranking, or
 * hidden rows would use up a parent's page and `hasNextPage` would lie. CASL gives the scope as
 * a Prisma `where` object; this module translates that object into a parameterized SQL
 * condition.
 *
 * Chosen over `@ucast/sql` (an alpha) because the input is already Prisma's `where` dialect,
 * which our rules use through a handful of operators: `AND`, `OR`, `NOT`, equality shorthand,
 * `equals`, `not`, `in`, `notIn`, `lt`, `lte`, `gt`, `gte`, `contains`, `startsWith`,
 * `endsWith`, on the entity's own columns. Anything else (relation filters, `mode`, JSON paths)
 * throws {@link ScopeTranslationError}: the batch fails closed instead of widening the scope.
 * A test compares the ranked window with per-parent Prisma `findMany` on random data.
 */
import { join, raw, type Sql, sqltag } from '@prisma/client/runtime/client';
import { FailureError } from '../failures/result.js';
import type { DialectSql, TextMatch } from './sql-text.js';

/**
 * Characters a `contains`, `startsWith` or `endsWith` text may have (docs/hostile-input.md §8): a
 * longer one is refused as BAD_USER_INPUT before any statement, since SQLite refuses a LIKE pattern
 * over 50 000 bytes (and 10 000 characters escape to at most 40 002).
 */
const MAX_PATTERN_TEXT = 10_000;

/** A scope condition this module cannot translate; the query must not run. */
export class ScopeTranslationError extends Error {
  override readonly name = 'ScopeTranslationError';
}

const TRUE = raw('1 = 1');
const FALSE = raw('1 = 0');
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `name` as a quoted identifier of the database `sql` writes for ({@link DialectSql.identifier}).
 * Throws {@link ScopeTranslationError} for anything but a plain identifier (letters, digits, `_`).
 */
export function quoteIdentifier(sql: DialectSql, name: string): Sql {
  if (!IDENTIFIER.test(name)) throw new ScopeTranslationError(`refusing to quote identifier ${JSON.stringify(name)}`);
  return raw(sql.identifier(name));
}

type Scalar = string | number | boolean | bigint | Date;

function isScalar(value: unknown): value is Scalar {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint' ||
    value instanceof Date
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Translates Prisma `where` objects over one table alias. */
class ScopeTranslator {
  constructor(
    private readonly sql: DialectSql,
    private readonly alias: Sql,
    private readonly columns: ReadonlySet<string>,
  ) {}

  private column(name: string): Sql {
    return sqltag`${this.alias}.${quoteIdentifier(this.sql, name)}`;
  }

  private all(parts: readonly Sql[], operator: 'AND' | 'OR'): Sql {
    if (parts.length === 0) return operator === 'AND' ? TRUE : FALSE;
    if (parts.length === 1) return parts[0] ?? TRUE;
    return sqltag`(${join(parts, ` ${operator} `, '', '')})`;
  }

  private list(value: unknown, key: string): unknown[] {
    if (Array.isArray(value)) return value;
    if (isRecord(value)) return [value];
    throw new ScopeTranslationError(`${key} must be an object or a list of objects`);
  }

  /** The SQL condition of a `where` object. */
  where(node: unknown): Sql {
    if (!isRecord(node)) throw new ScopeTranslationError('a scope condition must be an object');
    const parts: Sql[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      if (key === 'AND')
        parts.push(
          this.all(
            this.list(value, key).map((item) => this.where(item)),
            'AND',
          ),
        );
      else if (key === 'OR')
        parts.push(
          this.all(
            this.list(value, key).map((item) => this.where(item)),
            'OR',
          ),
        );
      else if (key === 'NOT')
        parts.push(
          this.all(
            this.list(value, key).map((item) => sqltag`NOT (${this.where(item)})`),
            'AND',
          ),
        );
      else if (this.columns.has(key)) parts.push(this.field(key, value));
      else throw new ScopeTranslationError(`cannot translate a condition on ${key}: only the entity's own columns are supported`);
    }
    return this.all(parts, 'AND');
  }

  private field(name: string, condition: unknown): Sql {
    const column = this.column(name);
    if (condition === null) return sqltag`${column} IS NULL`;
    if (isScalar(condition)) return sqltag`${column} = ${condition}`;
    if (!isRecord(condition)) throw new ScopeTranslationError(`unsupported condition on ${name}`);
    const parts: Sql[] = [];
    for (const [operator, operand] of Object.entries(condition)) {
      if (operand === undefined) continue;
      parts.push(this.operator(name, column, operator, operand));
    }
    return this.all(parts, 'AND');
  }

  private operator(name: string, column: Sql, operator: string, operand: unknown): Sql {
    const scalar = (): Scalar => {
      if (!isScalar(operand)) throw new ScopeTranslationError(`${name}.${operator} needs a scalar`);
      return operand;
    };
    const textMatch = (match: TextMatch): Sql => {
      if (typeof operand !== 'string') throw new ScopeTranslationError(`${name}.${operator} needs a string`);
      if (operand.length > MAX_PATTERN_TEXT) {
        const message = `a text to match may be at most ${MAX_PATTERN_TEXT} characters (got ${operand.length})`;
        throw new FailureError({ code: 'BAD_USER_INPUT', message, issues: [{ path: name, message }] });
      }
      return this.sql.textMatch(column, match, operand);
    };
    switch (operator) {
      case 'equals':
        return operand === null ? sqltag`${column} IS NULL` : sqltag`${column} = ${scalar()}`;
      case 'not':
        if (operand === null) return sqltag`${column} IS NOT NULL`;
        if (isRecord(operand)) return sqltag`NOT (${this.field(name, operand)})`;
        return sqltag`${column} <> ${scalar()}`;
      case 'in':
      case 'notIn': {
        if (!Array.isArray(operand) || !operand.every(isScalar))
          throw new ScopeTranslationError(`${name}.${operator} needs a list of scalars`);
        if (operand.length === 0) return operator === 'in' ? FALSE : TRUE;
        return operator === 'in' ? sqltag`${column} IN (${join(operand)})` : sqltag`${column} NOT IN (${join(operand)})`;
      }
      case 'lt':
        return sqltag`${column} < ${scalar()}`;
      case 'lte':
        return sqltag`${column} <= ${scalar()}`;
      case 'gt':
        return sqltag`${column} > ${scalar()}`;
      case 'gte':
        return sqltag`${column} >= ${scalar()}`;
      case 'contains':
      case 'startsWith':
      case 'endsWith':
        return textMatch(operator);
      default:
        throw new ScopeTranslationError(`cannot translate the ${operator} operator on ${name}`);
    }
  }
}

/**
 * The SQL condition equivalent to the Prisma `where` object `where`, over columns of `alias`, in
 * the SQL of the database `sql` writes for (its identifiers and text matches). `columns` lists the
 * columns conditions may name. Throws {@link ScopeTranslationError} for anything outside the
 * supported subset, and a BAD_USER_INPUT failure for a text to match that is too long.
 */
export function whereToSql(sql: DialectSql, where: Record<string, unknown>, alias: string, columns: ReadonlySet<string>): Sql {
  return new ScopeTranslator(sql, quoteIdentifier(sql, alias), columns).where(where);
}

export { join, raw, type Sql, sqltag };
