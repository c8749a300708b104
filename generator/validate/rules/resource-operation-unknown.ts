/**
 * Resource operation unknown (docs/behaviour.md §4.7)
 *
 * `operations:` on `@Resource` names some of list, get, create, update and delete; any other name
 * would generate nothing, so it is refused with the closest operation.
 */
import { closestMatch } from '../../../runtime/server/suggest.js';
import { RESOURCE_OPERATIONS } from '../../resolve/resources.js';
import type { Rule } from '../rule.js';

export const resourceOperationUnknown: Rule = (app, report) => {
  for (const resource of app.resources) {
    for (const written of resource.unknownOperations) {
      const match = closestMatch(written.name, RESOURCE_OPERATIONS);
      report({
        message: `@Resource on ${resource.name} has no operation '${written.name}' (it generates ${RESOURCE_OPERATIONS.join(', ')})${match ? `; did you mean '${match}'?` : '; remove it'}`,
        span: written.span,
      });
    }
  }
};
