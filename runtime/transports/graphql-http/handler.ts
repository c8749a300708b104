/**
 * POST /graphql (docs/behaviour.md §4.1) through `graphql-http`, the GraphQL-over-HTTP reference
 * implementation: `query`, `variables`, `operationName`, `application/json` and
 * `application/graphql-response+json`. Each operation goes through the engine's preparer (cached
 * parse and validation, limits, guards; runtime/graphql/prepare.ts) and runs on the cached,
 * compiled executor of runtime/graphql/execution.ts; errors carry docs/decisions.md §4 codes.
 */
import type { Request, RequestHandler } from 'express';
import type { ExecutionArgs, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import type { Logger } from 'pino';
import type { Authentication } from '../../auth/authentication.js';
import { runInContext } from '../../auth/context.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { createErrorFormatter } from '../../graphql/errors.js';
import { executeWithCodes } from '../../graphql/execution.js';
import type { OperationPreparer } from '../../graphql/prepare.js';

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
      const reported = (args.contextValue as GraphQLContext).loaders.drainReported();
      if (reported.length > 0) result = { ...result, errors: [...(result.errors ?? []), ...reported] };
      if (options.logger.isLevelEnabled('debug')) {
        const { rows } = (args.contextValue as GraphQLContext).request;
        options.logger.debug({ operationName: args.operationName ?? null, cost: extra?.cost, rows: rows?.count }, 'graphql operation finished');
      }
      return extra ? { ...result, extensions: { ...result.extensions, ...extra } } : result;
    },
  });
}
