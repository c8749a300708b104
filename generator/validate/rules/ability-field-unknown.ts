/**
 * Ability field unknown (docs/behaviour.md §5.5)
 *
 * The fields a rule grants or denies are the subject entity's columns and relations, by name:
 * any other name masks or refuses nothing, silently (`['don']` grants no `done`).
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const abilityFieldUnknown: Rule = (app, report) => {
  for (const rule of app.abilityRules) {
    if (!rule.fields) continue;
    for (const subject of rule.subjects) {
      const entity = app.entityByName.get(subject.value);
      if (!entity) continue;
      const names = [...entity.columns.map((column) => column.name), ...entity.relations.map((relation) => relation.name)];
      for (const field of rule.fields) {
        if (names.includes(field.value)) continue;
        const fix = didYouMean(field.value, names) || `; name one of ${names.join(', ')}`;
        report({
          message: `${rule.owner}: ${rule.inverted ? 'cannot' : 'can'}(…) names field '${field.value}', which ${entity.name} does not declare${fix}`,
          span: field.span,
        });
      }
    }
  }
};
