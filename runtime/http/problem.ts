/**
 * REST errors as `application/problem+json` (RFC 9457, docs/decisions.md §4): `type`, `title`,
 * `status`, `detail`, plus `code` (the same codes as GraphQL's `extensions.code`), `requestId`
 * (docs/behaviour.md §12.1) and, where they apply, `field`, `issues` or `versions`. Database faults
 * say only `database error`.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { classifyError, INTERNAL_ERROR_MESSAGE } from '../failures/errors.js';
import { type Failure, type FailureCode, listedIssues } from '../failures/result.js';
import { observationOf } from '../observability/observation.js';
import { REQUEST_ID_HEADER } from '../observability/request-id.js';
import { writeJson } from './answer.js';

/** A problem document (RFC 9457) with this server's extension members. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [extension: string]: unknown;
}

/** HTTP status of each failure code. */
const FAILURE_STATUS: Readonly<Record<FailureCode, number>> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ROW_LIMIT: 400,
  RESPONSE_TOO_LARGE: 400,
};

/** A problem document for `status` with `detail` and extension members. */
export function problem(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}): Problem {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, code, ...extensions };
}

/** The problem document of `failure`: its code's status (docs/behaviour.md §7), its message as `detail`, its field and issues. */
export function failureProblem(failure: Failure): Problem {
  return problem(FAILURE_STATUS[failure.code], failure.code, failure.message, {
    ...(failure.field !== undefined ? { field: failure.field } : {}),
    ...(failure.issues !== undefined ? { issues: listedIssues(failure.issues) } : {}),
  });
}

/**
 * Sends `body` as `application/problem+json` (with `WWW-Authenticate` on 401) on a Node response
 * (an Express one or one answered before the chain, runtime/http/direct.ts), with the request's
 * `requestId`; a refusal's code (docs/behaviour.md §12.2) is noted on the request's observation.
 */
export function sendProblem(response: ServerResponse, body: Problem, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  if (body.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
  const observation = observationOf(response);
  observation?.refuse(body.code);
  writeJson(
    response,
    body.status,
    JSON.stringify(observation ? { ...body, requestId: observation.requestId } : body),
    'application/problem+json; charset=utf-8',
  );
}

/**
 * Answers an error thrown while handling a request: failures with their status; database faults
 * with 503 (unavailable: unreachable, busy, or with no room to write) or 500 and their message (`database error`,
 * `the database has no room to write`); anything else 500. Logs what is not a failure, with its details.
 */
export function sendError(response: ServerResponse, error: unknown, logger: Logger): void {
  const classified = classifyError(error);
  if (classified.kind === 'failure') {
    sendProblem(response, failureProblem(classified.failure));
    return;
  }
  if (classified.kind === 'database') {
    logger.error({ err: error }, 'database error while handling a request');
    sendProblem(response, problem(classified.unavailable ? 503 : 500, 'INTERNAL_SERVER_ERROR', classified.message));
    return;
  }
  logger.error({ err: error }, 'unexpected error while handling a request');
  sendProblem(response, problem(500, 'INTERNAL_SERVER_ERROR', INTERNAL_ERROR_MESSAGE));
}

/**
 * Writes a problem document as a whole raw HTTP/1.1 answer on `socket` and closes the connection:
 * for requests refused before Express sees them (Node's parser refused them, or an upgrade that is
 * not upgraded). Only destroys the socket when the client is already gone. `headers` are added as
 * given (`Allow`, `Sec-WebSocket-Version`); `requestId` (a well-formed or generated id,
 * runtime/observability/request-id.ts) goes in `X-Request-Id` and the body.
 */
export function writeRawProblem(socket: Duplex, body: Problem, requestId: string, headers: Readonly<Record<string, string>> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify({ ...body, requestId });
  const lines = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'X-Content-Type-Options: nosniff',
    `${REQUEST_ID_HEADER}: ${requestId}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}
