/**
 * Field resolver type missing (docs/behaviour.md §2.1)
 *
 * A computed field (`@ResolveField`) extends the GraphQL type of its resolver's entity, so the
 * resolver names an exposed entity (`@Resolver(() => Post)`); otherwise the field would appear
 * nowhere. Silent when the resolver's entity is misspelt or unreadable (reported there).
 */
import type { Rule } from '../rule.js';

export const fieldResolverTypeMissing: Rule = (app, report) => {
  for (const resolver of app.resolvers) {
    const entity = resolver.entity === undefined ? undefined : app.entityByName.get(resolver.entity);
    for (const field of resolver.fieldResolvers) {
      if (resolver.entity === undefined && !resolver.entityWritten) {
        report({
          message: `${field.owner}.${field.methodName} is a computed field, but ${resolver.name} names no entity type to add it to; write @Resolver(() => Entity)`,
          span: field.span,
        });
      } else if (entity && !entity.exposed) {
        report({
          message: `${field.owner}.${field.methodName} is a computed field of ${entity.name}, which is @Entity({ exposed: false }) and has no GraphQL type; expose ${entity.name} or remove the field`,
          span: field.span,
        });
      }
    }
  }
};
