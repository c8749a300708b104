/**
 * What happens to every GraphQL operation before it runs, for both transports (HTTP and
 * graphql-ws): the document is parsed and validated once per query text (or looked up by id
 * among the persisted documents checked at boot, docs/behaviour.md §4.10), checked against the
 * depth and complexity limits, then the operation's guard chain runs once (docs/behaviour.md §5.2) and what the
 * guards seeded — principal and ability — becomes the operation's context (docs/behaviour.md §5.4).
 */
import {
  type DocumentNode,
  type ExecutionArgs,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Logger } from 'pino';
import type { Authentication } from '../auth/authentication.js';
import { ANONYMOUS, type RequestContext, RowBudget, runInContext } from '../auth/context.js';
import { classifyError } from '../failures/errors.js';
import type { RequestObservation } from '../observability/observation.js';
import { type CanActivate, type NamedGuard, runGuards } from '../auth/guards.js';
import type { GraphQLContext } from './context.js';
import { DocumentCache, type DocumentCacheOptions } from './execution.js';
import type { QueryLimits } from './limits.js';
import type { PersistedDocumentRequest, PersistedDocuments } from './persisted.js';

/** Guard chains of one schema, as generated in `graphql/guards.ts`. */
export interface GuardTable {
  /** Chain names by root field (`Query.users`). */
  readonly operations: Readonly<Record<string, readonly string[]>>;
  /** The chain of operations selecting no declared field. */
  readonly global: readonly string[];
  /** Guard instances by name. */
  readonly guards: Readonly<Record<string, CanActivate>>;
}

/**
 * A request for an operation, from either transport: a query text, or — with trusted documents on
 * (runtime/graphql/persisted.ts) — the id of a persisted document.
 */
export interface OperationRequest extends PersistedDocumentRequest {
  readonly query?: string;
  readonly variables?: Record<string, unknown> | null | undefined;
  readonly operationName?: string | null | undefined;
}

/** Ready to execute, or refused (errors, with codes). */
export type PreparedOperation =
  | {
      readonly kind: 'ready';
      readonly args: ExecutionArgs & { contextValue: GraphQLContext };
      readonly operation: OperationDefinitionNode;
      readonly extensions?: Record<string, unknown>;
    }
  | {
      readonly kind: 'refused';
      readonly errors: readonly GraphQLError[];
      /** The operation refused, when the document parsed and named one. */ readonly operation?: OperationDefinitionNode;
    };

/**
 * The root fields an operation selects, as `Type.field` (through fragments on the root type).
 * Linear in the document's size: each fragment is walked once, however often it is spread.
 */
function rootFields(document: DocumentNode, operation: OperationDefinitionNode, rootType: string): string[] {
  const fragments = new Map(
    document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((definition) => [definition.name.value, definition]),
  );
  const fields = new Set<string>();
  const walked = new Set<string>();
  const visit = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!selection.name.value.startsWith('__')) fields.add(`${rootType}.${selection.name.value}`);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!walked.has(selection.name.value)) {
        walked.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return [...fields];
}

/** Bounds of {@link OperationPreparer} (docs/hostile-input.md §2, §3). */
export interface PreparerOptions {
  /** Checked on each document before validation, once per distinct text. */
  readonly documents: DocumentCacheOptions;
  /** Rows one operation (or one subscription event) may materialise (`APP_GRAPHQL__MAX_ROWS`). */
  readonly maxRows: number;
  /** Bytes of rows each operation may read (`APP_GRAPHQL__MAX_RESPONSE_BYTES`, docs/hostile-input.md §14). */
  readonly maxResponseBytes: number;
  /**
   * The persisted documents of `APP_GRAPHQL__TRUSTED_DOCUMENTS` (`allow`, `require`), read and
   * checked at boot with the same bounds and validation; undefined when it is `off`.
   */
  readonly persisted?: (cache: DocumentCache) => PersistedDocuments;
}

/** What an operation of a parsed document is, worked out once per document and operation name. */
interface OperationPlan {
  readonly operation: OperationDefinitionNode;
  /** Its root fields, `Type.field`. */
  readonly fields: readonly string[];
  /** Its guard chain. */
  readonly chain: readonly NamedGuard[];
}

/** Prepares operations of one schema. */
export class OperationPreparer {
  private readonly documents: DocumentCache;
  /**
   * The plans of each cached document (the document cache hands out the same document object for
   * the same text), by operation name (`''` for none); an operation not found is not cached.
   */
  private readonly plans = new WeakMap<DocumentNode, Map<string, OperationPlan>>();
  /** The persisted documents this server answers by id, when trusted documents are on. */
  readonly persisted: PersistedDocuments | undefined;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: QueryLimits,
    private readonly guards: GuardTable,
    private readonly contextFor: (request: RequestContext, authentication: Authentication) => GraphQLContext,
    private readonly logger: Logger,
    private readonly options: PreparerOptions,
  ) {
    this.documents = new DocumentCache(schema, options.documents);
    this.persisted = options.persisted?.(this.documents);
  }

  /** The guard chain of `fields`: the union of their chains, in order, each guard once. */
  private chainOf(fields: readonly string[]): NamedGuard[] {
    const names: string[] = [];
    for (const field of fields) for (const name of this.guards.operations[field] ?? []) if (!names.includes(name)) names.push(name);
    if (fields.length === 0) names.push(...this.guards.global);
    return names.map((name) => {
      const guard = this.guards.guards[name];
      if (!guard) throw new Error(`no guard named ${name}`);
      return { name, guard };
    });
  }

  /** The plan of operation `operationName` of `document`, undefined when it has no such operation. */
  private planOf(document: DocumentNode, operationName: string | null | undefined): OperationPlan | undefined {
    let plans = this.plans.get(document);
    const known = plans?.get(operationName ?? '');
    if (known) return known;
    const operation = getOperationAST(document, operationName);
    if (!operation) return undefined;
    const rootType = this.schema.getRootType(operation.operation)?.name ?? 'Query';
    const fields = rootFields(document, operation, rootType);
    const plan: OperationPlan = { operation, fields, chain: this.chainOf(fields) };
    if (!plans) {
      plans = new Map();
      this.plans.set(document, plans);
    }
    plans.set(operationName ?? '', plan);
    return plan;
  }

  /**
   * Parses, bounds, validates, checks limits and runs guards; never throws for a caller's mistake.
   * Each step before execution is linear in the document's size (docs/hostile-input.md §2).
   * `observation` (the HTTP request's, or the WebSocket connection's; docs/behaviour.md §12) is
   * carried by the guards' context and the operation's. Gives the prepared operation at once when
   * every guard of its chain decides at once, else a promise of it.
   */
  prepare(
    request: OperationRequest,
    authentication: Authentication,
    transport: 'graphql' | 'graphql-ws',
    observation?: RequestObservation,
  ): PreparedOperation | Promise<PreparedOperation> {
    // A persisted document was parsed, bounded and validated at boot; everything after runs on it as on any other.
    const prepared = this.persisted
      ? this.persisted.documentOf(request, (query) => this.documents.prepare(query))
      : this.documents.prepare(request.query ?? '');
    if ('errors' in prepared) return { kind: 'refused', errors: prepared.errors };
    const plan = this.planOf(prepared.document, request.operationName);
    if (!plan) {
      const message = request.operationName
        ? `no operation named ${request.operationName} in the document`
        : 'the document has several operations; send operationName';
      return { kind: 'refused', errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] };
    }
    const base: ExecutionArgs = {
      schema: this.schema,
      document: prepared.document,
      operationName: request.operationName,
      variableValues: request.variables,
    };
    const { operation, fields, chain } = plan;
    const checked = this.limits.check(base);
    if (checked.errors.length > 0) return { kind: 'refused', errors: checked.errors, operation };
    const ready = (seeded: RequestContext): PreparedOperation => ({
      kind: 'ready',
      // Whatever the guards seeded, the operation runs as a request of this transport, within its row budget.
      args: {
        ...base,
        contextValue: this.contextFor(
          { ...seeded, unscoped: false, transport, rows: new RowBudget(this.options.maxRows, this.options.maxResponseBytes), observation },
          authentication,
        ),
      },
      operation,
      ...(checked.extensions ? { extensions: checked.extensions } : {}),
    });
    const refused = (error: unknown): PreparedOperation => {
      const classified = classifyError(error);
      if (classified.kind !== 'failure') throw error;
      return {
        kind: 'refused',
        errors: [new GraphQLError(classified.failure.message, { extensions: { code: classified.failure.code } })],
        operation,
      };
    };
    let seeded: RequestContext | Promise<RequestContext>;
    try {
      // Guards run inside a request context, like the operation: none of them may lift the scope.
      const start: RequestContext = { ...ANONYMOUS, transport, observation };
      seeded = runInContext(start, () => runGuards(chain, { transport, fields, authentication, seeded: start }, this.logger));
    } catch (error) {
      return refused(error);
    }
    // Guards that decide at once give a prepared operation at once: no turn of the microtask queue.
    return seeded instanceof Promise ? seeded.then(ready, refused) : ready(seeded);
  }
}
