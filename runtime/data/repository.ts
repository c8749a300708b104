/**
 * Scoped data access for one entity (docs/behaviour.md §5): the base classes of every generated repository —
 * `ScopedRepository`, what every repository shares, and `EntityRepository`, an entity keyed by one `id`
 * (a composite key's is ./composite-key-repository.ts).
 *
 * Every read is filtered by the ambient ability's rules for the action (`read` by default);
 * every write is checked against the rules of its action on the row it writes; a context without
 * an ability reads nothing and writes nothing (fail closed, docs/behaviour.md §5.6). Lists are keyset pages
 * over the primary key (docs/behaviour.md §8), or whole scoped collections capped at `LIST_CAP` (docs/behaviour.md §4.2).
 */
import type { Logger } from 'pino';
import {
  type AbilityRule,
  canOnRow,
  maskRow,
  type MaskedRow,
  readMayMaskFields,
  rowScope,
  rulesNamingRelations,
  scopedWhere,
  type WhereCondition,
  withRuleMatches,
} from '../auth/ability.js';
import { unmaskedRow } from '../auth/originals.js';
import { currentContext, type RequestContext } from '../auth/context.js';
import { emptyPage, isUuid, LIST_CAP, type Page, type PageArgs, type PageWindow, pageWindow, toPage } from './keyset.js';
import { fail, issueSummary, ok, type Result } from '../failures/result.js';
import { type InsertShape, insertStatement } from './sql-insert.js';
import { type ColumnKind, keyCondition, readColumn, SqlConstraintError, type SqlRunner } from './sql-runner.js';
import { join, quoteIdentifier, raw, type ScopeSchema, ScopeTranslationError, type Sql, sqltag, whereToSql } from './sql-scope.js';
import type { DialectSql } from './sql-text.js';
import { holdsNul, NUL_TEXT_MESSAGE } from './text-input.js';

/**
 * Most keys one statement binds; larger batches are split into one statement per chunk, so a
 * huge page of parents still costs one statement per level per chunk. A database binding fewer
 * parameters gets smaller chunks ({@link keysPerStatement}); SQLite (32 766) and PostgreSQL
 * (65 535) both get this many.
 */
export const MAX_KEYS_PER_STATEMENT = 30_000;

/** Parameters left to the scope's own conditions in a statement binding a chunk of keys. */
const SCOPE_PARAMETER_ROOM = 1_000;

/** The keys one statement of `runner` may bind: {@link MAX_KEYS_PER_STATEMENT}, or fewer where its database binds fewer parameters. */
export function keysPerStatement(runner: SqlRunner): number {
  return Math.max(1, Math.min(MAX_KEYS_PER_STATEMENT, runner.sql.maxBindParameters - SCOPE_PARAMETER_ROOM));
}

/** The raw-query part of the Prisma client (`database.$queryRaw`). */
export interface RawQueryClient {
  $queryRaw<T = unknown>(query: Sql): PromiseLike<T>;
}

/** What a repository is built with besides its Prisma delegate. */
export interface RepositoryOptions {
  /** The entity's stored columns (scope conditions may name them). */
  readonly columns: readonly string[];
  /**
   * The fields the caller's read grant masks in what the repository returns inside a request
   * (docs/behaviour.md §5.5): the entity's wire fields; its stored columns when undefined (an entity
   * not on the wire).
   */
  readonly fields?: readonly string[];
  /**
   * What a scope condition may name, of this entity and of those its relations reach
   * (`SCOPE_SCHEMA` in `generated/entities.ts`): a grant's relation conditions become `EXISTS`
   * sub-queries over it (docs/behaviour.md §5.5). It must hold this entity and every entity a
   * reference names.
   */
  readonly schema: ScopeSchema;
  /** The kind of every stored column that is not text (how a raw row's values are read). */
  readonly columnKinds: Readonly<Record<string, ColumnKind>>;
  /** Runs the loader batches' statements, and inserts creates. */
  readonly sqlRunner: SqlRunner;
  /**
   * How a create writes the entity's row itself (runtime/data/sql-insert.ts); without it every
   * create goes through Prisma.
   */
  readonly insert?: InsertShape;
  /** Where truncation warnings go. */
  readonly logger: Logger;
  /**
   * The entity's foreign keys (its belongs_to relations): a write setting one must name a row the
   * caller may read (docs/hostile-input.md §11). Generated per entity in `generated/entities.ts`.
   */
  readonly references?: readonly EntityReference[];
}

/** A foreign key of an entity: its column and the entity it names (whose read scope a write setting it must meet). */
export interface EntityReference {
  readonly column: string;
  readonly entity: string;
}

/** A reference a write sets whose row the caller may read when `condition` (its read scope) holds of it. */
interface ReadableCheck {
  readonly kind: 'readable';
  readonly reference: EntityReference;
  readonly id: string;
  readonly condition: Sql;
}

/** The read check of one reference a write sets: the condition "the caller may read that row", or refused outright. */
type ReferenceCheck = ReadableCheck | { readonly kind: 'refused'; readonly reference: EntityReference; readonly id: string };

/**
 * Counts the rows a read hands to execution against the request's row budget
 * (`APP_GRAPHQL__MAX_ROWS`, docs/hostile-input.md §3): a page counts its kept rows (the probe row
 * is dropped), a list or batch every row; and the bytes they write against its byte budget (§14),
 * unless `used` is false — a loader batch's rows, which the loaders count at each use. Throws
 * `ROW_LIMIT` or `RESPONSE_TOO_LARGE` once past a budget; returns `read`.
 */
function materialised<T extends readonly unknown[] | Page<unknown>>(context: RequestContext, read: T, used = true): T {
  context.rows?.take(Array.isArray(read) ? read : (read as Page<unknown>).items, used);
  return read;
}

/** Splits `keys` into chunks of at most `size` (deterministic order). */
function chunked<T>(keys: readonly T[], size = MAX_KEYS_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < keys.length; start += size) chunks.push(keys.slice(start, start + size));
  return chunks;
}

/** The Prisma model delegate methods a repository uses (`database.user` satisfies it). */
export interface ModelDelegate<Row, Where, Create> {
  findMany(args: { where?: Where; orderBy?: { id: 'asc' | 'desc' }; take?: number }): PromiseLike<Row[]>;
  findFirst(args: { where?: Where }): PromiseLike<Row | null>;
  create(args: { data: Create }): PromiseLike<Row>;
  updateMany(args: { where?: Where; data: Partial<Create> }): PromiseLike<{ count: number }>;
  deleteMany(args: { where?: Where }): PromiseLike<{ count: number }>;
}

/** Options of {@link EntityRepository.update}. */
export interface UpdateOptions<Where> {
  /** The ability action the write needs (default `update`); e.g. `publish`. */
  readonly action?: string;
  /** Extra condition the row must meet (e.g. `{ status: 'draft' }`); otherwise NOT_FOUND. */
  readonly expect?: Where;
}

/**
 * The join a many_to_many follows (docs/behaviour.md §2.6): the join entity, its column holding the
 * parent's key (`from`) and the one holding the target's (`to`), and its read scope for the caller
 * as SQL over alias `j` (the join repository's `readScopeAs`).
 */
export interface JoinPath {
  readonly entity: string;
  readonly from: string;
  readonly to: string;
  readonly condition: Sql;
}

/** The name of the column a many_to_many's ranked rows carry their parent's key in (never a stored column: `__` is no column name). */
const PARENT_COLUMN = '__parent';

/** A row with a primary key (keyset cursors are ids). */
export interface KeyedRow {
  readonly id: string;
}

/** Is `error` a Prisma known-request error with `code`? */
function isPrismaError(error: unknown, code: string): error is Error & { code: string; meta?: Record<string, unknown> } {
  return error instanceof Error && (error as { code?: unknown }).code === code && error.name === 'PrismaClientKnownRequestError';
}

/** The condition of a scope that is every row (an unscoped context). */
const EVERY_ROW = raw('1 = 1');

/**
 * The select list of `columns` over alias `t` in the SQL `sql` writes, the `key` columns first and
 * each column once: `t."id", t."name"`.
 */
function selectList(sql: DialectSql, key: readonly string[], columns: readonly string[]): Sql {
  return join(
    [...new Set([...key, ...columns])].map((column) => sqltag`t.${quoteIdentifier(sql, column)}`),
    ', ',
  );
}

/** The part of a Prisma model delegate every repository's creates use (`database.user` satisfies it). */
export interface CreateDelegate<Row, Create> {
  create(args: { data: Create }): PromiseLike<Row>;
}

/** The key of one row: its key columns' values, in key order, and those values as one text (a map key). */
interface RowKey {
  readonly values: readonly unknown[];
  readonly text: string;
}

/**
 * What every repository shares, however its rows are keyed (docs/behaviour.md §5): reads filtered
 * by the caller's read scope translated to SQL, what they return masked to the caller's read grant,
 * and creates checked against the create rules and against the references they set
 * (docs/hostile-input.md §11); fail closed without an ability. {@link EntityRepository} finds rows
 * by one `id`; `CompositeKeyRepository` (./composite-key-repository.ts) by a composite key
 * (docs/behaviour.md §2.6). Subclasses (generated) bind the Prisma delegate and the row / where /
 * create types.
 */
export abstract class ScopedRepository<Row extends object, Where extends object, Create extends object> {
  /** What scope conditions may name ({@link RepositoryOptions.schema}). */
  private readonly schema: ScopeSchema;
  /** The entity's stored columns. */
  readonly columns: readonly string[];
  /** Its key columns, in key order: `id`, or a composite key's columns. */
  protected readonly key: readonly string[];
  private readonly columnKinds: Readonly<Record<string, ColumnKind>>;
  /** The stored columns whose raw values {@link fromRaw} converts (those with a kind). */
  private readonly convertedColumns: readonly string[];
  /** The select list of every stored column over alias `t` (statements name their columns, never `t.*`). */
  protected readonly allColumns: Sql;
  protected readonly runner: SqlRunner;
  /** The SQL text of the runner's database. */
  protected readonly sql: DialectSql;
  /** Identifiers statements name, quoted once in {@link sql}: the table, `id` (a referenced row's key; this table's when keyed by it), a check's result. */
  protected readonly quoted: { readonly table: Sql; readonly id: Sql; readonly found: Sql };
  /** The key columns over alias `t`, in key order: `t."id"` (what reads order by). */
  private readonly keyOrder: Sql;
  private readonly insertShape: InsertShape | undefined;
  private readonly references: readonly EntityReference[];
  /** What the caller's read grant masks ({@link RepositoryOptions.fields}). */
  private readonly maskFields: readonly string[];
  protected readonly logger: Logger;
  /** Read scopes translated to SQL ({@link scopeCondition}), by the scope's condition object. */
  private readonly scopeConditions = new WeakMap<WhereCondition, Map<string, Sql>>();

  /**
   * @param entityName the entity (and CASL subject) name, e.g. `User`; also its table name
   * @param creates the Prisma model delegate (`database.user`), which writes the creates the runtime does not write itself
   * @param options columns and their kinds, the SQL runner of reads and creates, the logger
   * @param key the key columns, in key order (`['id']`, or a composite key's)
   */
  protected constructor(
    protected readonly entityName: string,
    private readonly creates: CreateDelegate<Row, Create>,
    options: RepositoryOptions,
    key: readonly string[],
  ) {
    this.columns = options.columns;
    this.key = key;
    this.schema = options.schema;
    this.columnKinds = options.columnKinds;
    this.convertedColumns = options.columns.filter((column) => options.columnKinds[column] !== undefined);
    this.runner = options.sqlRunner;
    this.sql = options.sqlRunner.sql;
    this.quoted = {
      table: quoteIdentifier(this.sql, entityName),
      id: quoteIdentifier(this.sql, 'id'),
      found: quoteIdentifier(this.sql, 'found'),
    };
    this.keyOrder = join(
      key.map((column) => sqltag`t.${quoteIdentifier(this.sql, column)}`),
      ', ',
    );
    this.allColumns = selectList(this.sql, key, options.columns);
    this.insertShape = options.insert;
    this.references = options.references ?? [];
    this.maskFields = options.fields ?? options.columns;
    this.logger = options.logger;
  }

  /**
   * `rows` as `context` may see them (docs/behaviour.md §2.1, §5.5): each masked to the caller's read
   * grant — a field it excludes is left out and reads as its refusal — so nothing a service, a
   * hand-written field, REST handler or MCP tool builds from them can hand out such a field. Rows
   * as they are when the context is unscoped (jobs, seeds) or no read rule restricts fields. Read
   * rules naming a relation are tested in SQL first ({@link testRelationRules}).
   */
  protected async masked(context: RequestContext, rows: Row[]): Promise<MaskedRow<Row>[]> {
    if (context.unmasked === true || !readMayMaskFields(context, this.entityName)) return rows;
    await this.testRelationRules(context, 'read', rows);
    return rows.map((row) => maskRow(context, this.entityName, this.maskFields, row));
  }

  /** One row as {@link masked} leaves it. */
  protected async maskedOne(context: RequestContext, row: Row): Promise<MaskedRow<Row>> {
    return (await this.masked(context, [row]))[0] ?? row;
  }

  /** `rows` as {@link masked} leaves them, counted against the request's row budget (docs/hostile-input.md §3). */
  protected async visible(context: RequestContext, rows: Row[]): Promise<MaskedRow<Row>[]> {
    return materialised(context, await this.masked(context, rows));
  }

  /** The SQL of each rule naming a relation, over alias `t` ({@link testRelationRules}). */
  private readonly ruleConditions = new WeakMap<AbilityRule, Sql | undefined>();

  /**
   * Tests in SQL, for each of `rows`, the caller's `action` rules whose conditions name a relation
   * (docs/behaviour.md §5.5), which CASL cannot test on a row: one statement per chunk of keys, and
   * none when no such rule applies. Records each row's outcome on it (`withRuleMatches`), for
   * masking and the write checks to read. A rule that cannot be translated holds of no row (fail
   * closed; `generate` refuses such a grant).
   */
  protected async testRelationRules(context: RequestContext, action: string, rows: readonly object[]): Promise<void> {
    const ability = context.ability;
    if (context.unscoped || !ability || rows.length === 0) return;
    const rules = rulesNamingRelations(ability, action, this.entityName, this.columns);
    if (rules.length === 0) return;
    const tested = rules.map((rule, index) => ({
      rule,
      alias: quoteIdentifier(this.sql, `__rule_${String(index)}`),
      condition: this.ruleCondition(rule),
    }));
    const byKey = new Map<string, { readonly row: object; readonly key: RowKey }>();
    for (const row of rows) {
      const whole = unmaskedRow(row);
      const key = this.keyOf(whole as Record<string, unknown>);
      if (key) byKey.set(key.text, { row: whole, key });
    }
    const flags = join(
      tested.map(({ alias, condition }) =>
        condition ? sqltag`CASE WHEN ${condition} THEN 1 ELSE 0 END AS ${alias}` : sqltag`0 AS ${alias}`,
      ),
      ', ',
    );
    const keyList = selectList(this.sql, this.key, []);
    const perStatement = Math.max(1, Math.floor(keysPerStatement(this.runner) / this.key.length));
    for (const chunk of chunked([...byKey.values()], perStatement)) {
      const found = await this.runner.read(
        sqltag`SELECT ${keyList}, ${flags} FROM ${this.quoted.table} t WHERE ${this.keysCondition(chunk.map(({ key }) => key.values))}`,
      );
      for (const flagged of found) {
        const key = this.keyOf(this.fromRaw(flagged) as Record<string, unknown>);
        const row = key && byKey.get(key.text)?.row;
        if (!row) continue;
        withRuleMatches(row, new Map(tested.map(({ rule }, index) => [rule, Number(flagged[`__rule_${String(index)}`]) === 1])));
      }
    }
  }

  /** The key of `row` (its key columns' values), or undefined when one of them is missing. */
  private keyOf(row: Record<string, unknown>): RowKey | undefined {
    const values = this.key.map((column) => row[column]);
    if (values.some((value) => value === undefined || value === null)) return undefined;
    // One column's value is its own text (an id); several, each as text, in one JSON list.
    const [only] = values;
    return { values, text: values.length === 1 ? String(only) : JSON.stringify(values.map(String)) };
  }

  /**
   * "The row's key is one of `keys`" over alias `t`: the runner's key batch for one `id` column
   * ({@link keyCondition}), else one conjunction of equalities per key; `keys` is not empty.
   */
  protected keysCondition(keys: readonly (readonly unknown[])[]): Sql {
    const [column, ...others] = this.key;
    if (column !== undefined && others.length === 0)
      return keyCondition(
        this.sql,
        sqltag`t.${quoteIdentifier(this.sql, column)}`,
        keys.map(([value]) => String(value)),
      );
    return sqltag`(${join(
      keys.map((values) => this.keyEquals(values)),
      ' OR ',
      '',
      '',
    )})`;
  }

  /** "The row's key columns hold `values`" over alias `t` (in key order). */
  protected keyEquals(values: readonly unknown[]): Sql {
    return sqltag`(${join(
      this.key.map((column, index) => sqltag`t.${quoteIdentifier(this.sql, column)} = ${values[index]}`),
      ' AND ',
      '',
      '',
    )})`;
  }

  /** {@link testRelationRules}' SQL of `rule`; undefined when it cannot be translated. */
  private ruleCondition(rule: AbilityRule): Sql | undefined {
    if (this.ruleConditions.has(rule)) return this.ruleConditions.get(rule);
    let condition: Sql | undefined;
    try {
      condition = whereToSql(this.sql, rule.conditions ?? {}, 't', this.entityName, this.schema);
    } catch (error) {
      if (!(error instanceof ScopeTranslationError)) throw error;
      condition = undefined;
    }
    this.ruleConditions.set(rule, condition);
    return condition;
  }

  /** The scope of `action` in `context` combined with `extra`; undefined when it denies every row. */
  protected scope(action: string, extra?: Where, context: RequestContext = currentContext()): Where | undefined {
    return scopedWhere(rowScope(context, action, this.entityName), extra as WhereCondition | undefined) as Where | undefined;
  }

  /**
   * The rows the caller may read that meet `filter` and `extra`, in key order, at most `limit`:
   * one statement on the SQL runner with the scope and the filter as SQL (the Prisma query path cost a
   * large share of a list request: BENCHMARKS.md §"Where the time goes"). Undefined when the filter uses something the SQL
   * translation does not cover; the caller then asks Prisma. `limit` undefined: a key lookup, which
   * finds one row at most, so neither order nor limit (SQLite spends longer setting up the sort
   * and limit of a one-row lookup than finding the row: BENCHMARKS.md §"Where the time goes").
   */
  protected async readScoped(
    context: RequestContext,
    filter: Where | undefined,
    extra: Sql | undefined,
    limit: number | undefined,
  ): Promise<Row[] | undefined> {
    const scope = this.scopeCondition(context);
    if (!scope) return [];
    let filterSql: Sql | undefined;
    try {
      filterSql = filter === undefined ? undefined : whereToSql(this.sql, filter as WhereCondition, 't', this.entityName, this.schema);
    } catch (error) {
      if (error instanceof ScopeTranslationError) return undefined;
      throw error;
    }
    const conditions = [scope, ...(filterSql ? [filterSql] : []), ...(extra ? [extra] : [])];
    const where = join(conditions, ' AND ', '', '');
    const statement =
      limit === undefined
        ? sqltag`SELECT ${this.allColumns} FROM ${this.quoted.table} t WHERE ${where}`
        : sqltag`SELECT ${this.allColumns} FROM ${this.quoted.table} t WHERE ${where} ORDER BY ${this.keyOrder} LIMIT ${limit}`;
    return (await this.runner.read(statement)).map((row) => this.fromRaw(row));
  }

  /** The read scope of `context` as SQL over alias `t`; undefined when it denies every row. */
  protected scopeCondition(context: RequestContext): Sql | undefined {
    return this.readScopeAs(context, 't');
  }

  /**
   * The read scope of `context` as SQL over this entity's rows named `alias` (a plain identifier),
   * for a statement joining them (a many_to_many's join rows, docs/behaviour.md §5.8); undefined when
   * it denies every row. Throws `ScopeTranslationError` when the scope cannot be translated.
   */
  readScopeAs(context: RequestContext, alias: string): Sql | undefined {
    const scope = rowScope(context, 'read', this.entityName);
    if (scope.kind === 'deny') return undefined;
    if (scope.kind === 'unscoped') return EVERY_ROW;
    // A rule set's scope is one object (rowScope keeps it), so its translation is kept beside it.
    let byAlias = this.scopeConditions.get(scope.where);
    if (!byAlias) {
      byAlias = new Map();
      this.scopeConditions.set(scope.where, byAlias);
    }
    let condition = byAlias.get(alias);
    if (!condition) {
      condition = whereToSql(this.sql, scope.where, alias, this.entityName, this.schema);
      byAlias.set(alias, condition);
    }
    return condition;
  }

  /**
   * A row of one of this repository's statements as Prisma returns the model row: each value read by
   * its column's kind ({@link readColumn}), in place. Every statement here names the stored columns
   * it selects ({@link allColumns}, {@link columnList}, the window's outer list, `RETURNING`), so the
   * driver's row holds those and nothing else, and is the driver's own fresh object.
   */
  protected fromRaw(rawRow: Record<string, unknown>): Row {
    for (const column of this.convertedColumns) {
      const value = rawRow[column];
      if (value !== undefined) rawRow[column] = readColumn(value, this.columnKinds[column]);
    }
    return rawRow as unknown as Row;
  }

  /**
   * Whether the caller's ability allows `action` on this particular row, its rules tested on the
   * row in memory (docs/behaviour.md §5.5). A rule whose condition names a relation holds only as
   * SQL found it for a row this repository read ({@link allows}); in memory it holds of nothing.
   */
  permits(action: string, row: Partial<Row> | Create): boolean {
    const context = currentContext();
    if (context.unscoped) return true;
    return context.ability ? canOnRow(context.ability, action, this.entityName, row) : false;
  }

  /**
   * Creates a row (docs/behaviour.md §5.5): the `create` rules must allow this very row (so a conditional
   * grant such as "own org" is enforced on the data written), and every foreign key it sets must
   * name a row the caller may read, checked in the statement that writes it (docs/hostile-input.md
   * §11) — otherwise NOT_FOUND, exactly as for a row that does not exist. A unique violation is CONFLICT;
   * a text holding a NUL character is BAD_USER_INPUT naming its column (docs/hostile-input.md §17).
   */
  async create(data: Create): Promise<Result<Row>> {
    const nul = nulInText(data);
    if (nul) return nul;
    if (!this.permits('create', data)) return fail('FORBIDDEN', `you may not create this ${this.entityName}`);
    const context = currentContext();
    const checks = this.referenceChecks(context, data);
    const refused = checks.find((check) => check.kind === 'refused');
    if (refused) return referenceNotFound(refused.reference, refused.id);
    const readable = checks.filter((check): check is ReadableCheck => check.kind === 'readable');
    const guard =
      readable.length === 0
        ? undefined
        : join(
            readable.map((check) => this.readableCondition(check)),
            ' AND ',
            '',
            '',
          );
    try {
      const inserted = await this.insert(data, guard);
      if (inserted === 'refused') return await this.firstUnreadable(checks);
      if (inserted) return ok(await this.maskedOne(context, inserted));
      // Prisma writes it: the references are read first (docs/hostile-input.md §11 says what that leaves).
      const unreadable = await this.unreadableReference(checks);
      if (unreadable) return unreadable;
      return ok(await this.maskedOne(context, await this.creates.create({ data })));
    } catch (error) {
      if (error instanceof SqlConstraintError)
        return error.kind === 'unique' ? this.conflict(error.fields) : await this.missingReference(error.fields, data);
      if (isPrismaError(error, 'P2002')) return this.conflict(uniqueFields(error));
      if (isPrismaError(error, 'P2003'))
        return await this.missingReference(typeof error.meta?.field_name === 'string' ? [error.meta.field_name] : [], data);
      throw error;
    }
  }

  /**
   * The read check of every foreign key `data` sets to a value (docs/hostile-input.md §11); none in
   * an unscoped context (jobs, seeds). A value that is no UUID, or an entity the caller may read no
   * row of, or whose scope cannot be translated (fail closed), is refused at once.
   */
  protected referenceChecks(context: RequestContext, data: object): ReferenceCheck[] {
    if (context.unscoped) return [];
    const values = data as Record<string, unknown>;
    const checks: ReferenceCheck[] = [];
    for (const reference of this.references) {
      const value = values[reference.column];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || !isUuid(value)) {
        checks.push({
          kind: 'refused',
          reference,
          id:
            typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
              ? String(value)
              : typeof value,
        });
        continue;
      }
      const scope = rowScope(context, 'read', reference.entity);
      if (scope.kind === 'deny') {
        checks.push({ kind: 'refused', reference, id: value });
        continue;
      }
      try {
        const condition = scope.kind === 'unscoped' ? EVERY_ROW : whereToSql(this.sql, scope.where, 'r', reference.entity, this.schema);
        checks.push({ kind: 'readable', reference, id: value.toLowerCase(), condition });
      } catch (error) {
        if (!(error instanceof ScopeTranslationError)) throw error;
        checks.push({ kind: 'refused', reference, id: value });
      }
    }
    return checks;
  }

  /** "The caller may read the row `check` names", as SQL: locked against change until the write commits where the database can ({@link DialectSql.referenceLock}). */
  private readableCondition(check: ReadableCheck): Sql {
    const lock = this.sql.referenceLock === undefined ? raw('') : raw(` ${this.sql.referenceLock}`);
    return sqltag`EXISTS (SELECT 1 FROM ${quoteIdentifier(this.sql, check.reference.entity)} r WHERE r.${this.quoted.id} = ${check.id} AND ${check.condition}${lock})`;
  }

  /** NOT_FOUND for the first of `checks` whose row the caller may not read (or that does not exist); read one by one. */
  protected async unreadableReference(checks: readonly ReferenceCheck[]): Promise<Result<never> | undefined> {
    for (const check of checks) {
      if (check.kind === 'refused') return referenceNotFound(check.reference, check.id);
      const rows = await this.runner.read(sqltag`SELECT 1 AS ${this.quoted.found} WHERE ${this.readableCondition(check)}`);
      if (rows.length === 0) return referenceNotFound(check.reference, check.id);
    }
    return undefined;
  }

  /** The NOT_FOUND of a guarded write that wrote nothing: the reference the caller may not read, as read now. */
  private async firstUnreadable(checks: readonly ReferenceCheck[]): Promise<Result<never>> {
    const unreadable = await this.unreadableReference(checks);
    const first = checks[0];
    // Readable again by now (it changed meanwhile): the write still did not happen; name the first.
    return unreadable ?? (first ? referenceNotFound(first.reference, first.id) : fail('NOT_FOUND', `${this.entityName} was not written`));
  }

  /**
   * A foreign key the database refused (the row it names is gone, or an unscoped write named none):
   * NOT_FOUND naming it as a missing row is named — the column the database named, else the first
   * reference of `data` whose row cannot be read now.
   */
  protected async missingReference(fields: readonly string[], data: object): Promise<Result<never>> {
    const values = data as Record<string, unknown>;
    const named = this.references.find((candidate) => fields.includes(candidate.column));
    if (named) return referenceNotFound(named, String(values[named.column]));
    const set = this.references.filter((candidate) => values[candidate.column] !== undefined && values[candidate.column] !== null);
    for (const reference of set) {
      const id = String(values[reference.column]);
      if (!isUuid(id)) return referenceNotFound(reference, id);
      const check: ReadableCheck = { kind: 'readable', reference, id: id.toLowerCase(), condition: EVERY_ROW };
      if ((await this.runner.read(sqltag`SELECT 1 AS ${this.quoted.found} WHERE ${this.readableCondition(check)}`)).length === 0)
        return referenceNotFound(reference, id);
    }
    const [first] = set;
    return first
      ? referenceNotFound(first, String(values[first.column]))
      : fail('NOT_FOUND', `a row this ${this.entityName} names was not found`);
  }

  /** The CONFLICT of a write breaking a unique constraint on `fields` (none when the database did not name them). */
  protected conflict(fields: readonly string[]): Result<never> {
    return fail('CONFLICT', `a ${this.entityName} with the same ${fields.length > 0 ? fields.join(', ') : 'unique value'} already exists`);
  }

  /**
   * `data`'s row written by one `INSERT … RETURNING` on the SQL runner (runtime/data/sql-insert.ts), as
   * Prisma returns it; undefined when that statement cannot write it as Prisma would or the runner
   * inserts nothing (`SqlRunner.insert` absent or answering undefined): the caller asks Prisma.
   * Rejects with {@link SqlConstraintError}.
   */
  private async insert(data: Create, guard?: Sql): Promise<Row | 'refused' | undefined> {
    if (!this.insertShape || !this.runner.insert) return undefined;
    const statement = insertStatement(this.sql, this.entityName, this.insertShape, data, new Date(), guard);
    if (!statement) return undefined;
    const rows = await this.runner.insert(statement);
    if (rows === undefined) return undefined;
    // The statement ran: whatever it returned, Prisma must not write the row a second time.
    const row = rows[0];
    if (!row) {
      if (guard !== undefined) return 'refused';
      throw new Error(`INSERT … RETURNING into ${this.entityName} returned no row`);
    }
    return this.fromRaw(row);
  }
}

/**
 * Scoped data access for an entity keyed by one `id` (docs/behaviour.md §5): keyset pages, lookups,
 * loader batches and checked writes. Subclasses (generated) bind the Prisma delegate and the row /
 * where / create types.
 */
export class EntityRepository<Row extends KeyedRow, Where extends object, Create extends object> extends ScopedRepository<
  Row,
  Where,
  Create
> {
  /** The window's rank column, quoted once. */
  private readonly rank: Sql;

  /**
   * @param entityName the entity (and CASL subject) name, e.g. `User`; also its table name
   * @param delegate the Prisma model delegate (`database.user`): pages, lookups and writes
   * @param options columns and their kinds, the SQL runner of loader batches and creates, the logger
   */
  constructor(
    entityName: string,
    protected readonly delegate: ModelDelegate<Row, Where, Create>,
    options: RepositoryOptions,
  ) {
    super(entityName, delegate, options, ['id']);
    this.rank = quoteIdentifier(this.sql, '__rank');
  }

  /** `page` with its items as {@link masked} leaves them (its cursor taken from the rows as read). */
  private async maskedPage(context: RequestContext, page: Page<Row>): Promise<Page<MaskedRow<Row>>> {
    const items = await this.masked(context, page.items);
    return items === page.items ? page : { ...page, items };
  }

  /**
   * One keyset page of the rows the caller may read, in id order (docs/behaviour.md §4.2, §8): fetches
   * `first + 1` rows after the cursor and drops the probe. `filter` narrows the list further.
   */
  async page(args: PageArgs, filter?: Where): Promise<Page<Row>> {
    const window = pageWindow(args);
    const context = currentContext();
    const after = window.after === undefined ? undefined : sqltag`t.${this.quoted.id} > ${window.after}`;
    const read = await this.readScoped(context, filter, after, window.take);
    if (read) return materialised(context, await this.maskedPage(context, toPage(read, window)));
    const where = this.scope('read', filter, context);
    if (!where) return emptyPage();
    const rows = await this.delegate.findMany({
      where: window.after === undefined ? where : ({ AND: [where, { id: { gt: window.after } }] } as Where),
      orderBy: { id: 'asc' },
      take: window.take,
    });
    return materialised(context, await this.maskedPage(context, toPage(rows, window)));
  }

  /**
   * Every row the caller may read, in id order, capped at `LIST_CAP` (pagination mode `none`,
   * docs/behaviour.md §4.2). Logs a warning naming the entity when the cap truncates the list.
   */
  async listAll(filter?: Where): Promise<Row[]> {
    const context = currentContext();
    let rows = await this.readScoped(context, filter, undefined, LIST_CAP + 1);
    if (!rows) {
      const where = this.scope('read', filter, context);
      if (!where) return [];
      rows = await this.delegate.findMany({ where, orderBy: { id: 'asc' }, take: LIST_CAP + 1 });
    }
    if (rows.length <= LIST_CAP) return materialised(context, await this.masked(context, rows));
    this.logger.warn(
      { entity: this.entityName, cap: LIST_CAP },
      `list of ${this.entityName} truncated to LIST_CAP (${LIST_CAP} rows); page it with a cursor list instead`,
    );
    return materialised(context, await this.masked(context, rows.slice(0, LIST_CAP)));
  }

  /** The row with `id` if it exists and the caller may read it, else null (keys are UUIDs: anything else is null). */
  async findById(id: string): Promise<Row | null> {
    if (!isUuid(id)) return null;
    const context = currentContext();
    const rows = await this.readScoped(context, undefined, sqltag`t.${this.quoted.id} = ${id.toLowerCase()}`, undefined);
    return materialised(context, await this.masked(context, rows ?? []))[0] ?? null;
  }

  /**
   * The readable rows among `ids` (any order; unreadable and unknown ids are left out): one statement
   * per chunk of keys on the SQL runner, under the same translated scope as every other read.
   */
  async findManyByIds(ids: readonly string[]): Promise<Row[]> {
    const keys = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (keys.length === 0) return [];
    const context = currentContext();
    const rows: Row[] = [];
    for (const chunk of chunked(keys, keysPerStatement(this.runner)))
      rows.push(
        ...((await this.readScoped(context, undefined, keyCondition(this.sql, sqltag`t.${this.quoted.id}`, chunk), undefined)) ?? []),
      );
    return materialised(context, await this.masked(context, rows));
  }

  /**
   * Loader batch, primary keys (docs/behaviour.md §2.1 belongs_to): the rows among `ids` that `context` may
   * read, one statement per chunk of keys (raw SQL, so the chunk is ours, not the client's).
   * Unknown and unreadable ids are left out.
   */
  async loadByIds(context: RequestContext, ids: readonly string[], columns?: readonly string[]): Promise<Row[]> {
    const unique = [...new Set(ids.filter(isUuid))];
    const condition = this.scopeCondition(context);
    if (!condition || unique.length === 0) return [];
    const rows: Row[] = [];
    for (const chunk of chunked(unique, keysPerStatement(this.runner))) {
      const statement = sqltag`SELECT ${this.columnList(columns)} FROM ${this.quoted.table} t WHERE ${keyCondition(this.sql, sqltag`t.${this.quoted.id}`, chunk)} AND ${condition}`;
      rows.push(
        ...materialised(
          context,
          await this.masked(
            context,
            (await this.runner.read(statement)).map((row) => this.fromRaw(row)),
          ),
          false,
        ),
      );
    }
    return rows;
  }

  /**
   * The select list over alias `t`: the given columns (which must be stored columns; `id` is
   * always included), or every stored column when undefined.
   */
  private columnList(columns: readonly string[] | undefined): Sql {
    if (columns === undefined) return this.allColumns;
    for (const column of columns) if (!this.columns.includes(column)) throw new Error(`${this.entityName} has no stored column ${column}`);
    return selectList(this.sql, this.key, columns);
  }

  /**
   * Loader batch, foreign keys (docs/behaviour.md §2.2, §8): one keyset page per parent of the rows whose
   * `column` is one of `parentIds`, for every parent in ONE statement per chunk. Rows are
   * filtered by `context`'s read scope first, then ranked within each parent by primary key
   * (`ROW_NUMBER() OVER (PARTITION BY column ORDER BY id)`), and the first `first + 1` kept per
   * parent — never one limit shared by all parents.
   */
  async loadPagesByParent(
    context: RequestContext,
    column: string,
    parentIds: readonly string[],
    window: PageWindow,
    columns?: readonly string[],
  ): Promise<Map<string, Page<Row>>> {
    const condition = this.scopeCondition(context);
    return this.pagesPerParent(context, parentIds, window, condition, async (chunk, scope) => {
      const rows = (
        await this.runner.read(
          this.rankedPageStatement(column, chunk, window, scope, columns === undefined ? undefined : [...columns, column]),
        )
      ).map((rawRow) => this.fromRaw(rawRow));
      return rows.map((row) => ({ parent: String((row as unknown as Record<string, unknown>)[column]), row }));
    });
  }

  /**
   * Loader batch, many_to_many (docs/behaviour.md §2.2, §2.6, §8): one keyset page per parent of the
   * rows linked to each of `parentIds` by the rows of `through`, for every parent in ONE statement per
   * chunk. Both the join rows (by `through.condition`, the join entity's read scope over alias `j`) and
   * these rows (by `context`'s read scope) are filtered first, then ranked within each parent by
   * this entity's primary key, the first `first + 1` kept per parent.
   */
  async loadPagesThrough(
    context: RequestContext,
    through: JoinPath,
    parentIds: readonly string[],
    window: PageWindow,
    columns?: readonly string[],
  ): Promise<Map<string, Page<Row>>> {
    const condition = this.scopeCondition(context);
    return this.pagesPerParent(context, parentIds, window, condition, async (chunk, scope) =>
      (await this.runner.read(this.throughPageStatement(through, chunk, window, scope, columns))).map(
        ({ [PARENT_COLUMN]: parent, ...rawRow }) => ({
          parent: String(parent),
          row: this.fromRaw(rawRow),
        }),
      ),
    );
  }

  /**
   * One keyset page per parent among `parentIds` (undefined `condition`: the scope denies every row,
   * every page empty): `read` reads the ranked rows of a chunk of parents, each with its parent; the
   * pages are cut from the rows as read (a cursor is a key), then every kept row masked at once.
   */
  private async pagesPerParent(
    context: RequestContext,
    parentIds: readonly string[],
    window: PageWindow,
    condition: Sql | undefined,
    read: (chunk: readonly string[], condition: Sql) => Promise<{ parent: string; row: Row }[]>,
  ): Promise<Map<string, Page<Row>>> {
    const pages = new Map<string, Page<Row>>();
    const unique = [...new Set(parentIds)];
    const keys = unique.filter(isUuid);
    if (condition && keys.length > 0) {
      for (const chunk of chunked(keys, keysPerStatement(this.runner))) {
        const byParent = new Map<string, Row[]>();
        for (const { parent, row } of await read(chunk, condition)) {
          const list = byParent.get(parent) ?? [];
          list.push(row);
          byParent.set(parent, list);
        }
        const chunkPages = chunk.map((parent) => toPage(byParent.get(parent) ?? [], window));
        const kept = chunkPages.flatMap((page) => page.items);
        const masked = await this.masked(context, kept);
        let offset = 0;
        chunk.forEach((parent, index) => {
          const page = chunkPages[index] as Page<Row>;
          const items = masked === kept ? page.items : masked.slice(offset, offset + page.items.length);
          offset += page.items.length;
          pages.set(parent, materialised(context, items === page.items ? page : { ...page, items }, false));
        });
      }
    }
    for (const parent of unique) if (!pages.has(parent)) pages.set(parent, emptyPage());
    return pages;
  }

  /**
   * The ranking statement of {@link loadPagesThrough}, over `columns` (undefined: every column): this
   * entity's rows `t` joined to the join rows `j` linking them to each parent, both scoped, ranked per
   * parent by `t`'s key; each row carries its parent's key as {@link PARENT_COLUMN}.
   */
  throughPageStatement(
    through: JoinPath,
    parentIds: readonly string[],
    window: PageWindow,
    condition: Sql,
    columns?: readonly string[],
  ): Sql {
    const { table, id } = this.quoted;
    const rank = this.rank;
    const parent = quoteIdentifier(this.sql, PARENT_COLUMN);
    const from = sqltag`j.${quoteIdentifier(this.sql, through.from)}`;
    const after = window.after === undefined ? raw('') : sqltag` AND t.${id} > ${window.after}`;
    const outer = join(
      [
        ...[...new Set(['id', ...(columns ?? this.columns)])].map((name) => sqltag`ranked.${quoteIdentifier(this.sql, name)}`),
        sqltag`ranked.${parent}`,
      ],
      ', ',
    );
    return sqltag`SELECT ${outer} FROM (SELECT ${this.columnList(columns)}, ${from} AS ${parent}, ROW_NUMBER() OVER (PARTITION BY ${from} ORDER BY t.${id}) AS ${rank} FROM ${table} t JOIN ${quoteIdentifier(this.sql, through.entity)} j ON j.${quoteIdentifier(this.sql, through.to)} = t.${id} WHERE ${keyCondition(this.sql, from, parentIds)}${after} AND ${condition} AND ${through.condition}) ranked WHERE ranked.${rank} <= ${window.take} ORDER BY ranked.${parent}, ranked.${id}`;
  }

  /**
   * The ranking statement of {@link loadPagesByParent} (also read by the query-plan test), over
   * `columns` (undefined: every column; otherwise they must include `column`).
   */
  rankedPageStatement(column: string, parentIds: readonly string[], window: PageWindow, condition: Sql, columns?: readonly string[]): Sql {
    const { table, id } = this.quoted;
    const rank = this.rank;
    const key = quoteIdentifier(this.sql, column);
    const after = window.after === undefined ? raw('') : sqltag` AND t.${id} > ${window.after}`;
    // The outer list names the columns: SQLite spends a share of the statement copying `*`,
    // the rank included, out of the window's co-routine (BENCHMARKS.md §"Where the time goes").
    const outer = join(
      [...new Set(['id', ...(columns ?? this.columns)])].map((name) => sqltag`ranked.${quoteIdentifier(this.sql, name)}`),
      ', ',
    );
    return sqltag`SELECT ${outer} FROM (SELECT ${this.columnList(columns)}, ROW_NUMBER() OVER (PARTITION BY t.${key} ORDER BY t.${id}) AS ${rank} FROM ${table} t WHERE ${keyCondition(this.sql, sqltag`t.${key}`, parentIds)}${after} AND ${condition}) ranked WHERE ranked.${rank} <= ${window.take} ORDER BY ranked.${key}, ranked.${id}`;
  }

  /**
   * `row` (an item published on a subscription's topic) as `context` may read it
   * (docs/behaviour.md §4.1): the row itself when the caller's read rules hold of it in memory; read
   * again under the caller's scope when a rule names a relation (its outcome is known only in SQL) —
   * the row as stored then, masked, or null when the caller may not read it.
   */
  async readableRow(context: RequestContext, row: object): Promise<object | null> {
    if (context.unscoped) return row;
    const ability = context.ability;
    if (!ability) return null;
    if (rulesNamingRelations(ability, 'read', this.entityName, this.columns).length === 0)
      return canOnRow(ability, 'read', this.entityName, row) ? row : null;
    const id = (unmaskedRow(row) as { id?: unknown }).id;
    return typeof id === 'string' ? ((await this.loadByIds(context, [id]))[0] ?? null) : null;
  }

  /**
   * Whether the caller's ability allows `action` on `row`, a row this repository read (it has its
   * `id`): as {@link permits}, with the rules whose conditions name a relation tested in SQL on the
   * stored row first (one statement, only when such a rule applies; docs/behaviour.md §5.5).
   */
  async allows(action: string, row: Partial<Row>): Promise<boolean> {
    const context = currentContext();
    if (context.unscoped) return true;
    if (!context.ability) return false;
    await this.testRelationRules(context, action, [row]);
    return canOnRow(context.ability, action, this.entityName, row);
  }

  /**
   * Updates the row `id` if the caller's rules for `options.action` (default `update`) allow it
   * and it meets `options.expect`; NOT_FOUND otherwise. The check and the write are one
   * statement, so a concurrent change cannot slip between them. Returns the updated row; a text
   * holding a NUL character is BAD_USER_INPUT naming its column (docs/hostile-input.md §17).
   */
  async update(id: string, data: Partial<Create>, options: UpdateOptions<Where> = {}): Promise<Result<Row>> {
    const nul = nulInText(data);
    if (nul) return nul;
    if (!isUuid(id)) return fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
    const conditions = options.expect ? ({ AND: [{ id }, options.expect] } as Where) : ({ id } as Where);
    const where = this.scope(options.action ?? 'update', conditions);
    if (!where) return fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
    // A foreign key it sets must name a row the caller may read (docs/hostile-input.md §11).
    const unreadable = await this.unreadableReference(this.referenceChecks(currentContext(), data));
    if (unreadable) return unreadable;
    try {
      const { count } = await this.delegate.updateMany({ where, data });
      if (count === 0) return fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
    } catch (error) {
      if (isPrismaError(error, 'P2002')) return this.conflict(uniqueFields(error));
      if (isPrismaError(error, 'P2003'))
        return await this.missingReference(typeof error.meta?.field_name === 'string' ? [error.meta.field_name] : [], data);
      throw error;
    }
    const row = await this.delegate.findFirst({ where: { id } as Where });
    return row ? ok(await this.maskedOne(currentContext(), row)) : fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
  }

  /** Deletes the row `id` if the caller's `delete` rules allow it; NOT_FOUND otherwise. */
  async delete(id: string): Promise<Result<{ id: string }>> {
    if (!isUuid(id)) return fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
    const where = this.scope('delete', { id } as Where);
    if (!where) return fail('NOT_FOUND', `${this.entityName} ${id} was not found`);
    const { count } = await this.delegate.deleteMany({ where });
    return count === 0 ? fail('NOT_FOUND', `${this.entityName} ${id} was not found`) : ok({ id });
  }
}

/**
 * The `BAD_USER_INPUT` of a write whose `data` sets a column to a text holding a NUL character,
 * naming the columns (docs/hostile-input.md §17); undefined when none does. Behind the transports'
 * own checks, it makes a value a hand-written service writes refused alike on both databases:
 * SQLite would store it, PostgreSQL refuse it as a fault of its own.
 */
function nulInText(data: object): Result<never> | undefined {
  const issues = Object.entries(data).flatMap(([column, value]) =>
    typeof value === 'string' && holdsNul(value) ? [{ path: column, message: NUL_TEXT_MESSAGE }] : [],
  );
  const first = issues[0];
  return first === undefined ? undefined : fail('BAD_USER_INPUT', `invalid data: ${issueSummary(issues)}`, { field: first.path, issues });
}

/** The columns of a Prisma unique violation (P2002), as its meta or its driver adapter's error names them; none when neither does. */
function uniqueFields(error: { meta?: Record<string, unknown> }): string[] {
  const target = error.meta?.target;
  const fromAdapter = (error.meta?.driverAdapterError as { cause?: { constraint?: { fields?: unknown } } } | undefined)?.cause?.constraint
    ?.fields;
  const fields = Array.isArray(target) ? target : Array.isArray(fromAdapter) ? fromAdapter : [];
  return fields.map(String);
}

/**
 * The NOT_FOUND of a write naming, through `reference`, a row the caller may not read or that does
 * not exist: worded as a missing row is (`Post <id> was not found`), so no answer tells the two apart
 * (docs/hostile-input.md §11).
 */
function referenceNotFound(reference: EntityReference, id: string): Result<never> {
  return fail('NOT_FOUND', `${reference.entity} ${id.length > 64 ? `${id.slice(0, 64)}…` : id} was not found`);
}
