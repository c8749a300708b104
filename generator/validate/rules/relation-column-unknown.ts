/**
 * Relation column unknown
 *
 * A belongs_to names a stored column of its own entity, holding the parent's primary key.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const relationColumnUnknown: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const relation of entity.relations) {
      if (relation.kind !== 'belongsTo' || relation.keyColumn === undefined || relation.keyColumnKnown) continue;
      const fix =
        didYouMean(relation.keyColumn, entity.columnByName.keys()) ||
        `; declare @Column() ${relation.keyColumn}!: string on ${entity.name}`;
      report({
        message: `${entity.name}.${relation.name} names column '${relation.keyColumn}', which ${entity.name} does not declare${fix}`,
        span: relation.keyColumnSpan ?? relation.span,
      });
    }
  }
};
