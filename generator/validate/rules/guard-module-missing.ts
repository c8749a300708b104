/**
 * Guard module missing (spec §5.3)
 *
 * The GraphQL authorization guard is supplied by `GraphQLAuthorizationModule`: a module whose
 * resolvers use the guard imports that module. Without the import the guard would not exist.
 */
import { AUTHORIZATION_GUARD, moduleImports, moduleProviding } from '../../model/application.js';
import type { Rule } from '../rule.js';

export const guardModuleMissing: Rule = ({ application }, report) => {
  const provider = AUTHORIZATION_GUARD.providedBy;
  if (!provider) return;
  for (const resolver of application.resolvers) {
    const bindings = [...resolver.guards, ...resolver.operations.flatMap((operation) => operation.guards)].filter(
      (binding) => binding.guard.file === AUTHORIZATION_GUARD.ref.file && binding.guard.exportName === AUTHORIZATION_GUARD.ref.exportName,
    );
    const first = bindings[0];
    const module = moduleProviding(application, resolver.name);
    if (!first || !module || moduleImports(module, provider)) continue;
    report({
      message: `${resolver.name} uses ${AUTHORIZATION_GUARD.ref.exportName}, which ${module.name} does not get: the guard comes from ${provider.exportName}; add ${provider.exportName} to ${module.name}'s imports`,
      span: first.span,
      related: [{ message: `${module.name} provides ${resolver.name}`, span: module.span }],
    });
  }
};
