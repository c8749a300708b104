/**
 * POST /graphql (spec §4.1) through `graphql-http`, the GraphQL-over-HTTP reference
 * implementation: `query`, `variables`, `operationName`, `application/json` and
 * `application/graphql-response+json`. Parsed and validated documents are cached per query text,
 * so a repeated operation costs neither again; errors carry PRODUCT.md §4 codes.
 */
import type { Request, RequestHandler } from 'express';
import { execute, type ExecutionArgs, type ExecutionResult, type DocumentNode, GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Authentication } from '../auth.js';
import { runInContext } from '../context.js';
import type { GraphQLContext } from './context.js';
import { createErrorFormatter, withCode } from './errors.js';
import type { OperationPreparer } from './prepare.js';

/** A parsed document that passed validation, or the errors it produced. */
export type PreparedDocument = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] };

/** Parses and validates documents once per distinct query text (bounded LRU). */
export class DocumentCache {
  private readonly cache = new LRUCache<string, PreparedDocument>({ max: 2_000 });

  constructor(private readonly schema: GraphQLSchema) {}

  /** The validated document of `query`, or its parse / validation errors (with codes). */
  prepare(query: string): PreparedDocument {
    const cached = this.cache.get(query);
    if (cached) return cached;
    let prepared: PreparedDocument;
    try {
      const document = parse(query);
      const errors = validate(this.schema, document);
      prepared = errors.length > 0 ? { errors: errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')) } : { document };
    } catch (error) {
      prepared = { errors: [error instanceof GraphQLError ? withCode(error, 'GRAPHQL_PARSE_FAILED') : new GraphQLError('could not parse the query', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    this.cache.set(query, prepared);
    return prepared;
  }
}

/** Options of {@link createGraphQLHandler}. */
export interface GraphQLHandlerOptions {
  readonly schema: GraphQLSchema;
  readonly logger: Logger;
  /** Parses, checks and guards each operation (shared with graphql-ws). */
  readonly preparer: OperationPreparer;
  /** How reading the bearer token of the Express request went. */
  readonly authenticationOf: (request: Request) => Authentication;
}

/**
 * Compiled executors (graphql-jit) per validated document and operation name: a document is
 * compiled once into a function that resolves its selection without re-walking the AST (issue 7).
 * A document the compiler refuses is executed by graphql-js (`null` marks it).
 */
const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

function compiledQueryOf(args: ExecutionArgs): CompiledQuery | null {
  let byName = compiled.get(args.document);
  if (!byName) {
    byName = new Map();
    compiled.set(args.document, byName);
  }
  const name = args.operationName ?? '';
  let query = byName.get(name);
  if (query === undefined) {
    const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    query = isCompiledQuery(result) ? result : null;
    byName.set(name, query);
  }
  return query;
}

/**
 * Executes a prepared operation (compiled when the compiler accepts the document, else
 * graphql-js); tags request errors (variable coercion, spec §7) as `BAD_USER_INPUT`.
 */
export function executeWithCodes(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const tag = (result: ExecutionResult): ExecutionResult =>
    result.data === undefined && result.errors ? { errors: result.errors.map((error) => withCode(error, 'BAD_USER_INPUT')) } : result;
  const query = compiledQueryOf(args);
  const result = query ? query.query(args.rootValue, args.contextValue, args.variableValues) : execute(args);
  return result instanceof Promise ? result.then(tag) : tag(result);
}

/**
 * The Express handler answering GraphQL over HTTP. Each operation is prepared (cached parse and
 * validation, limits, guards) and then executed inside the ambient context its guards seeded.
 */
export function createGraphQLHandler(options: GraphQLHandlerOptions): RequestHandler {
  const formatError = createErrorFormatter(options.logger);
  const extensions = new WeakMap<ExecutionArgs, Record<string, unknown>>();
  return createHandler<GraphQLContext>({
    schema: options.schema,
    formatError,
    execute: (args: ExecutionArgs) => runInContext((args.contextValue as GraphQLContext).request, () => executeWithCodes(args)),
    onSubscribe: async (request, params) => {
      const prepared = await options.preparer.prepare(params, options.authenticationOf(request.raw), 'graphql');
      if (prepared.kind === 'refused') return prepared.errors;
      if (prepared.extensions) extensions.set(prepared.args, prepared.extensions);
      return prepared.args;
    },
    onOperation: (_request, args, result) => {
      const extra = extensions.get(args);
      return extra ? { ...result, extensions: { ...result.extensions, ...extra } } : undefined;
    },
  });
}
