/**
 * Read only what is asked (BENCHMARKS.md): the stored columns a relation field's selection needs, so a
 * loader batch selects those columns instead of `t.*`. On a nested query the per-parent window
 * reads a fraction of each row (a post's body is never read when only `id title` are selected).
 *
 * A selected column is needed; a selected relation needs its key (belongs_to: this entity's
 * column; has_many: `id`); `__typename` needs nothing. Any other field — a computed
 * `@ResolveField` whose inputs are unknown — needs every column. The loader adds what it needs
 * itself (`id`, the has_many column, the columns the caller's read rules test).
 */
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { EntityDescriptor } from '../data/entity-metadata.js';

/** Every column: the selection could not be narrowed. */
const ALL_COLUMNS = undefined;

/** Selections already analysed, per list of field nodes (graphql-js reuses the list for every parent of a level). */
const cache = new WeakMap<readonly FieldNode[], readonly string[] | undefined>();

/**
 * The columns of `entity` the field at `info` selects. `connection`: the field's type is a
 * has_many connection (`edges { cursor node { … } }`). Returns sorted column names, or
 * {@link ALL_COLUMNS} (undefined) when every column is needed.
 */
export function selectedColumns(info: GraphQLResolveInfo, entity: EntityDescriptor, connection: boolean): readonly string[] | undefined {
  if (cache.has(info.fieldNodes)) return cache.get(info.fieldNodes);
  const needed = new Set<string>(['id']);
  // Set inside the visitor's callbacks: `as boolean` keeps TypeScript from narrowing it to `false`.
  let all = false as boolean;
  const visitEntity = (selectionSet: SelectionSetNode | undefined, visited: Set<string>): void => {
    forEachField(info, selectionSet, visited, (field) => {
      const name = field.name.value;
      if (name === '__typename') return;
      if (entity.fields.includes(name)) {
        needed.add(name);
        return;
      }
      const relation = entity.relations.find((candidate) => candidate.field === name);
      if (relation) needed.add(relation.kind === 'belongsTo' ? relation.column : 'id');
      else all = true;
    });
  };
  for (const node of info.fieldNodes) {
    if (!connection) {
      visitEntity(node.selectionSet, new Set());
      continue;
    }
    forEachField(info, node.selectionSet, new Set(), (edgesOrPageInfo) => {
      if (edgesOrPageInfo.name.value !== 'edges') return;
      forEachField(info, edgesOrPageInfo.selectionSet, new Set(), (edgeField) => {
        if (edgeField.name.value === 'node') visitEntity(edgeField.selectionSet, new Set());
      });
    });
  }
  const result = all ? ALL_COLUMNS : [...needed].sort();
  cache.set(info.fieldNodes, result);
  return result;
}

/** Calls `visit` for every field of `selectionSet`, through inline fragments and fragment spreads. */
function forEachField(
  info: GraphQLResolveInfo,
  selectionSet: SelectionSetNode | undefined,
  visited: Set<string>,
  visit: (field: FieldNode) => void,
): void {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) visit(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) forEachField(info, selection.selectionSet, visited, visit);
    else if (!visited.has(selection.name.value)) {
      visited.add(selection.name.value);
      forEachField(info, info.fragments[selection.name.value]?.selectionSet, visited, visit);
    }
  }
}
