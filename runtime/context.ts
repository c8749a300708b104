/**
 * The ambient request context (spec §5): who is calling and what they may do, carried through
 * the request's async work with AsyncLocalStorage so services and repositories read it without
 * threading it through every call.
 *
 * Fail closed (spec §5.6): outside a context, or in a request context without an ability,
 * scoped queries deny every row. Only {@link runUnscoped} (jobs, seeds, migrations; spec §5.9)
 * lifts the scope, and only explicitly.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AppAbility, Principal } from './ability.js';
import { FailureError } from './result.js';

/** What one request (or one job) runs with. */
export interface RequestContext {
  /** The verified caller, or undefined for an anonymous request. */
  readonly principal: Principal | undefined;
  /** The caller's ability; undefined means every scoped query denies every row. */
  readonly ability: AppAbility | undefined;
  /** True only inside {@link runUnscoped}: queries are not filtered by any ability. */
  readonly unscoped: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The context with no caller: every scoped read is empty (fail closed). */
export const ANONYMOUS: RequestContext = Object.freeze({ principal: undefined, ability: undefined, unscoped: false });

/** Runs `fn` with `context` as the ambient context; returns what `fn` returns. */
export function runInContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/**
 * Runs `fn` without row scope (spec §5.9: jobs and queue workers may run unscoped; request
 * transports may not). This is the only way to lift the scope; it is never used by generated
 * request handlers.
 */
export function runUnscoped<T>(fn: () => T): T {
  return storage.run({ principal: undefined, ability: undefined, unscoped: true }, fn);
}

/** The ambient context, or {@link ANONYMOUS} outside any (which denies every scoped row). */
export function currentContext(): RequestContext {
  return storage.getStore() ?? ANONYMOUS;
}

/**
 * The calling principal (spec §2.6). Throws a `FailureError` with `UNAUTHENTICATED` when none
 * was seeded, for example inside a public operation called without a token (spec §5.7).
 */
export function currentPrincipal(): Principal {
  const principal = currentContext().principal;
  if (!principal) {
    throw new FailureError({ code: 'UNAUTHENTICATED', message: 'this operation needs a signed-in caller: no principal was seeded (send Authorization: Bearer <token>)' });
  }
  return principal;
}
