/**
 * Relation fields through batched loaders (docs/behaviour.md §2.1, §2.2, §5.8, §5.10, §8).
 *
 * Loaders are created per request (`dataloader`): every `User.org` of one level becomes one
 * primary-key batch, every `Org.users(first, after)` of one level one ranked statement. A batch
 * runs after the tick that scheduled it, so it takes the request's executor and ability from the
 * {@link BatchContext} captured by `LoaderScope` when the request began — never from the ambient
 * store. Without a `LoaderScope` in a reachable module there is no batch context: every relation
 * field fails with `database error` (logged at error level, naming the entity) while scalar
 * fields still resolve, and the failure stays local to the field:
 * - a belongs_to field is nullable: it is `null`, with the error at its path;
 * - a has_many connection is non-null (`UserConnection!`), so an error raised there would null its
 *   parent and, through non-null lists, the whole `data`. It answers an empty connection instead
 *   (no edges, `hasNextPage: false`: nothing is shown) and reports the error at its own path
 *   through {@link RequestLoaders.reported}, which the transports append to the result.
 */
import DataLoader from 'dataloader';
import { GraphQLError, type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { Logger } from 'pino';
import { conditionColumns, type MaskedRow } from '../auth/ability.js';
import { unmaskedRow } from '../auth/originals.js';
import { type RequestContext, rowBytes, runInContext } from '../auth/context.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import { type Page, type PageArgs, type PageWindow, pageWindow } from '../data/keyset.js';
import type { JoinPath, KeyedRow } from '../data/repository.js';
import type { Sql } from '../data/sql-scope.js';
import type { LoaderObserver } from '../observability/index.js';
import { selectedColumns } from './projection.js';

/** What a loader batch runs with: the request's principal and ability. */
export interface BatchContext {
  readonly request: RequestContext;
}

/**
 * The GraphQL batch-context provider (docs/behaviour.md §5.10): list it in the providers of a module
 * reachable from `AppModule`. Per request it captures, explicitly, what loader batches need.
 */
export class LoaderScope {
  /** The batch context of one request. */
  capture(request: RequestContext): BatchContext {
    return { request };
  }
}

/** Thrown when a relation is resolved without a batch context; reported as `database error`. */
class BatchContextMissingError extends Error {
  override readonly name = 'BatchContextMissingError';
}

/** What every repository reads under the caller's scope, a join table's too (runtime/data/repository.ts `ScopedRepository`). */
export interface ScopedReader {
  /** The caller's read scope as SQL over the entity's rows named `alias`; undefined when it denies every row. */
  readScopeAs(context: RequestContext, alias: string): Sql | undefined;
}

/** The loader side of a repository (what `generated/repositories/*` inherit): rows come back masked to `context`'s read grant (docs/behaviour.md §5.5). */
export interface LoadableRepository extends ScopedReader {
  /** The entity's stored columns. */
  readonly columns: readonly string[];
  /** `columns` undefined: every column. */
  loadByIds(context: RequestContext, ids: readonly string[], columns?: readonly string[]): Promise<KeyedRow[]>;
  loadPagesByParent(
    context: RequestContext,
    column: string,
    parentIds: readonly string[],
    window: PageWindow,
    columns?: readonly string[],
  ): Promise<Map<string, Page<KeyedRow>>>;
  /** A published item as `context` may read it, or null (docs/behaviour.md §4.1). */
  readableRow(context: RequestContext, row: object): Promise<object | null>;
  loadPagesThrough(
    context: RequestContext,
    through: JoinPath,
    parentIds: readonly string[],
    window: PageWindow,
    columns?: readonly string[],
  ): Promise<Map<string, Page<KeyedRow>>>;
}

/** Whether `repository` loads rows by key (a join table's reads only under scope). */
export function isLoadable(repository: ScopedReader | undefined): repository is LoadableRepository {
  return repository !== undefined && 'loadByIds' in repository;
}

/** The join entity a many_to_many follows and its two key columns (docs/behaviour.md §2.6), as generated code names them. */
export interface JoinColumns {
  readonly entity: string;
  /** Its column holding the parent's key. */
  readonly from: string;
  /** Its column holding the target's key. */
  readonly to: string;
}

/** Separates a loader key's parts (ids and column names never contain it). */
const SEPARATOR = '\u0000';

/** A has_many relation page on the wire (docs/behaviour.md §2.4): the cursor is the child's primary key. */
export interface Connection<T> {
  readonly edges: readonly { readonly cursor: string; readonly node: T }[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor: string | null };
}

/** The connection of a page (docs/behaviour.md §2.4). */
export function toConnection<T extends KeyedRow>(page: Page<T>): Connection<T> {
  const last = page.items[page.items.length - 1];
  return {
    edges: page.items.map((node) => ({ cursor: node.id, node })),
    pageInfo: { hasNextPage: page.has_more, endCursor: last ? last.id : null },
  };
}

/** Everything loaders need from the application, shared by all requests. */
export interface LoaderRegistry {
  readonly repositories: ReadonlyMap<string, ScopedReader>;
  readonly entities: ReadonlyMap<string, EntityDescriptor>;
  readonly logger: Logger;
  /** Sees every batch — its relation, its size — and runs it (docs/behaviour.md §12.2, §12.3); undefined: batches run as they are. */
  readonly observe?: LoaderObserver | undefined;
}

/**
 * The relation a loader serves, as metrics and spans name it (`User.posts`): the field being
 * resolved when the loader is made, or the entity it loads when there is none.
 */
function relationOf(entity: string, info: GraphQLResolveInfo | undefined): string {
  return info ? `${info.parentType.name}.${info.fieldName}` : entity;
}

/** Bytes a connection writes beside its rows' (`{"edges":[…],"pageInfo":{…}}`), and each edge beside its row (`{"cursor":"<uuid>","node":…}`), counted generously. */
const CONNECTION_BYTES = 96;
const EDGE_BYTES = 64;

/** The bytes a connection writes (docs/hostile-input.md §14): its rows' as JSON writes them, and its edges' and page's. */
function connectionBytes(value: unknown): number {
  const connection = value as Connection<object>;
  let bytes = CONNECTION_BYTES;
  for (const edge of connection.edges) bytes += EDGE_BYTES + rowBytes(edge.node);
  return bytes;
}

/** A computed field's arguments as a loader-key part: parents asking with the same arguments share a call. */
function argumentsKey(args: unknown): string {
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

/** Loader-key parts of selected column lists ({@link selectedColumns} returns one list per field of a document). */
const COLUMN_KEYS = new WeakMap<readonly string[], string>();

/** The loaders of one request. */
export class RequestLoaders {
  private readonly byId = new Map<string, DataLoader<string, MaskedRow<KeyedRow> | null>>();
  private readonly byParent = new Map<string, DataLoader<string, Connection<MaskedRow<KeyedRow>>>>();
  private readonly computedFields = new Map<string, DataLoader<object, unknown>>();
  /** The bytes each loaded value writes, by loader and key, once its batch resolved (docs/hostile-input.md §14). */
  private readonly valueBytes = new Map<string, number>();
  /** Uses of a value asked for before its batch resolved, by loader and key. */
  private readonly pendingUses = new Map<string, number>();
  /** Entities whose missing batch context was already logged for this request. */
  private readonly logged = new Set<string>();
  /**
   * Errors of fields that answered without failing (a has_many without batch context, docs/behaviour.md §5.10),
   * each at its field's path; {@link drainReported} hands them to the operation's result.
   */
  private readonly reported: GraphQLError[] = [];

  /**
   * @param batch the request's batch context, or undefined when no `LoaderScope` is provided
   * @param registry repositories and entity descriptors by entity name
   */
  constructor(
    private readonly batch: BatchContext | undefined,
    private readonly registry: LoaderRegistry,
  ) {}

  private repository(entity: string): LoadableRepository {
    const repository = this.registry.repositories.get(entity);
    if (!isLoadable(repository)) throw new Error(`no repository for ${entity}`);
    return repository;
  }

  private requireBatch(entity: string): BatchContext {
    if (this.batch) return this.batch;
    throw this.missingBatch(entity);
  }

  /** The error of a relation resolved without batch context, logged once per entity and request. */
  private missingBatch(entity: string): BatchContextMissingError {
    const error = new BatchContextMissingError(
      `a ${entity} loader batch ran with no batch context: list LoaderScope in the providers of a module reachable from AppModule`,
    );
    if (!this.logged.has(entity)) {
      this.logged.add(entity);
      this.registry.logger.error({ entity }, error.message);
    }
    return error;
  }

  /**
   * A connection resolved with no batch context (docs/behaviour.md §5.10): a local failure, an empty
   * connection with the error at this field's path (rejected outside GraphQL execution).
   */
  private missingConnection(entity: string, info: GraphQLResolveInfo | undefined): Promise<Connection<MaskedRow<KeyedRow>>> {
    const error = this.missingBatch(entity);
    if (!info) return Promise.reject(error);
    this.reported.push(
      new GraphQLError(error.message, { nodes: info.fieldNodes, path: responsePathAsArray(info.path), originalError: error }),
    );
    return Promise.resolve(toConnection({ items: [], has_more: false }));
  }

  /**
   * many_to_many (docs/behaviour.md §2.2, §2.6, §8): one connection page of `entity` rows linked to
   * `parent` by the rows of `through`, with the list rules; every parent asking with the same
   * arguments shares one ranked statement, in which the join rows are read under the caller's scope
   * of the join entity and the rows under theirs (a join entity the caller may read no row of links
   * nothing). Without a batch context it answers as a has_many does (§5.10).
   */
  manyToMany(
    entity: string,
    through: JoinColumns,
    parent: object,
    args: PageArgs,
    info?: GraphQLResolveInfo,
  ): Promise<Connection<MaskedRow<KeyedRow>>> {
    const window = pageWindow(args);
    const parentId = (parent as Record<string, unknown>).id;
    if (typeof parentId !== 'string') return Promise.resolve(toConnection({ items: [], has_more: false }));
    if (!this.batch) return this.missingConnection(entity, info);
    const key = [entity, through.entity, through.from, through.to, window.take, window.after ?? ''].join(SEPARATOR);
    let loader = this.byParent.get(key);
    if (!loader) {
      const relation = relationOf(entity, info);
      loader = new DataLoader(async (keys) => {
        const batch = this.requireBatch(entity);
        const parts = keys.map((loadKey) => loadKey.split(SEPARATOR) as [string, string]);
        const columns = this.batchColumns(entity, batch, new Set(parts.map(([, needed]) => needed)));
        const join = this.registry.repositories.get(through.entity);
        const condition = join?.readScopeAs(batch.request, 'j');
        const load = async (): Promise<Map<string, Page<KeyedRow>>> =>
          condition === undefined
            ? new Map()
            : this.repository(entity).loadPagesThrough(
                batch.request,
                { ...through, condition },
                parts.map(([id]) => id),
                window,
                columns,
              );
        const pages = await (this.registry.observe ? this.registry.observe(relation, keys.length, load) : load());
        const connections = parts.map(([id]) => toConnection(pages.get(id) ?? { items: [], has_more: false }));
        this.resolvedValues(key, keys, connections, connectionBytes);
        return connections;
      });
      this.byParent.set(key, loader);
    }
    const loadKey = `${parentId}${SEPARATOR}${this.columnsKey(entity, info, true)}`;
    this.use(key, loadKey);
    return loader.load(loadKey);
  }

  /**
   * A batched computed field (docs/behaviour.md §2.1, §8): `compute` — the field's method — is called
   * once per level with every parent asking for `field` (`Post.reviewerName`) with the same `args`,
   * inside the request's context from `LoaderScope`, and answers one value per parent, in order; this
   * parent's value is returned. A value that is an `Error` (a field the caller's grant excludes reads
   * as one) is this field's error. Without a batch context, or when `compute` answers a list of another
   * length, every parent's field fails (the first with `database error`, as relations do; the second
   * naming the method's contract).
   */
  computed<P extends object, T>(
    field: string,
    args: unknown,
    parent: P,
    compute: (parents: P[]) => readonly T[] | PromiseLike<readonly T[]>,
  ): Promise<T> {
    const key = `${field}${SEPARATOR}${argumentsKey(args)}`;
    let loader = this.computedFields.get(key);
    if (!loader) {
      loader = new DataLoader<object, unknown>(async (parents) => {
        const batch = this.requireBatch(field);
        const run = async (): Promise<unknown[]> => {
          // One loader per field and arguments: its parents are the `P` this field's resolver hands in.
          const values: unknown = await runInContext(batch.request, () => compute([...parents] as P[]));
          const answered: readonly unknown[] | undefined = Array.isArray(values) ? (values as readonly unknown[]) : undefined;
          if (answered?.length !== parents.length)
            throw new Error(
              `${field} answered ${answered ? `${String(answered.length)} values` : 'no list'} for ${String(parents.length)} parents: a batched field answers one value per parent, in order`,
            );
          return [...answered];
        };
        return this.registry.observe ? this.registry.observe(field, parents.length, run) : run();
      });
      this.computedFields.set(key, loader);
    }
    return loader.load(parent) as Promise<T>;
  }

  /**
   * An item published on a subscription's topic as the subscriber (`request`) may read it as
   * `entity` (docs/behaviour.md §4.1): filtered by their read rules, and read again under their
   * scope when a rule names a relation; null when they may not read it.
   */
  readable(entity: string, request: RequestContext, item: object): Promise<object | null> {
    return this.repository(entity).readableRow(request, item);
  }

  /**
   * Counts one use of the value `key` loads (`loader` names the loader) against the request's byte
   * budget (docs/hostile-input.md §14): at once when its batch already resolved — a sub-tree
   * repeated under another parent counts again — or when it does ({@link resolvedValues}). Throws
   * `RESPONSE_TOO_LARGE` past the budget, so the field asking errors and nothing below it runs.
   */
  private use(loader: string, key: string): void {
    const budget = this.batch?.request.rows;
    if (!budget?.countsBytes) return;
    const used = `${loader}${SEPARATOR}${key}`;
    const known = this.valueBytes.get(used);
    if (known !== undefined) budget.spend(known);
    else this.pendingUses.set(used, (this.pendingUses.get(used) ?? 0) + 1);
  }

  /** Records the bytes of the values a batch of `loader` resolved `keys` to, and counts the uses asked for meanwhile ({@link use}). */
  private resolvedValues(loader: string, keys: readonly string[], values: readonly unknown[], bytesOf: (value: unknown) => number): void {
    const budget = this.batch?.request.rows;
    if (!budget?.countsBytes) return;
    keys.forEach((key, index) => {
      const used = `${loader}${SEPARATOR}${key}`;
      const bytes = bytesOf(values[index]);
      this.valueBytes.set(used, bytes);
      const uses = this.pendingUses.get(used) ?? 0;
      this.pendingUses.delete(used);
      budget.spend(bytes * uses);
    });
  }

  /**
   * Returns and forgets the errors reported beside the data since the last call (docs/behaviour.md §5.10); the
   * transports append them to each result (a subscription: to each event's).
   */
  drainReported(): GraphQLError[] {
    return this.reported.splice(0, this.reported.length);
  }

  /**
   * The columns a relation field at `info` needs, as a loader-key part: `*` for every column,
   * else a comma-joined sorted list. Without `info` (a call from outside GraphQL execution) every
   * column is read.
   */
  private columnsKey(entity: string, info: GraphQLResolveInfo | undefined, connection: boolean): string {
    const descriptor = this.registry.entities.get(entity);
    if (!info || !descriptor) return '*';
    const columns = selectedColumns(info, descriptor, connection);
    if (columns === undefined) return '*';
    // The same list for every parent of a level: joined once.
    let key = COLUMN_KEYS.get(columns);
    if (key === undefined) {
      key = columns.join(',');
      COLUMN_KEYS.set(columns, key);
    }
    return key;
  }

  /**
   * What one batch reads: the union of the columns its keys ask for, plus those the caller's read
   * rules test (masking evaluates them per row); undefined when any key needs every column.
   */
  private batchColumns(entity: string, batch: BatchContext, columnKeys: Iterable<string>): readonly string[] | undefined {
    const columns = new Set<string>();
    for (const key of columnKeys) {
      if (key === '*') return undefined;
      for (const column of key.split(',')) columns.add(column);
    }
    const tested = batch.request.unscoped ? [] : conditionColumns(batch.request.ability, 'read', entity, this.repository(entity).columns);
    if (tested === undefined) return undefined;
    for (const column of tested) columns.add(column);
    return [...columns];
  }

  /**
   * belongs_to (docs/behaviour.md §2.1): the `entity` row whose primary key is `parent[column]`, masked; null
   * when there is no key (or it is masked), no such row, or the caller may not read it (no error,
   * docs/behaviour.md §5.8). With `info`, only the columns the selection needs are read.
   */
  belongsTo(entity: string, parent: object, column: string, info?: GraphQLResolveInfo): Promise<MaskedRow<KeyedRow> | null> {
    const id = (parent as Record<string, unknown>)[column];
    if (typeof id !== 'string') return Promise.resolve(null);
    let loader = this.byId.get(entity);
    if (!loader) {
      // Keys are `id \0 columns`: one statement per batch over the union of the columns asked.
      const relation = relationOf(entity, info);
      loader = new DataLoader(async (keys) => {
        const batch = this.requireBatch(entity);
        const parts = keys.map((key) => key.split(SEPARATOR) as [string, string]);
        const load = (): Promise<KeyedRow[]> =>
          this.repository(entity).loadByIds(
            batch.request,
            parts.map(([key]) => key),
            this.batchColumns(entity, batch, new Set(parts.map(([, columns]) => columns))),
          );
        // The repository masks what it reads to the caller's grant (docs/behaviour.md §5.5).
        const rows = await (this.registry.observe ? this.registry.observe(relation, keys.length, load) : load());
        // Keyed by the id as read: a grant may mask the id itself.
        const byId = new Map(rows.map((row) => [unmaskedRow(row).id, row]));
        const found = parts.map(([key]) => byId.get(key) ?? null);
        this.resolvedValues(entity, keys, found, rowBytes);
        return found;
      });
      this.byId.set(entity, loader);
    }
    const loadKey = `${id}${SEPARATOR}${this.columnsKey(entity, info, false)}`;
    this.use(entity, loadKey);
    // The loader's own promise, not one wrapping it: each of a level's parents asks, and each wrapper
    // would cost a promise and two turns of the microtask queue.
    return loader.load(loadKey);
  }

  /**
   * has_many (docs/behaviour.md §2.2, §8): one connection page of `entity` rows whose `column` is `parent.id`,
   * with the list rules (default 20, clamp 1..=100, unparseable `after` from the start). All
   * parents asking with the same arguments share one ranked statement.
   */
  hasMany(
    entity: string,
    column: string,
    parent: object,
    args: PageArgs,
    info?: GraphQLResolveInfo,
  ): Promise<Connection<MaskedRow<KeyedRow>>> {
    const window = pageWindow(args);
    const parentId = (parent as Record<string, unknown>).id;
    if (typeof parentId !== 'string') return Promise.resolve(toConnection({ items: [], has_more: false }));
    if (!this.batch) return this.missingConnection(entity, info);
    const key = [entity, column, window.take, window.after ?? ''].join(SEPARATOR);
    let loader = this.byParent.get(key);
    if (!loader) {
      // Keys are `parent id \0 columns`: one ranked statement per batch over the union of the columns asked.
      const relation = relationOf(entity, info);
      loader = new DataLoader(async (keys) => {
        const batch = this.requireBatch(entity);
        const parts = keys.map((loadKey) => loadKey.split(SEPARATOR) as [string, string]);
        const columns = this.batchColumns(entity, batch, new Set(parts.map(([, needed]) => needed)));
        const load = (): Promise<Map<string, Page<KeyedRow>>> =>
          this.repository(entity).loadPagesByParent(
            batch.request,
            column,
            parts.map(([parent]) => parent),
            window,
            columns,
          );
        // The repository masks what it reads to the caller's grant (docs/behaviour.md §5.5).
        const pages = await (this.registry.observe ? this.registry.observe(relation, keys.length, load) : load());
        // Each parent's connection is made here, so a parent's answer is the loader's own promise,
        // not one more promise (and its turn of the microtask queue) chained on it.
        const connections = parts.map(([parent]) => toConnection(pages.get(parent) ?? { items: [], has_more: false }));
        this.resolvedValues(key, keys, connections, connectionBytes);
        return connections;
      });
      this.byParent.set(key, loader);
    }
    const loadKey = `${parentId}${SEPARATOR}${this.columnsKey(entity, info, true)}`;
    this.use(key, loadKey);
    return loader.load(loadKey);
  }
}
