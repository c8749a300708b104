/**
 * Relation via unknown (spec §2.6)
 *
 * `via` names a column of the child that is a key to this parent (a `@BelongsTo(() => Parent)`
 * of the child).
 */
import { didYouMean } from '../../../runtime/suggest.js';
import type { BelongsToModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const relationViaUnknown: Rule = ({ model }, report) => {
  for (const parent of model.entities) {
    for (const relation of parent.relations) {
      if (relation.kind !== 'hasMany' || relation.via === undefined) continue;
      const child = model.entities.find((entity) => entity.name === relation.target);
      if (!child) continue;
      const keys = child.relations.filter((candidate): candidate is BelongsToModel => candidate.kind === 'belongsTo' && candidate.target === parent.name).map((key) => key.column);
      if (keys.includes(relation.via)) continue;
      const fix = keys.length > 0 ? `use ${keys.map((key) => `via: '${key}'`).join(' or ')}` : `declare @BelongsTo(() => ${parent.name}, { column: '${relation.via}' }) on ${child.name}`;
      report({ message: `${parent.name}.${relation.name} follows via: '${relation.via}', which is not a key of ${child.name} to ${parent.name}${didYouMean(relation.via, keys)}; ${fix}`, span: relation.span });
    }
  }
};
