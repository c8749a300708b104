/**
 * Routes answered before the Express chain (docs/decisions.md §6 "Hot paths skip the Express
 * chain"): hot requests that need none of the chain's other middleware — `POST /graphql` in its
 * common form, and the REST routes' `GET` and `HEAD` — are answered straight from Node's request
 * listener, with the server's front and nothing else: the request's id and observation (runtime/observability, docs/behaviour.md §12),
 * the in-flight count (runtime/http/lifecycle.ts), helmet's security headers (read once,
 * runtime/http/pipeline.ts) and authentication (runtime/http/request-state.ts). What the Express chain would add and a direct
 * route does not have — CORS and the rate limit — turns direct routes off while either is
 * configured, so those requests take the chain as before; a route also declines any request it
 * does not answer in full itself (runtime/transports/index.ts `DirectRoute`). The REST routes
 * come after every path a self-mounted transport claims ({@link behindClaimedPaths}), as the chain
 * puts them behind those transports.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AbilityCache } from '../auth/ability.js';
import type { TokenVerifier } from '../auth/authentication.js';
import { runInContext } from '../auth/context.js';
import type { DirectAnswer, DirectRoute } from '../transports/index.js';
import type { ConnectionQuotas } from './connection-quotas.js';
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
  /** The places of HTTP connections (./connection-quotas.ts), taken once the caller is known, as the chain takes them. */
  readonly connections: ConnectionQuotas;
}

/** Characters after which parseurl (Express's `req.path`, `req.query`) parses a target with `url.parse`. */
const UNUSUAL_TARGET = /[#\t\n\f\r\u00a0\ufeff]/;

/** The path of a request target, without its query string. */
function pathOf(url: string | undefined): string {
  if (!url) return '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * The request listener: a request one of `routes` answers (the first that matches it, in order)
 * is answered by it, through `front`; every other request goes to `fallback` (the Express app).
 * With no route, `fallback` itself.
 */
export function directListener(routes: readonly DirectRoute[], front: DirectFront, fallback: RequestListener): RequestListener {
  if (routes.length === 0) return fallback;
  const headers = Object.entries(front.securityHeaders);
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    // A target Express reads differently from its raw text — not origin-form (`*`, `http://…`),
    // or with a fragment or whitespace that parseurl drops or trims — is left to the chain.
    if (url.charCodeAt(0) !== 0x2f || UNUSUAL_TARGET.test(url)) {
      fallback(request, response);
      return;
    }
    const path = pathOf(url);
    let answer: DirectAnswer | undefined;
    try {
      for (const route of routes) {
        answer = route.match(request, path);
        if (answer) break;
      }
    } catch (error) {
      // A route that cannot decide leaves the request to the chain, which answers any error.
      front.logger.warn({ err: error, url: request.url }, 'a direct route failed to match a request; the Express chain answers it');
      answer = undefined;
    }
    if (!answer) {
      fallback(request, response);
      return;
    }
    const direct = answer;
    // Where the chain's middleware keep per-request state (Express gives every response one).
    const locals: Record<string, unknown> = {};
    (response as { locals?: Record<string, unknown> }).locals = locals;
    front.observe(request as Request, response as Response, () => {
      const observation = observationOf(response);
      if (observation) observation.route = direct.route;
      front.lifecycle.track(response);
      for (const [name, value] of headers) response.setHeader(name, value);
      authenticationState(front.verifier, front.abilities, request.headers.authorization, observation)
        .then((state) => {
          // As the Express chain's authentication step leaves it (the access line reads the principal here).
          Object.assign(locals, { request: state.request, authentication: state.authentication });
          // A connection with no place of its address or caller is answered 429 here (docs/hostile-input.md §15).
          if (!front.connections.admit(request, response, state.authentication)) return undefined;
          return runInContext(state.request, () => direct.handle(request, response, state));
        })
        .catch((error: unknown) => {
          sendError(response, error, front.logger);
        });
    });
  };
}

/**
 * `route`, declining every request whose path a self-mounted transport claims (`claimed`: paths
 * as transports list them, a trailing `/*` meaning everything below): those answer first in the
 * Express chain, so a route behind them (the REST routes) must not take their requests. A path is
 * claimed when it is one of them or below one, in any letter case — wider than Express matches,
 * which only sends more requests through the chain.
 */
export function behindClaimedPaths(route: DirectRoute, claimed: readonly string[]): DirectRoute {
  // `/graphql/` is served at `/graphql` too (Express matches without the trailing slash).
  const bases = [
    ...new Set(
      claimed.map((path) =>
        path
          .replace(/\/\*$/, '')
          .replace(/(.)\/+$/, '$1')
          .toLowerCase(),
      ),
    ),
  ];
  if (bases.length === 0) return route;
  return {
    match: (request, path) => {
      const lower = path.toLowerCase();
      for (const base of bases) if (lower === base || lower.startsWith(base.endsWith('/') ? base : `${base}/`)) return undefined;
      return route.match(request, path);
    },
  };
}
