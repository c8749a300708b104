/**
 * Relation ambiguous via (spec §2.6)
 *
 * A has_many whose child holds several keys to the parent must name the child column it follows
 * with `via`; with exactly one key, `via` is not needed.
 */
import type { BelongsToModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const relationAmbiguousVia: Rule = ({ model }, report) => {
  for (const parent of model.entities) {
    for (const relation of parent.relations) {
      if (relation.kind !== 'hasMany' || relation.via !== undefined) continue;
      const child = model.entities.find((entity) => entity.name === relation.target);
      const keys = child?.relations.filter((candidate): candidate is BelongsToModel => candidate.kind === 'belongsTo' && candidate.target === parent.name) ?? [];
      if (keys.length < 2) continue;
      const columns = keys.map((key) => key.column);
      report({
        message: `${parent.name}.${relation.name} can follow ${columns.map((column) => `${relation.target}.${column}`).join(' or ')}; add ${columns.map((column) => `via: '${column}'`).join(' or ')}`,
        span: relation.span,
        related: keys.map((key) => ({ message: `${relation.target}.${key.column} is a key to ${parent.name}`, span: key.span })),
      });
    }
  }
};
