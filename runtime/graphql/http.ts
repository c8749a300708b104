/**
 * POST /graphql (spec §4.1) through `graphql-http`, the GraphQL-over-HTTP reference
 * implementation: `query`, `variables`, `operationName`, `application/json` and
 * `application/graphql-response+json`. Parsed and validated documents are cached per query text,
 * so a repeated operation costs neither again; errors carry PRODUCT.md §4 codes.
 */
import type { Request, RequestHandler } from 'express';
import { execute, type ExecutionArgs, type ExecutionResult, type DocumentNode, getOperationAST, GraphQLError, type GraphQLSchema, parse, validate } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { GraphQLContext } from './context.js';
import { createErrorFormatter, withCode } from './errors.js';

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

/** Checks a validated operation before execution: refusals, and extensions for its result. */
export type OperationCheck = (args: ExecutionArgs) => { readonly errors: readonly GraphQLError[]; readonly extensions?: Record<string, unknown> };

/** Options of {@link createGraphQLHandler}. */
export interface GraphQLHandlerOptions {
  readonly schema: GraphQLSchema;
  readonly logger: Logger;
  /** Builds the operation's context from the Express request (after authentication). */
  readonly contextFor: (request: Request) => GraphQLContext;
  /** Refuses an operation before it runs (depth, complexity) or adds extensions to its result. */
  readonly check?: OperationCheck;
}

/** Tags request errors of `execute` (variable coercion, spec §7) as `BAD_USER_INPUT`. */
function executeWithCodes(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const tag = (result: ExecutionResult): ExecutionResult =>
    result.data === undefined && result.errors ? { errors: result.errors.map((error) => withCode(error, 'BAD_USER_INPUT')) } : result;
  const result = execute(args);
  return result instanceof Promise ? result.then(tag) : tag(result);
}

/** The Express handler answering GraphQL over HTTP. */
export function createGraphQLHandler(options: GraphQLHandlerOptions): RequestHandler {
  const documents = new DocumentCache(options.schema);
  const formatError = createErrorFormatter(options.logger);
  const extensions = new WeakMap<ExecutionArgs, Record<string, unknown>>();
  return createHandler<GraphQLContext>({
    schema: options.schema,
    formatError,
    execute: (args: ExecutionArgs) => executeWithCodes(args),
    onSubscribe: (request, params) => {
      const prepared = documents.prepare(params.query);
      if ('errors' in prepared) return prepared.errors;
      const operation = getOperationAST(prepared.document, params.operationName);
      if (!operation) {
        const message = params.operationName ? `no operation named ${params.operationName} in the document` : 'the document has several operations; send operationName';
        return [new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })];
      }
      const args: ExecutionArgs & { contextValue: GraphQLContext } = {
        schema: options.schema,
        document: prepared.document,
        operationName: params.operationName,
        variableValues: params.variables,
        contextValue: options.contextFor(request.raw),
      };
      const checked = options.check?.(args);
      if (checked && checked.errors.length > 0) return checked.errors;
      if (checked?.extensions) extensions.set(args, checked.extensions);
      return args;
    },
    onOperation: (_request, args, result) => {
      const extra = extensions.get(args);
      return extra ? { ...result, extensions: { ...result.extensions, ...extra } } : undefined;
    },
  });
}
