/**
 * The posture gate (docs/behaviour.md §1, §5.5), shared by every transport: an authorized operation needs an
 * authenticated caller whose ability allows the action on the entity, checked before the body
 * runs. Refusals are thrown as {@link FailureError}s (`UNAUTHENTICATED`, `FORBIDDEN`).
 */
import { canOnType } from './ability.js';
import type { Authentication } from './authentication.js';
import type { RequestContext } from './context.js';
import { FailureError } from '../failures/result.js';

/** Throws `UNAUTHENTICATED` unless a principal was seeded (with the token's problem, if any). */
function requireAuthenticated(request: RequestContext, authentication: Authentication): void {
  if (authentication.kind === 'rejected')
    throw new FailureError({ code: 'UNAUTHENTICATED', message: `authentication failed: ${authentication.reason}` });
  if (!request.principal)
    throw new FailureError({
      code: 'UNAUTHENTICATED',
      message: 'this operation needs a signed-in caller: send Authorization: Bearer <token>',
    });
}

/**
 * The gate of `@Authorized(action, entity)`: throws `UNAUTHENTICATED` without a valid token and
 * `FORBIDDEN` when the ability grants `action` on no `entity` at all.
 */
export function authorize(request: RequestContext, authentication: Authentication, action: string, entity: string): void {
  requireAuthenticated(request, authentication);
  if (!canOnType(request.ability, action, entity)) {
    throw new FailureError({ code: 'FORBIDDEN', message: `you may not ${action} ${entity}` });
  }
}
