/**
 * Guard unknown (docs/behaviour.md §5.2)
 *
 * `@UseGuards` names a runtime guard or an `@Injectable()` class implementing `canActivate` that a
 * reachable module provides; anything else could not be constructed.
 */
import { builtinGuard } from '../../model/builtins.js';
import type { GuardBinding } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const guardUnknown: Rule = (app, report) => {
  const check = (binding: GuardBinding, where: string): void => {
    if (builtinGuard(binding.ref) || app.mounted.providerByName.get(binding.name)?.role === 'service') return;
    report({
      message: `${where} uses guard ${binding.name}, which is neither a runtime guard nor an @Injectable() provided by a reachable module; provide it, or use AuthenticationGuard / GraphQLAuthorizationGuard`,
      span: binding.span,
    });
  };
  for (const module of app.mounted.modules) for (const binding of module.guards) check(binding, module.name);
  for (const resolver of app.mounted.resolvers) {
    for (const binding of resolver.guards) check(binding, resolver.name);
    for (const operation of resolver.operations)
      for (const binding of operation.guards) check(binding, `${operation.owner}.${operation.methodName}`);
  }
};
