/**
 * The parts of the Express chain every transport shares (docs/guide/errors.md "Reliability and security"), in
 * the order runtime/server/server.ts composes them: {@link createExpressApp} (settings, the request's
 * id and observation (docs/behaviour.md §12.1), helmet's security headers, CORS), `/metrics` when it
 * is served on the main port, the in-flight count and authentication (runtime/http/lifecycle.ts,
 * request-state.ts), the unmetered transports (`/health`), the rate limit (./rate-limit.ts), the other
 * transports, then {@link mountFallbacks} (404 and the error handler). Everything is answered as
 * `application/problem+json` (runtime/http/problem.ts).
 */
import type { ServerResponse } from 'node:http';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER } from '../observability/request-id.js';
import type { AppConfig } from '../server/config.js';
import { type Problem, problem, sendError, sendProblem } from './problem.js';

/** helmet's middleware with its defaults, the one every answer's security headers come from. */
const SECURITY_HEADERS = helmet();

/**
 * The headers {@link SECURITY_HEADERS} sets, read once by running it on a stand-in response: they
 * depend on nothing in the request, so routes answered before the Express chain
 * (runtime/http/direct.ts) set the same ones without running helmet per request.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers = new Map<string, string>();
  const stand = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  const run = { done: false };
  SECURITY_HEADERS({ headers: {}, secure: false } as never, stand as never, () => {
    run.done = true;
  });
  if (!run.done) throw new Error('helmet did not run synchronously; its headers cannot be read ahead');
  return Object.freeze(Object.fromEntries(headers));
}

/**
 * The response headers any answer may carry, whichever transport gives it, that a caller on another
 * origin may read: the request's id (docs/behaviour.md §12.1), the rate limit's (docs/hostile-input.md
 * §12) and the bearer challenge of a 401 (./problem.ts). Each transport adds its own
 * (`HttpTransport.exposedHeaders`, runtime/transports/index.ts).
 */
const EXPOSED_BY_EVERY_ANSWER = [REQUEST_ID_HEADER, 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate'];

/**
 * A new Express app with the settings and front middleware of every server: no `X-Powered-By`,
 * no ETags, the simple query parser, `trust proxy` hops from `APP_HTTP__TRUST_PROXY`, `observe`
 * first (the request's id and observation, runtime/observability/index.ts), helmet's headers, and
 * CORS for the configured origins only (none by default: same origin only), exposing the headers
 * any answer may carry and `exposedHeaders`, those the transports declare.
 */
export function createExpressApp(config: AppConfig, observe: RequestHandler, exposedHeaders: readonly string[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Behind a load balancer the client's address is in X-Forwarded-For (rate limits key on it).
  app.set('trust proxy', config.http.trustProxy);
  app.use(observe);

  // Security headers (helmet's defaults: a same-origin content security policy the docs UI and
  // the playground satisfy, nosniff, frame denial, no referrer leaks, HSTS behind TLS), as helmet
  // sets them — read once: running its twelve middlewares per request was a share of a REST list (BENCHMARKS.md §"Where the time goes").
  const headers = Object.entries(securityHeaders());
  app.use((_request: Request, response: Response, next: NextFunction) => {
    for (const [name, value] of headers) response.setHeader(name, value);
    next();
  });
  // Cross-origin callers: only the configured origins (none by default: same origin only).
  if (config.http.corsOrigins.length > 0) {
    const origins = config.http.corsOrigins;
    app.use(
      cors({
        origin: origins.includes('*') ? '*' : origins,
        exposedHeaders: [...new Set([...EXPOSED_BY_EVERY_ANSWER, ...exposedHeaders])],
        maxAge: 600,
      }),
    );
  }
  return app;
}

/**
 * The end of the chain: 404 for a request nothing answered, and the error handler — a body
 * parser's 4xx (413 past `APP_HTTP__BODY_LIMIT`, 400 for JSON that does not parse) as a problem
 * document, anything else through `sendError` (docs/behaviour.md §7: `database error`, 503 when unreachable).
 */
export function mountFallbacks(app: Express, config: AppConfig, logger: Logger): void {
  app.use((request: Request, response: Response) => {
    sendProblem(response, problem(404, 'NOT_FOUND', `no route answers ${request.method} ${request.path}`));
  });
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    answerError(response, error, config, logger);
  });
}

/**
 * Answers `error`, thrown while serving a request, as the error handler does: a body parser's 4xx
 * as its problem document ({@link bodyProblem}), anything else through `sendError`
 * (docs/behaviour.md §7). For requests answered before the Express chain (runtime/http/direct.ts).
 */
export function answerError(response: ServerResponse, error: unknown, config: AppConfig, logger: Logger): void {
  const refused = bodyProblem(error, config);
  if (refused) sendProblem(response, refused);
  else sendError(response, error, logger);
}

/**
 * The problem document of an error reading a request body (a body parser's 4xx: 413 past
 * `APP_HTTP__BODY_LIMIT`, 415 `UNSUPPORTED_MEDIA_TYPE` for a content encoding or charset it cannot
 * decode, 400 for a body that does not parse or ends early), or undefined for any other error.
 */
function bodyProblem(error: unknown, config: AppConfig): Problem | undefined {
  const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413) return problem(413, 'PAYLOAD_TOO_LARGE', `the request body exceeds ${config.http.bodyLimit}`);
  // The body's media type is the fault, not its content: the code says so, as every other 415's does.
  if (status === 415)
    return problem(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      type === 'encoding.unsupported'
        ? 'send the body uncompressed, or compressed with gzip, deflate or br'
        : 'send the body as application/json in UTF-8',
    );
  return problem(status, 'BAD_USER_INPUT', 'the request body is not valid JSON');
}
