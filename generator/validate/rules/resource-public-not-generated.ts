/**
 * Resource public not generated (docs/behaviour.md §4.7, §5)
 *
 * `public:` on `@Resource` makes chosen operations public, each named explicitly. Naming one the
 * resource does not generate (left out of `operations:`, or no operation at all) would make
 * nothing public, and reads as if something were: it is refused.
 */
import { RESOURCE_OPERATIONS } from '../../resolve/resources.js';
import type { Rule } from '../rule.js';

export const resourcePublicNotGenerated: Rule = (app, report) => {
  for (const resource of app.resources) {
    const generated = resource.operations.map((operation) => operation.kind);
    for (const written of resource.unknownPublic) {
      const known = (RESOURCE_OPERATIONS as readonly string[]).includes(written.name);
      const fix = known
        ? `add '${written.name}' to operations, or remove it from public`
        : `'${written.name}' is no operation (there are ${RESOURCE_OPERATIONS.join(', ')}); remove it from public`;
      report({
        message: `@Resource on ${resource.name} makes '${written.name}' public, but it generates only ${generated.length > 0 ? generated.join(', ') : 'no operation'}; ${fix}`,
        span: written.span,
      });
    }
  }
};
