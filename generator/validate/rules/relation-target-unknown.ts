/**
 * Relation target unknown
 *
 * A relation points at an `@Entity()` class.
 */
import { didYouMean } from '../../../runtime/suggest.js';
import type { Rule } from '../rule.js';

export const relationTargetUnknown: Rule = ({ model }, report) => {
  const names = model.entities.map((entity) => entity.name);
  for (const entity of model.entities) {
    for (const relation of entity.relations) {
      if (names.includes(relation.target) || relation.target === '<unreadable>') continue;
      report({ message: `${entity.name}.${relation.name} points at ${relation.target}, which is not an @Entity()${didYouMean(relation.target, names)}`, span: relation.span });
    }
  }
};
