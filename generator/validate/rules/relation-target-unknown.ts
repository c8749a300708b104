/**
 * Relation target unknown
 *
 * A relation points at an `@Entity()` class. The caret is on the target as written; the rules
 * about the relation's key stay silent for it (its key cannot be known).
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const relationTargetUnknown: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const relation of entity.relations) {
      if (relation.target === undefined || relation.targetKnown) continue;
      report({
        message: `${entity.name}.${relation.name} points at ${relation.target}, which is not an @Entity()${didYouMean(relation.target, app.entityByName.keys())}`,
        span: relation.targetSpan ?? relation.span,
      });
    }
  }
};
