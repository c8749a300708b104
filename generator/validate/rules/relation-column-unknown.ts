/**
 * Relation column unknown
 *
 * A belongs_to names a stored column of its own entity, holding the parent's primary key.
 */
import { didYouMean } from '../../../runtime/suggest.js';
import type { Rule } from '../rule.js';

export const relationColumnUnknown: Rule = ({ model }, report) => {
  for (const entity of model.entities) {
    const columns = entity.columns.map((column) => column.name);
    for (const relation of entity.relations) {
      if (relation.kind !== 'belongsTo' || relation.column === '<missing>' || columns.includes(relation.column)) continue;
      const fix = didYouMean(relation.column, columns) || `; declare @Column() ${relation.column}!: string on ${entity.name}`;
      report({ message: `${entity.name}.${relation.name} names column '${relation.column}', which ${entity.name} does not declare${fix}`, span: relation.span });
    }
  }
};
