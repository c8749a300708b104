/**
 * The state every HTTP request carries from the authentication step to the transport answering it
 * (docs/behaviour.md §5.1): the bearer token is verified once, in front of every route, and the principal and
 * its ability become the ambient context of everything that follows (runtime/auth/context.ts).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AbilityCache } from '../auth/ability.js';
import type { Authentication, TokenVerifier } from '../auth/authentication.js';
import { type RequestContext, runInContext } from '../auth/context.js';
import { observationOf } from '../observability/observation.js';

/** Per-request state the authentication step leaves for later steps (in `response.locals`). */
export interface RequestState {
  readonly request: RequestContext;
  readonly authentication: Authentication;
}

/** The {@link RequestState} of a response that passed {@link authenticateRequests}. */
export function stateOf(response: Response): RequestState {
  return response.locals as unknown as RequestState;
}

/**
 * The Express middleware verifying each request's bearer token (docs/behaviour.md §5.1): an absent token is
 * anonymous, an invalid one `rejected` (the posture of what answers decides what that means). The
 * request's context (transport `http`, with the request's observation, docs/behaviour.md §12) is
 * ambient for the rest of the chain. A verifier failure goes to the error handler.
 */
export function authenticateRequests(verifier: TokenVerifier, abilities: AbilityCache): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    authenticationState(verifier, abilities, request.headers.authorization, observationOf(response)).then((state) => {
      response.locals.request = state.request;
      response.locals.authentication = state.authentication;
      runInContext(state.request, next);
    }, next);
  };
}

/**
 * The {@link RequestState} of a request bearing `authorization` (docs/behaviour.md §5.1): what
 * {@link authenticateRequests} leaves for the Express chain, and what routes answered before it
 * (runtime/http/direct.ts) are handed, carrying the request's `observation` (docs/behaviour.md §12).
 * Rejects when the verifier fails (not for a bad token).
 */
export async function authenticationState(
  verifier: TokenVerifier,
  abilities: AbilityCache,
  authorization: string | undefined,
  observation: RequestContext['observation'],
): Promise<RequestState> {
  const authentication = await verifier.authenticate(authorization);
  const principal = authentication.kind === 'authenticated' ? authentication.principal : undefined;
  return {
    request: { principal, ability: principal ? abilities.for(principal) : undefined, unscoped: false, transport: 'http', observation },
    authentication,
  };
}
