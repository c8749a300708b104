/**
 * What the server notes about one request while serving it (docs/behaviour.md §12): its id, the
 * route template that answered, the GraphQL operation it ran, the SQL statements it cost and why it
 * was refused, if it was. The request context carries it (runtime/auth/context.ts), so whatever
 * runs for the request — a repository, a loader batch, a log line — reaches it without being
 * handed it; at the end of the request the access line, the metrics and the request's span are
 * written from it (runtime/observability/index.ts). A WebSocket connection has one too, for the
 * id of its upgrade request.
 */
import type { ServerResponse } from 'node:http';
import type { OperationDefinitionNode } from 'graphql';
import { QUERY_LIMIT_CODES } from '../failures/result.js';

/** The GraphQL operation a request ran, as logs and metrics name it. */
export interface OperationLabel {
  /** The operation's name, `anonymous` when it has none. */
  readonly name: string;
  /** `query`, `mutation` or `subscription`. */
  readonly type: string;
}

/** The label of a parsed operation: its name (`anonymous` without one) and type. */
export function operationLabel(operation: OperationDefinitionNode): OperationLabel {
  return { name: operation.name?.value ?? 'anonymous', type: operation.operation };
}

/**
 * The codes whose answer is a refusal (docs/behaviour.md §12.2: `requests_refused_total`):
 * authentication and grants, the rate limit, and every limit of docs/hostile-input.md. The reason
 * label is the code in lower case.
 */
const REFUSAL_CODES: ReadonlySet<string> = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'TOO_MANY_REQUESTS',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'REQUEST_HEADER_FIELDS_TOO_LARGE',
  'MESSAGE_TOO_LARGE',
  ...QUERY_LIMIT_CODES,
]);

/** The refusal reason of an answer's `code` (`complexity_limit`), or undefined when the code is no refusal. */
export function refusalReason(code: unknown): string | undefined {
  return typeof code === 'string' && REFUSAL_CODES.has(code) ? code.toLowerCase() : undefined;
}

/** The notes of one request (module docstring). Mutable: the steps serving the request fill it in. */
export class RequestObservation {
  /** SQL statements sent while serving it, through the Prisma client and the runtime's SQL runner. */
  statements = 0;
  /** The route template that answered (`/v2/posts/:id`), when a transport said so. */
  route: string | undefined;
  /** The GraphQL operation it ran. */
  operation: OperationLabel | undefined;
  /** Why it was refused (a lower-case refusal code), if it was. */
  refusal: string | undefined;
  /**
   * The trace context of the request's span (./tracing.ts `RequestSpan.context`), active once the
   * request context is seeded (runtime/auth/context.ts `runInContext`); undefined with tracing off.
   */
  traceContext: unknown;

  /** @param requestId the caller's well-formed `X-Request-Id`, or a generated one (runtime/observability/request-id.ts) */
  constructor(readonly requestId: string) {}

  /** Notes a refusal by the code of its answer; the first refusal of a request is the one counted. */
  refuse(code: unknown): void {
    this.refusal ??= refusalReason(code);
  }
}

/**
 * The observation of a response (an Express one, or one answered before the chain: both keep it
 * in `locals`), once the server's front has begun it; undefined before.
 */
export function observationOf(response: ServerResponse): RequestObservation | undefined {
  return (response as { locals?: { observation?: RequestObservation } }).locals?.observation;
}
