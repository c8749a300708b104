/**
 * Guard module missing (docs/behaviour.md §5.3)
 *
 * The GraphQL authorization guard is supplied by `GraphQLAuthorizationModule`: a module whose
 * resolvers use the guard imports that module. Without the import the guard would not exist.
 */
import { AUTHORIZATION_GUARD, sameRef } from '../../model/builtins.js';
import type { Rule } from '../rule.js';

export const guardModuleMissing: Rule = (app, report) => {
  const provider = AUTHORIZATION_GUARD.providedBy;
  if (!provider) return;
  for (const resolver of app.mounted.resolvers) {
    const first = [...resolver.guards, ...resolver.operations.flatMap((operation) => operation.guards)].filter((binding) =>
      sameRef(binding.ref, AUTHORIZATION_GUARD.ref),
    )[0];
    const module = app.mounted.moduleOf.get(resolver.name);
    if (!first || !module || module.imports.some((entry) => sameRef(entry.source, provider))) continue;
    report({
      message: `${resolver.name} uses ${AUTHORIZATION_GUARD.ref.exportName}, which ${module.name} does not get: the guard comes from ${provider.exportName}; add ${provider.exportName} to ${module.name}'s imports`,
      span: first.span,
      related: [{ message: `${module.name} provides ${resolver.name}`, span: module.span }],
    });
  }
};
