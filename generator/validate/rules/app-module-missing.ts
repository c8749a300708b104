/**
 * App module missing (spec §1)
 *
 * The application is what `AppModule` reaches through `imports`; without it nothing is mounted.
 */
import { ROOT_MODULE } from '../../model/application.js';
import type { Rule } from '../rule.js';

export const appModuleMissing: Rule = ({ model }, report) => {
  if (model.modules.some((module) => module.name === ROOT_MODULE)) return;
  const anyModule = model.modules[0];
  report({
    message: `no module is named ${ROOT_MODULE}; declare \`@Module({ imports: [...] }) export class ${ROOT_MODULE} {}\` importing the feature modules`,
    span: anyModule?.span ?? model.entities[0]?.span ?? { file: 'entities', line: 1, column: 1 },
  });
};
