/**
 * Helpers the generated GraphQL resolvers call around each operation body (docs/behaviour.md §5.5):
 * the gate before it (posture, then the selection against field grants) and, through
 * `maskRow(s)`, the masking after it.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import { authorize } from '../auth/posture.js';
import type { GraphQLContext } from './context.js';
import { assertSelectionPermitted } from './selection.js';

/**
 * The gate of an `@Authorized(action, entity)` GraphQL operation: `UNAUTHENTICATED` without a
 * valid token, `FORBIDDEN` when the ability grants `action` on no `entity`, and `FORBIDDEN`
 * naming the field when the selection asks for a field the grant excludes. Runs before the body.
 */
export function authorizeOperation(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  entities: ReadonlyMap<string, EntityDescriptor>,
  action: string,
  entity: string,
): void {
  authorize(context.request, context.authentication, action, entity);
  assertSelectionPermitted(info, context.request, entities);
}
