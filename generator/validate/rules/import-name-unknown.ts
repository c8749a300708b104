/**
 * Import name unknown (docs/behaviour.md §7, build-time failures)
 *
 * A declaration file imports a name its module does not export. A decorator imported so would
 * read as no decorator and be ignored (a `@Version` dropped moves a route to another version),
 * so it is refused with the closest export. A decorator imported from the runtime under a name
 * it lacks is `decorator-unknown`'s.
 */
import { closestMatch } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const importNameUnknown: Rule = (app, report) => {
  for (const problem of app.importProblems) {
    if (problem.kind !== 'name-missing') continue;
    const match = closestMatch(problem.name, problem.candidates);
    const fix = match
      ? `did you mean ${match}?`
      : `it exports ${problem.candidates.slice(0, 12).join(', ') || 'nothing'}${problem.candidates.length > 12 ? ', …' : ''}`;
    report({ message: `'${problem.specifier}' does not export ${problem.name}, so what it names is unknown; ${fix}`, span: problem.span });
  }
};
