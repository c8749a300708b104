/**
 * Refusing a selection up front (docs/behaviour.md §7: "a non-null field excluded by the caller's grant →
 * FORBIDDEN naming the field; selecting only permitted fields succeeds"). Walks the operation's
 * selection under a field, through fragments, connection edges and relations, and checks every
 * selected non-null entity column against the ability's field grants before any row is read. A
 * nullable column the grant excludes is not refused: it resolves to `null` (docs/behaviour.md §2.1).
 * Nor is anything below a relation to an entity the caller may not read at all: the relation reads
 * no row of it, as one to a row it may not read (docs/behaviour.md §5.8).
 */
import {
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  getNamedType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { canOnType, forbiddenField } from '../auth/ability.js';
import type { RequestContext } from '../auth/context.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';

/**
 * Throws `FORBIDDEN` naming the first selected non-null entity field (in document order) that no
 * `read` rule of the caller grants. `entities` maps type name → descriptor. Linear in the
 * selection's size: each fragment is walked once.
 */
export function assertSelectionPermitted(
  info: GraphQLResolveInfo,
  request: RequestContext,
  entities: ReadonlyMap<string, EntityDescriptor>,
): void {
  if (request.unscoped) return;
  const returnType = getNamedType(info.returnType);
  if (!isObjectType(returnType)) return;
  for (const node of info.fieldNodes) {
    if (node.selectionSet) walk(info, request, entities, returnType, node.selectionSet, new Set());
  }
}

function walk(
  info: GraphQLResolveInfo,
  request: RequestContext,
  entities: ReadonlyMap<string, EntityDescriptor>,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  visitedFragments: Set<string>,
): void {
  const entity = entities.get(type.name);
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      checkField(info, request, entities, type, entity, selection, visitedFragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition ? info.schema.getType(selection.typeCondition.name.value) : type;
      if (condition && isObjectType(condition)) walk(info, request, entities, condition, selection.selectionSet, visitedFragments);
    } else {
      const name = selection.name.value;
      const fragment = info.fragments[name];
      if (!fragment || visitedFragments.has(name)) continue;
      visitedFragments.add(name);
      const condition = info.schema.getType(fragment.typeCondition.name.value);
      if (condition && isObjectType(condition)) walk(info, request, entities, condition, fragment.selectionSet, visitedFragments);
    }
  }
}

function checkField(
  info: GraphQLResolveInfo,
  request: RequestContext,
  entities: ReadonlyMap<string, EntityDescriptor>,
  type: GraphQLObjectType,
  entity: EntityDescriptor | undefined,
  node: FieldNode,
  visitedFragments: Set<string>,
): void {
  const name = node.name.value;
  const field = type.getFields()[name];
  if (field && isNonNullType(field.type) && entity?.fields.includes(name) && !canOnType(request.ability, 'read', entity.name, name))
    throw forbiddenField(entity.name, name);
  if (!field || !node.selectionSet) return;
  const fieldType = getNamedType(field.type);
  // A relation to an entity the caller has no read grant on at all reads no row of it: the field is
  // null, or an empty page, with no error (docs/behaviour.md §5.8), so nothing under it is refused.
  const related = entities.get(fieldType.name);
  if (related && !canOnType(request.ability, 'read', related.name)) return;
  if (isObjectType(fieldType)) walk(info, request, entities, fieldType, node.selectionSet, visitedFragments);
}
