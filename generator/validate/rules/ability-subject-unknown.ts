/**
 * Ability subject unknown (docs/behaviour.md §5.5)
 *
 * A rule of the `@Abilities()` class names its subjects by entity name (or CASL's `all`): any
 * other name grants or denies nothing, silently.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const abilitySubjectUnknown: Rule = (app, report) => {
  for (const rule of app.abilityRules) {
    for (const subject of rule.subjects) {
      if (subject.value === 'all' || app.entityByName.has(subject.value)) continue;
      const fix = didYouMean(subject.value, app.entityByName.keys()) || `; name an @Entity() (${[...app.entityByName.keys()].join(', ')})`;
      report({
        message: `${rule.owner}: ${rule.inverted ? 'cannot' : 'can'}(…) names subject '${subject.value}', which is not an @Entity()${fix}`,
        span: subject.span,
      });
    }
  }
};
