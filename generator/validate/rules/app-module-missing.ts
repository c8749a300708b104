/**
 * App module missing (docs/behaviour.md §1)
 *
 * The application is what `AppModule` reaches through `imports`; without it nothing is mounted.
 */
import { ROOT_MODULE } from '../../model/builtins.js';
import type { Rule } from '../rule.js';

export const appModuleMissing: Rule = (app, report) => {
  if (app.moduleByName.has(ROOT_MODULE)) return;
  report({
    message: `no module is named ${ROOT_MODULE}; declare \`@Module({ imports: [...] }) export class ${ROOT_MODULE} {}\` importing the feature modules`,
    span: app.modules[0]?.span ?? app.entities[0]?.span ?? { file: 'entities', line: 1, column: 1 },
  });
};
