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
 * `endsWith` ({@link COLUMN_OPERATORS}) on the entity's own columns, and relation conditions
 * ({@link RELATION_OPERATORS}): `is`/`isNot` on a belongs_to, `some`/`every`/`none` on a has_many,
 * each an `EXISTS` sub-query over the related table, nested to any depth (docs/behaviour.md §5.5).
 * Anything else (`mode`, JSON paths, a relation the schema does not know) throws
 * {@link ScopeTranslationError}: the query fails closed instead of widening the scope; `generate`
 * refuses such a grant before it can run (rule `ability-condition-untranslatable`). Tests compare
 * the translation with Prisma's own reading of the same `where` on random data.
 */
import { join, raw, type Sql, sqltag } from '@prisma/client/runtime/client';
import { FailureError } from '../failures/result.js';
import type { DialectSql, TextMatch } from './sql-text.js';
import { holdsNul, NUL_TEXT_MESSAGE } from './text-input.js';

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

/**
 * `value`, a value about to be bound in a condition on column `name`; throws `BAD_USER_INPUT` naming
 * the column when it is a text holding a NUL character (docs/hostile-input.md §17): the last line
 * behind the transports' checks, for a filter a hand-written service builds (`{ title: { contains:
 * term } }`), so the databases answer it alike — PostgreSQL would refuse it as a fault of its own.
 */
function boundText<T>(name: string, value: T): T {
  if (typeof value === 'string' && holdsNul(value))
    throw new FailureError({
      code: 'BAD_USER_INPUT',
      message: `invalid filter: ${name} ${NUL_TEXT_MESSAGE}`,
      field: name,
      issues: [{ path: name, message: NUL_TEXT_MESSAGE }],
    });
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * The operators a column condition may use (`{ title: { contains: … } }`), as Prisma names them;
 * `generate` refuses a grant using another (rule `ability-condition-untranslatable`).
 */
export const COLUMN_OPERATORS = ['equals', 'not', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte', 'contains', 'startsWith', 'endsWith'] as const;

/** The relation filters a condition may use, by relation kind, as Prisma names them (docs/behaviour.md §5.5). */
export const RELATION_OPERATORS = { belongsTo: ['is', 'isNot'], hasMany: ['some', 'every', 'none'] } as const;

/**
 * A relation a scope condition may follow: a belongs_to (this table's `column` holds the target's
 * `id`) or a has_many (the target's `column` holds this table's `id`).
 */
export interface ScopeRelation {
  readonly kind: keyof typeof RELATION_OPERATORS;
  /** The related entity (its table). */
  readonly target: string;
  readonly column: string;
}

/** What conditions may name of one entity's table: its stored columns and its relations. */
export interface ScopeTable {
  readonly columns: readonly string[];
  readonly relations: Readonly<Record<string, ScopeRelation>>;
}

/**
 * Every entity's {@link ScopeTable}, by entity name (generated as `SCOPE_SCHEMA` in
 * `generated/entities.ts`): what a condition on one entity may reach through its relations.
 */
export type ScopeSchema = Readonly<Record<string, ScopeTable>>;

/** A schema of one table with no relations, over `columns` (a condition on it may name only them). */
export function singleTableSchema(entity: string, columns: readonly string[]): ScopeSchema {
  return { [entity]: { columns, relations: {} } };
}

/** Translates Prisma `where` objects over one table alias. */
class ScopeTranslator {
  /** Sub-query aliases handed out so far (`r1`, `r2`, …: each `EXISTS` its own). */
  private aliases = 0;

  constructor(
    private readonly sql: DialectSql,
    private readonly schema: ScopeSchema,
    private readonly outerAliases: ReadonlySet<string>,
  ) {}

  private table(entity: string): ScopeTable {
    const table = Object.hasOwn(this.schema, entity) ? this.schema[entity] : undefined;
    if (!table) throw new ScopeTranslationError(`cannot translate a condition on ${entity}: its table is unknown`);
    return table;
  }

  private column(alias: Sql, name: string): Sql {
    return sqltag`${alias}.${quoteIdentifier(this.sql, name)}`;
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

  /** The SQL condition of a `where` object on `entity`'s rows, named `alias`. */
  where(node: unknown, entity: string, alias: Sql): Sql {
    if (!isRecord(node)) throw new ScopeTranslationError('a scope condition must be an object');
    const table = this.table(entity);
    const parts: Sql[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      if (key === 'AND')
        parts.push(
          this.all(
            this.list(value, key).map((item) => this.where(item, entity, alias)),
            'AND',
          ),
        );
      else if (key === 'OR')
        parts.push(
          this.all(
            this.list(value, key).map((item) => this.where(item, entity, alias)),
            'OR',
          ),
        );
      else if (key === 'NOT')
        parts.push(
          this.all(
            this.list(value, key).map((item) => sqltag`NOT (${this.where(item, entity, alias)})`),
            'AND',
          ),
        );
      else if (table.columns.includes(key)) parts.push(this.field(alias, key, value));
      else if (Object.hasOwn(table.relations, key))
        parts.push(this.relation(entity, alias, key, table.relations[key] as ScopeRelation, value));
      else throw new ScopeTranslationError(`cannot translate a condition on ${entity}.${key}: it is no column or relation of ${entity}`);
    }
    return this.all(parts, 'AND');
  }

  /** A fresh alias for a sub-query, distinct from every alias around it. */
  private nextAlias(): Sql {
    let name: string;
    do name = `r${String(++this.aliases)}`;
    while (this.outerAliases.has(name));
    return quoteIdentifier(this.sql, name);
  }

  /**
   * A relation condition (docs/behaviour.md §5.5) as Prisma reads it: `is`/`isNot` on a belongs_to,
   * `some`/`every`/`none` on a has_many, each an `EXISTS` over the related table; `is: null` and
   * `isNot: null` test the key column itself.
   */
  private relation(entity: string, alias: Sql, name: string, relation: ScopeRelation, condition: unknown): Sql {
    if (!isRecord(condition))
      throw new ScopeTranslationError(`${entity}.${name} needs a relation filter (${RELATION_OPERATORS[relation.kind].join(', ')})`);
    const allowed: readonly string[] = RELATION_OPERATORS[relation.kind];
    const parts: Sql[] = [];
    for (const [operator, operand] of Object.entries(condition)) {
      if (operand === undefined) continue;
      if (!allowed.includes(operator))
        throw new ScopeTranslationError(
          `cannot translate ${entity}.${name}.${operator}: a ${relation.kind === 'belongsTo' ? 'belongs_to' : 'has_many'} takes ${allowed.join(', ')}`,
        );
      const key = this.column(alias, relation.column);
      if (relation.kind === 'belongsTo') {
        if (operand === null) {
          parts.push(operator === 'is' ? sqltag`${key} IS NULL` : sqltag`${key} IS NOT NULL`);
          continue;
        }
        const inner = this.nextAlias();
        const related = sqltag`SELECT 1 FROM ${quoteIdentifier(this.sql, relation.target)} ${inner} WHERE ${inner}.${quoteIdentifier(this.sql, 'id')} = ${key} AND ${this.where(operand, relation.target, inner)}`;
        // Prisma reads `isNot: W` as "no related row meets W": a row without one (a null key) meets it.
        parts.push(operator === 'is' ? sqltag`EXISTS (${related})` : sqltag`NOT EXISTS (${related})`);
        continue;
      }
      const inner = this.nextAlias();
      const children = sqltag`SELECT 1 FROM ${quoteIdentifier(this.sql, relation.target)} ${inner} WHERE ${inner}.${quoteIdentifier(this.sql, relation.column)} = ${alias}.${quoteIdentifier(this.sql, 'id')}`;
      if (operator === 'some') parts.push(sqltag`EXISTS (${children} AND ${this.where(operand, relation.target, inner)})`);
      else if (operator === 'none') parts.push(sqltag`NOT EXISTS (${children} AND ${this.where(operand, relation.target, inner)})`);
      // every: no child fails W — a child for which W is unknown (a NULL compared) fails it, as in Prisma.
      else parts.push(sqltag`NOT EXISTS (${children} AND NOT COALESCE(${this.where(operand, relation.target, inner)}, ${FALSE}))`);
    }
    return this.all(parts, 'AND');
  }

  private field(alias: Sql, name: string, condition: unknown): Sql {
    const column = this.column(alias, name);
    if (condition === null) return sqltag`${column} IS NULL`;
    if (isScalar(condition)) return sqltag`${column} = ${boundText(name, condition)}`;
    if (!isRecord(condition)) throw new ScopeTranslationError(`unsupported condition on ${name}`);
    const parts: Sql[] = [];
    for (const [operator, operand] of Object.entries(condition)) {
      if (operand === undefined) continue;
      parts.push(this.operator(alias, name, column, operator, operand));
    }
    return this.all(parts, 'AND');
  }

  private operator(alias: Sql, name: string, column: Sql, operator: string, operand: unknown): Sql {
    const scalar = (): Scalar => {
      if (!isScalar(operand)) throw new ScopeTranslationError(`${name}.${operator} needs a scalar`);
      return boundText(name, operand);
    };
    const textMatch = (match: TextMatch): Sql => {
      if (typeof operand !== 'string') throw new ScopeTranslationError(`${name}.${operator} needs a string`);
      if (operand.length > MAX_PATTERN_TEXT) {
        const message = `a text to match may be at most ${MAX_PATTERN_TEXT} characters (got ${operand.length})`;
        throw new FailureError({ code: 'BAD_USER_INPUT', message, issues: [{ path: name, message }] });
      }
      return this.sql.textMatch(column, match, boundText(name, operand));
    };
    switch (operator) {
      case 'equals':
        return operand === null ? sqltag`${column} IS NULL` : sqltag`${column} = ${scalar()}`;
      case 'not':
        if (operand === null) return sqltag`${column} IS NOT NULL`;
        if (isRecord(operand)) return sqltag`NOT (${this.field(alias, name, operand)})`;
        return sqltag`${column} <> ${scalar()}`;
      case 'in':
      case 'notIn': {
        if (!Array.isArray(operand) || !operand.every(isScalar))
          throw new ScopeTranslationError(`${name}.${operator} needs a list of scalars`);
        for (const item of operand) boundText(name, item);
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
 * The SQL condition equivalent to the Prisma `where` object `where` on `entity`'s rows named
 * `alias`, in the SQL of the database `sql` writes for (its identifiers and text matches).
 * `schema` says what a condition may name: `entity`'s columns and relations, and through them the
 * related tables' (each relation condition an `EXISTS` sub-query; docs/behaviour.md §5.5). Throws
 * {@link ScopeTranslationError} for anything outside the supported subset, and a BAD_USER_INPUT
 * failure for a text to match that is too long or any text that holds a NUL character.
 */
export function whereToSql(sql: DialectSql, where: Record<string, unknown>, alias: string, entity: string, schema: ScopeSchema): Sql {
  return new ScopeTranslator(sql, schema, new Set([alias])).where(where, entity, quoteIdentifier(sql, alias));
}

export { join, raw, type Sql, sqltag };
