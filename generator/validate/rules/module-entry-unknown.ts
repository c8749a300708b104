/**
 * Module entry unknown
 *
 * A module's `imports` name modules, its `providers` name `@Injectable()` classes, resolvers,
 * the `@Abilities()` class or runtime built-ins, and its `controllers` name `@Controller()`
 * classes. Anything else is a mistake that would otherwise be ignored silently.
 */
import { isRuntimeRef } from '../../model/builtins.js';
import type { Rule } from '../rule.js';

export const moduleEntryUnknown: Rule = (app, report) => {
  for (const module of app.modules) {
    for (const entry of module.imports) {
      if (app.moduleByName.has(entry.name) || isRuntimeRef(entry.source)) continue;
      report({ message: `${module.name} imports ${entry.name}, which is not a @Module(); import a module class`, span: entry.span });
    }
    for (const entry of module.providers) {
      if (isRuntimeRef(entry.source)) continue;
      const provider = app.providerByName.get(entry.name);
      if (!provider)
        report({
          message: `${module.name} provides ${entry.name}, which is not decorated; add @Injectable() (or @Resolver / @Abilities) to it`,
          span: entry.span,
        });
      else if (provider.role === 'controller')
        report({ message: `${module.name} lists controller ${entry.name} under providers; move it to controllers`, span: entry.span });
    }
    for (const entry of module.controllers) {
      if (app.providerByName.get(entry.name)?.role === 'controller') continue;
      report({ message: `${module.name} lists ${entry.name} under controllers, but it is not a @Controller()`, span: entry.span });
    }
  }
};
