/**
 * Routes answered before the Express chain (docs/decisions.md §6 "Hot paths skip the Express
 * chain"): a self-mounted path whose requests need none of the REST routes' middleware — the
 * GraphQL endpoint — is answered straight from Node's request listener, with the server's front
 * and nothing else: the request's id and observation (runtime/observability, docs/behaviour.md §12),
 * the in-flight count (runtime/http/lifecycle.ts), helmet's security headers (read once,
 * runtime/http/pipeline.ts) and authentication (runtime/http/request-state.ts), in that order, as
 * the Express chain runs them. What the Express chain would add and a direct
 * route does not have — CORS and the rate limit — turns direct routes off while either is
 * configured, so those requests take the chain as before; a route also declines any request it
 * does not answer in full itself (runtime/transports/index.ts `DirectRoute`).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AbilityCache } from '../auth/ability.js';
import type { TokenVerifier } from '../auth/authentication.js';
import { runInContext } from '../auth/context.js';
import type { DirectRoute } from '../transports/index.js';
import type { RequestLifecycle } from './lifecycle.js';
import { sendError } from './problem.js';
import { authenticationState } from './request-state.js';
import { observationOf } from '../observability/observation.js';

/** The server's front, as direct routes get it. */
export interface DirectFront {
  /** The request's id and observation: the Express chain's first middleware, which reads only Node's request and response and `locals`. */
  readonly observe: RequestHandler;
  readonly lifecycle: RequestLifecycle;
  /** Set on every answer (helmet's, read once). */
  readonly securityHeaders: Readonly<Record<string, string>>;
  readonly verifier: TokenVerifier;
  readonly abilities: AbilityCache;
  readonly logger: Logger;
}

/** The path of a request target, without its query string. */
function pathOf(url: string | undefined): string {
  if (!url) return '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * The request listener: a request one of `routes` accepts is answered by it, through `front`;
 * every other request goes to `fallback` (the Express app). With no route, `fallback` itself.
 */
export function directListener(routes: readonly DirectRoute[], front: DirectFront, fallback: RequestListener): RequestListener {
  if (routes.length === 0) return fallback;
  const byTarget = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));
  const headers = Object.entries(front.securityHeaders);
  return (request: IncomingMessage, response: ServerResponse) => {
    const route = byTarget.get(`${request.method ?? ''} ${pathOf(request.url)}`);
    if (!route?.accepts(request)) {
      fallback(request, response);
      return;
    }
    // Where the chain's middleware keep per-request state (Express gives every response one).
    const locals: Record<string, unknown> = {};
    (response as { locals?: Record<string, unknown> }).locals = locals;
    front.observe(request as Request, response as Response, () => {
      const observation = observationOf(response);
      if (observation) observation.route = route.path;
      front.lifecycle.track(response);
      for (const [name, value] of headers) response.setHeader(name, value);
      authenticationState(front.verifier, front.abilities, request.headers.authorization, observation)
        .then((state) => {
          // As the Express chain's authentication step leaves it (the access line reads the principal here).
          Object.assign(locals, { request: state.request, authentication: state.authentication });
          return runInContext(state.request, () => route.handle(request, response, state));
        })
        .catch((error: unknown) => {
          sendError(response, error, front.logger);
        });
    });
  };
}
