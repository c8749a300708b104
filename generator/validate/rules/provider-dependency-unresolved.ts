/**
 * Provider dependency unresolved
 *
 * The container is built at generate time: every constructor parameter of a mounted provider
 * is another mounted provider, a generated repository (`UserRepository`) or a runtime built-in
 * (`EventBus`). A dependency nothing provides is refused here instead of failing at boot.
 */
import type { Rule } from '../rule.js';

export const providerDependencyUnresolved: Rule = (app, report) => {
  for (const provider of app.mounted.providers) {
    for (const dependency of provider.dependencies) {
      if (dependency.target.kind !== 'missing') continue;
      if (dependency.typeName === undefined) {
        report({
          message: `${provider.name} has a constructor parameter ${dependency.parameterName} without a type, so nothing can be injected; declare its type (an @Injectable() class, a generated repository or EventBus)`,
          span: dependency.span,
        });
        continue;
      }
      const fix = app.providerByName.has(dependency.typeName)
        ? `add ${dependency.typeName} to the providers of a module reachable from AppModule`
        : `inject an @Injectable() class, a generated repository (<Entity>Repository) or EventBus`;
      report({
        message: `${provider.name} needs ${dependency.typeName} (parameter ${dependency.parameterName}), which nothing provides; ${fix}`,
        span: dependency.span,
      });
    }
  }
};
