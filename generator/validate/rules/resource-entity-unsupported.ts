/**
 * Resource entity unsupported (docs/behaviour.md §4.7, §2)
 *
 * A resource's routes and GraphQL fields carry its rows on the wire, and its list, get, update
 * and delete find rows by `id` (keyset cursors are ids): the entity must be exposed, and the
 * resource needs a non-empty path. An exposed entity keyed otherwise than by one `id` column is
 * already refused (entity-primary-key-missing, entity-composite-primary-key); a join table keyed by
 * a composite key is unexposed, and told to go through its repository instead. A create or update
 * needs at least one column to take: an input type without fields is no GraphQL type.
 */
import { repositoryClass } from '../../model/naming.js';
import type { Rule } from '../rule.js';

export const resourceEntityUnsupported: Rule = (app, report) => {
  for (const resource of app.resources) {
    const { entity } = resource;
    if (entity.compositeKey) {
      report({
        message: `@Resource on ${entity.name}, which is keyed by (${entity.primaryKeys.map((column) => column.name).join(', ')}): a resource finds its rows by one id and puts them on the wire; remove @Resource, and read and write ${entity.name} in a service through ${repositoryClass(entity.name)} (findByKey, list, create, delete)`,
        span: resource.span,
      });
    } else if (!entity.exposed) {
      report({
        message: `@Resource on ${entity.name}, which is not exposed (@Entity({ exposed: false })): a resource's rows are on the wire; expose the entity, or remove @Resource`,
        span: resource.span,
      });
    }
    const writes = resource.operations
      .filter((operation) => operation.kind === 'create' || operation.kind === 'update')
      .map((operation) => operation.kind);
    // A join table is told to leave resources altogether (above); its inputs are beside the point.
    if (writes.length > 0 && resource.inputColumns.length === 0 && !entity.compositeKey) {
      report({
        message: `@Resource on ${entity.name} generates ${writes.join(' and ')}, but ${entity.name} has no column an input can take (exposed, not the key, not \`default: 'now'\`); add one, or leave ${writes.join(' and ')} out of operations`,
        span: resource.span,
      });
    }
    if (resource.path === '') {
      report({
        message: `@Resource on ${entity.name} has an empty path; name the collection, for example { path: '${entity.name.toLowerCase()}s' }`,
        span: resource.span,
      });
    }
  }
};
