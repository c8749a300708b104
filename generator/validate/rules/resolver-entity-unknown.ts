/**
 * Resolver entity unknown (docs/behaviour.md §2.1)
 *
 * `@Resolver(() => Entity)` names an `@Entity()` class: its computed fields (`@ResolveField`) are
 * added to that entity's type, so a misspelt name would drop them silently.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const resolverEntityUnknown: Rule = (app, report) => {
  for (const resolver of app.resolvers) {
    if (resolver.entity === undefined || app.entityByName.has(resolver.entity)) continue;
    report({
      message: `${resolver.name} is a resolver for ${resolver.entity}, which is not an @Entity()${didYouMean(resolver.entity, app.entityByName.keys())}`,
      span: resolver.entitySpan ?? resolver.span,
    });
  }
};
