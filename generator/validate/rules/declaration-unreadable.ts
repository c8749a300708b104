/**
 * Declaration unreadable
 *
 * Every decorator argument the generator must act on is written so it can be read statically
 * (literals, class names, thunks). Reports what `parse/` could not read.
 */
import type { Rule } from '../rule.js';

export const declarationUnreadable: Rule = ({ model }, report) => {
  for (const problem of model.parseProblems) report({ message: problem.message, span: problem.span });
};
