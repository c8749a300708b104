/**
 * Scoped data access for an entity keyed by a composite primary key (docs/behaviour.md §2.6): an
 * `@Entity({ exposed: false })` with two or more `@PrimaryKey()` columns — a join table, such as a
 * `PostTag` keyed by `(postId, tagId)`, the Prisma schema's `@@id([postId, tagId])`. The base class
 * of its generated repository.
 *
 * It keeps every guarantee of `EntityRepository` (./repository.ts; what the two share is
 * `ScopedRepository`): reads are filtered by the caller's read scope in SQL, and a context without
 * an ability reads and writes nothing (docs/behaviour.md §5.6); what they return is masked to the
 * caller's read grant (§5.5); a create must satisfy the create rules on the row written, and every
 * foreign key it sets must name a row the caller may read — otherwise NOT_FOUND, as for a row that
 * does not exist (docs/hostile-input.md §11); a key that exists already is CONFLICT; deletes stay
 * inside the delete rules. A key column that holds a UUID (a belongs_to column) given anything else
 * finds nothing, as `findById` answers. There is no update: a join row is its key, so changing one
 * is a delete and a create.
 */
import { currentContext } from '../auth/context.js';
import { fail, ok, type Result } from '../failures/result.js';
import { isUuid, LIST_CAP } from './keyset.js';
import { type CreateDelegate, type RepositoryOptions, ScopedRepository } from './repository.js';

/** One column of a composite key, in key order (generated per entity in `generated/entities.ts`). */
export interface KeyColumn {
  readonly name: string;
  /** Whether it holds a row's id (a belongs_to column): a UUID, in the dialect's key type. */
  readonly uuid: boolean;
}

/** What a composite-key repository is built with besides its Prisma delegate: a repository's options and its key. */
export interface CompositeKeyRepositoryOptions extends RepositoryOptions {
  /** The key's columns, in key order (the `@@id`'s order). */
  readonly key: readonly KeyColumn[];
}

/** The Prisma model delegate methods a composite-key repository uses (`database.postTag` satisfies it). */
export interface CompositeKeyDelegate<Row, Where, Create> extends CreateDelegate<Row, Create> {
  findMany(args: { where?: Where; orderBy?: Record<string, 'asc' | 'desc'>[]; take?: number }): PromiseLike<Row[]>;
  deleteMany(args: { where?: Where }): PromiseLike<{ count: number }>;
}

/** The key of a row of `Row` keyed by the columns `Key`: `{ postId, tagId }`. */
export type CompositeKey<Row, Key extends keyof Row> = { readonly [Column in Key]: Row[Column] };

/** Most characters of a key value a NOT_FOUND message repeats (a caller may send anything). */
const QUOTED_VALUE = 64;

/**
 * Scoped data access for entity `entityName`, keyed by the columns `Key` (docs/behaviour.md §2.6).
 * Subclasses (generated) bind the Prisma delegate, the key, and the row / where / create types.
 */
export class CompositeKeyRepository<
  Row extends object,
  Key extends keyof Row & string,
  Where extends object,
  Create extends object,
> extends ScopedRepository<Row, Where, Create> {
  /** The key's columns, in key order. */
  private readonly keyColumns: readonly KeyColumn[];

  /**
   * @param entityName the entity (and CASL subject) name, e.g. `PostTag`; also its table name
   * @param delegate the Prisma model delegate (`database.postTag`): lists the SQL cannot take, deletes, and the creates the runtime does not write itself
   * @param options columns and their kinds, the key, the SQL runner of reads and creates, the logger
   */
  constructor(
    entityName: string,
    protected readonly delegate: CompositeKeyDelegate<Row, Where, Create>,
    options: CompositeKeyRepositoryOptions,
  ) {
    super(
      entityName,
      delegate,
      options,
      options.key.map((column) => column.name),
    );
    this.keyColumns = options.key;
  }

  /**
   * The row with `key` if it exists and the caller may read it, masked to the read grant; null
   * otherwise — and for a UUID key column given anything but a UUID.
   */
  async findByKey(key: CompositeKey<Row, Key>): Promise<Row | null> {
    const values = this.keyValues(key);
    if (!values) return null;
    const context = currentContext();
    const rows = await this.readScoped(context, undefined, this.keyEquals(values), undefined);
    return (await this.visible(context, rows ?? []))[0] ?? null;
  }

  /**
   * Every row the caller may read that meets `filter`, a Prisma `where` (`{ tagId }`: one tag's rows),
   * in key order, masked to the read grant; at most `LIST_CAP`, with a warning naming the entity when
   * that cuts the list short (docs/behaviour.md §4.2). A UUID key column compared with anything but a
   * UUID matches nothing.
   */
  async list(filter?: Where): Promise<Row[]> {
    const context = currentContext();
    const where = filter === undefined ? undefined : this.checkedFilter(filter);
    if (where === null) return [];
    let rows = await this.readScoped(context, where, undefined, LIST_CAP + 1);
    if (!rows) {
      // A filter the SQL translation does not cover: Prisma reads it, under the same scope.
      const scoped = this.scope('read', where, context);
      if (!scoped) return [];
      rows = await this.delegate.findMany({ where: scoped, orderBy: this.key.map((column) => ({ [column]: 'asc' })), take: LIST_CAP + 1 });
    }
    if (rows.length > LIST_CAP) {
      this.logger.warn(
        { entity: this.entityName, cap: LIST_CAP },
        `list of ${this.entityName} truncated to LIST_CAP (${LIST_CAP} rows); narrow the filter`,
      );
      rows = rows.slice(0, LIST_CAP);
    }
    return this.visible(context, rows);
  }

  /**
   * Deletes the row with `key` if the caller's `delete` rules allow it (docs/behaviour.md §5.5);
   * NOT_FOUND otherwise — alike for a row that does not exist, one the caller may not delete, and a
   * key no row can have. Returns the key deleted.
   */
  async delete(key: CompositeKey<Row, Key>): Promise<Result<CompositeKey<Row, Key>>> {
    const values = this.keyValues(key);
    const missing = fail('NOT_FOUND', `${this.entityName} ${this.described(key)} was not found`);
    if (!values) return missing;
    const where = this.scope('delete', Object.fromEntries(this.key.map((column, index) => [column, values[index]])) as Where);
    if (!where) return missing;
    const { count } = await this.delegate.deleteMany({ where });
    return count === 0
      ? missing
      : ok(Object.fromEntries(this.key.map((column, index) => [column, values[index]])) as CompositeKey<Row, Key>);
  }

  /**
   * Deletes every row meeting `filter` (a Prisma `where`: `{ postId }` clears a post's rows) that the
   * caller's `delete` rules allow; returns how many went — none without a `delete` rule, and none when
   * a UUID key column is compared with anything but a UUID.
   */
  async deleteWhere(filter: Where): Promise<number> {
    const where = this.checkedFilter(filter);
    if (where === null) return 0;
    const scoped = this.scope('delete', where);
    if (!scoped) return 0;
    return (await this.delegate.deleteMany({ where: scoped })).count;
  }

  /** `key`'s values in key order, each UUID lower-cased as stored; undefined when one is missing or a UUID column's is no UUID. */
  private keyValues(key: CompositeKey<Row, Key>): unknown[] | undefined {
    const values: unknown[] = [];
    for (const column of this.keyColumns) {
      const value: unknown = (key as Record<string, unknown>)[column.name];
      if (value === undefined || value === null) return undefined;
      if (column.uuid) {
        if (typeof value !== 'string' || !isUuid(value)) return undefined;
        values.push(value.toLowerCase());
      } else values.push(value);
    }
    return values;
  }

  /**
   * `filter` with each UUID key column it sets to a string lower-cased (SQLite compares text as
   * written); null when one such string is no UUID (no row has it, and PostgreSQL would refuse it).
   */
  private checkedFilter(filter: Where): Where | null {
    const checked: Record<string, unknown> = { ...(filter as Record<string, unknown>) };
    for (const column of this.keyColumns) {
      const value = checked[column.name];
      if (!column.uuid || typeof value !== 'string') continue;
      if (!isUuid(value)) return null;
      checked[column.name] = value.toLowerCase();
    }
    return checked as Where;
  }

  /** `key` as a NOT_FOUND message names it: `(postId …, tagId …)`, each value cut short when long. */
  private described(key: CompositeKey<Row, Key>): string {
    const parts = this.key.map((column) => {
      const value: unknown = (key as Record<string, unknown>)[column];
      const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
      return `${column} ${text.length > QUOTED_VALUE ? `${text.slice(0, QUOTED_VALUE)}…` : text}`;
    });
    return `(${parts.join(', ')})`;
  }
}
