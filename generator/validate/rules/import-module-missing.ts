/**
 * Import module missing (docs/behaviour.md §7, build-time failures)
 *
 * A declaration file imports from a relative path (or a `resource-service/…` entry) that names
 * no file. Its decorators would then read as no decorators and the file's classes would be
 * skipped whole, so it is refused: the runtime's decorators come from `'resource-service'`.
 * A path under the output folder is not checked (`generate` writes it).
 */
import { closestMatch } from '../../../runtime/server/suggest.js';
import { DECORATOR_SIGNATURES } from '../../../runtime/declarations/decorator-signatures.js';
import { PACKAGE_NAME } from '../../package.js';
import type { Rule } from '../rule.js';

export const importModuleMissing: Rule = (app, report) => {
  for (const problem of app.importProblems) {
    if (problem.kind !== 'module-missing') continue;
    const decorators = problem.names.filter((name) => Object.hasOwn(DECORATOR_SIGNATURES, name));
    const match = closestMatch(problem.specifier, problem.candidates);
    const fix =
      decorators.length > 0 || problem.specifier.startsWith(PACKAGE_NAME)
        ? `import ${problem.names.length > 0 ? `{ ${problem.names.join(', ')} } ` : ''}from '${PACKAGE_NAME}'`
        : match
          ? `did you mean '${match}'?`
          : 'import from a file that exists';
    report({
      message: `'${problem.specifier}' names no file, so nothing imported from it is known (a class decorated from it would be skipped); ${fix}`,
      span: problem.span,
    });
  }
};
