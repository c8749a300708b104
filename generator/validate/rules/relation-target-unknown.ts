/**
 * Relation target unknown
 *
 * A relation points at an `@Entity()` class, and a many_to_many goes `through` one. The caret is
 * on the target (or the join entity) as written; the rules about the relation's keys stay silent
 * for it (its keys cannot be known).
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const relationTargetUnknown: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const relation of entity.relations) {
      if (relation.kind === 'manyToMany' && !relation.throughKnown)
        report({
          message:
            relation.through === undefined
              ? `${entity.name}.${relation.name} goes through no entity; write through: () => <the join entity>, whose rows hold a key to ${entity.name} and one to ${relation.target ?? 'the target'}`
              : `${entity.name}.${relation.name} goes through ${relation.through}, which is not an @Entity()${didYouMean(relation.through, app.entityByName.keys())}`,
          span: relation.throughSpan ?? relation.span,
        });
      if (relation.target === undefined || relation.targetKnown) continue;
      report({
        message: `${entity.name}.${relation.name} points at ${relation.target}, which is not an @Entity()${didYouMean(relation.target, app.entityByName.keys())}`,
        span: relation.targetSpan ?? relation.span,
      });
    }
  }
};
