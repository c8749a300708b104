/**
 * Relation target hidden
 *
 * An exposed relation points at an exposed entity: a field cannot return a type that is not on
 * the wire.
 */
import type { Rule } from '../rule.js';

export const relationTargetHidden: Rule = (app, report) => {
  for (const entity of app.entities) {
    if (!entity.exposed) continue;
    for (const relation of entity.relations) {
      const target = relation.target === undefined ? undefined : app.entityByName.get(relation.target);
      if (!relation.exposed || !target || target.exposed) continue;
      report({
        message: `${entity.name}.${relation.name} is exposed but ${target.name} is @Entity({ exposed: false }); expose ${target.name} or drop exposed: true here`,
        span: relation.span,
      });
    }
  }
};
