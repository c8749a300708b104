/**
 * Deprecation conflict (docs/behaviour.md §2.7)
 *
 * A field or operation deprecated both by its decorator's `deprecationReason` and by a
 * `@deprecated` tag in its docstring gives callers one reason: when both say one and they differ,
 * which one callers read would be a guess.
 */
import type { DeprecationModel } from '../../model/types.js';
import type { Rule } from '../rule.js';

export const deprecationConflict: Rule = (app, report) => {
  const check = (what: string, deprecation: DeprecationModel | undefined): void => {
    const { option, tag } = deprecation ?? {};
    if (!option || !tag || option.reason.length === 0 || tag.reason.length === 0 || option.reason === tag.reason) return;
    report({
      message: `${what} is deprecated by deprecationReason ${JSON.stringify(option.reason)} and by its @deprecated tag ${JSON.stringify(tag.reason)}; keep one of them, or give both the same reason`,
      span: option.span,
      related: [{ message: 'the @deprecated tag', span: tag.span }],
    });
  };
  for (const entity of app.entities) {
    for (const column of entity.columns) check(`${entity.name}.${column.name}`, column.deprecation);
    for (const relation of entity.relations) check(`${entity.name}.${relation.name}`, relation.deprecation);
  }
  for (const resolver of app.resolvers) {
    for (const operation of resolver.operations)
      check(`${operation.rootType}.${operation.fieldName} (${operation.owner}.${operation.methodName})`, operation.deprecation);
    for (const field of resolver.fieldResolvers)
      check(
        `${field.entity === undefined ? '' : `${field.entity}.`}${field.fieldName} (${field.owner}.${field.methodName})`,
        field.deprecation,
      );
  }
};
