/**
 * The GraphQL error envelope (docs/behaviour.md §7, docs/decisions.md §4): every error carries `extensions.code`
 * and the request's `extensions.requestId` (docs/behaviour.md §12.1).
 * Failures keep their caller-safe message and details (`field`, `issues`); database faults
 * become the constant `database error`; anything unexpected becomes `internal server error`.
 * Details, SQL and stacks go to the log only.
 */
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { currentContext } from '../auth/context.js';
import { classifyError, INTERNAL_ERROR_MESSAGE } from '../failures/errors.js';
import { listedIssues, QUERY_LIMIT_CODES } from '../failures/result.js';

/** The codes of a refused persisted-document request (docs/behaviour.md §4.10, §7): 400, no document to run. */
export const PERSISTED_DOCUMENT_CODES = ['PERSISTED_DOCUMENT_NOT_FOUND', 'PERSISTED_DOCUMENT_REQUIRED'] as const;

/**
 * Codes this server puts in `errors[].extensions.code` (docs/decisions.md §4). The `*_LIMIT` codes refuse
 * an operation before it runs, or stop one that reads too much (docs/hostile-input.md §2, §3).
 */
export const GRAPHQL_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  ...QUERY_LIMIT_CODES,
  ...PERSISTED_DOCUMENT_CODES,
  'INTERNAL_SERVER_ERROR',
] as const;

/** One of {@link GRAPHQL_ERROR_CODES}. */
export type GraphQLErrorCode = (typeof GRAPHQL_ERROR_CODES)[number];

/** The `extensions.code` of `error`, if any: graphql-jit builds some errors without `extensions`, whatever its type says. */
function codeOf(error: GraphQLError): unknown {
  return (error.extensions as GraphQLError['extensions'] | undefined)?.code;
}

/**
 * The code `error` will carry on the wire (docs/decisions.md §4), known before it is formatted: its
 * `extensions.code`, or its failure's; undefined for a fault (formatted as `INTERNAL_SERVER_ERROR`).
 */
export function errorCode(error: GraphQLError): string | undefined {
  const code = codeOf(error);
  if (typeof code === 'string') return code;
  const classified = error.originalError ? classifyError(error.originalError) : undefined;
  return classified?.kind === 'failure' ? classified.failure.code : undefined;
}

/**
 * A copy of `error` saying `message`, with `extensions` and `originalError`, at the same place in the
 * document and the answer: its nodes, source and positions, its path, and its locations, which
 * graphql-jit's errors carry without the nodes graphql-js computes them from (a document's second
 * execution on, runtime/graphql/execution.ts), so an error reads the same on every execution.
 */
function copyError(error: GraphQLError, message: string, extensions: Record<string, unknown>, originalError?: Error): GraphQLError {
  const copy = new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError,
    extensions,
  });
  if (copy.locations === undefined && error.locations !== undefined && error.locations.length > 0)
    Object.assign(copy, { locations: error.locations });
  return copy;
}

/** Returns `error` with `extensions.code` set to `code` (unless it already has one). */
export function withCode(error: GraphQLError, code: GraphQLErrorCode, extra: Record<string, unknown> = {}): GraphQLError {
  if (codeOf(error) !== undefined) return error;
  return copyError(error, error.message, { ...error.extensions, code, ...extra }, error.originalError ?? undefined);
}

/** `error` with `extensions.requestId` (unless there is no id to give; docs/behaviour.md §12.1). */
function withRequestId(error: GraphQLError, requestId: string | undefined): GraphQLError {
  if (requestId === undefined) return error;
  return copyError(error, error.message, { ...error.extensions, requestId }, error.originalError ?? undefined);
}

/**
 * Creates the formatter applied to every error leaving the server (graphql-http and graphql-ws).
 * Logs database and internal faults with their details; never puts them on the wire. Each error
 * gets `extensions.requestId`: `requestId` when given (a WebSocket's), else the id of the request
 * being served (the ambient context's).
 */
export function createErrorFormatter(logger: Logger): (error: GraphQLError | Error, requestId?: string) => GraphQLError {
  const format = formatError(logger);
  return (error, requestId) => withRequestId(format(error), requestId ?? currentContext().observation?.requestId);
}

/** The formatter of {@link createErrorFormatter}, before the request id is added. */
function formatError(logger: Logger): (error: GraphQLError | Error) => GraphQLError {
  return (error) => {
    if (!(error instanceof GraphQLError)) {
      // Request-level problems found by graphql-http (malformed JSON, missing query, …).
      return new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT' } });
    }
    const original = error.originalError;
    if (!original || original instanceof GraphQLError) {
      return codeOf(error) === undefined ? withCode(error, 'GRAPHQL_VALIDATION_FAILED') : error;
    }
    const classified = classifyError(original);
    if (classified.kind === 'failure') {
      const { failure } = classified;
      return copyError(error, failure.message, {
        code: failure.code,
        ...(failure.field !== undefined ? { field: failure.field } : {}),
        ...(failure.issues !== undefined ? { issues: listedIssues(failure.issues) } : {}),
      });
    }
    if (classified.kind === 'database') {
      logger.error({ err: original, path: error.path }, 'database error while resolving a GraphQL field');
      return copyError(error, classified.message, { code: 'INTERNAL_SERVER_ERROR' });
    }
    logger.error({ err: original, path: error.path }, 'unexpected error while resolving a GraphQL field');
    return copyError(error, INTERNAL_ERROR_MESSAGE, { code: 'INTERNAL_SERVER_ERROR' });
  };
}
