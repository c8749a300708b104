/**
 * Ability rule unreadable (docs/behaviour.md §5.5)
 *
 * `generate` checks the actions, subjects, fields and condition keys of every `can(…)` and
 * `cannot(…)` against the entities, so it must be able to read them: a string literal, a local
 * `const`, a value of a string-literal (union) type, an object literal or a spread of a local
 * object constant. Condition values (`principal.org_id`) may be anything.
 */
import type { Rule } from '../rule.js';

export const abilityRuleUnreadable: Rule = (app, report) => {
  for (const rule of app.abilityRules) {
    for (const entry of rule.unreadable) {
      const fix =
        entry.what === 'condition'
          ? 'write the conditions as an object literal (spreading local object constants is fine) so generate can check its keys'
          : `write the ${entry.what} as a string literal (or a local const, or a value of a string-literal type) so generate can check it`;
      report({
        message: `${rule.owner}: cannot read the ${entry.what} ${entry.text} of ${rule.inverted ? 'cannot' : 'can'}(…) without running it; ${fix}`,
        span: entry.span,
      });
    }
  }
};
