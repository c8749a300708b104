/**
 * Provider dependency unresolved
 *
 * The container is built at generate time: every constructor parameter of a mounted provider
 * is another mounted provider, a generated repository (`UserRepository`) or a runtime built-in
 * (`EventBus`). A dependency nothing provides is refused here instead of failing at boot.
 */
import { resolveDependency } from '../../model/application.js';
import type { Rule } from '../rule.js';

export const providerDependencyUnresolved: Rule = ({ model, application }, report) => {
  for (const provider of application.providers) {
    for (const dependency of provider.dependencies) {
      if (resolveDependency(model, application, dependency).kind !== 'missing') continue;
      const declared = model.providers.find((candidate) => candidate.name === dependency.typeName);
      const fix = declared
        ? `add ${dependency.typeName} to the providers of a module reachable from AppModule`
        : `inject an @Injectable() class, a generated repository (<Entity>Repository) or EventBus`;
      report({ message: `${provider.name} needs ${dependency.typeName} (parameter ${dependency.parameterName}), which nothing provides; ${fix}`, span: dependency.span });
    }
  }
};
