/**
 * Relation key missing (spec §2.2)
 *
 * A has_many follows a key the child declares: the child has a `@BelongsTo(() => Parent)`.
 */
import type { Rule } from '../rule.js';

export const relationKeyMissing: Rule = ({ model }, report) => {
  for (const parent of model.entities) {
    for (const relation of parent.relations) {
      if (relation.kind !== 'hasMany' || relation.via !== undefined) continue;
      const child = model.entities.find((entity) => entity.name === relation.target);
      if (!child || child.relations.some((candidate) => candidate.kind === 'belongsTo' && candidate.target === parent.name)) continue;
      report({
        message: `${parent.name}.${relation.name} lists ${child.name} rows, but ${child.name} has no key to ${parent.name}; declare @BelongsTo(() => ${parent.name}, { column: '${parent.name.charAt(0).toLowerCase()}${parent.name.slice(1)}Id' }) on ${child.name}`,
        span: relation.span,
      });
    }
  }
};
