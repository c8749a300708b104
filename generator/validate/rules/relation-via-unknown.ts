/**
 * Relation via unknown (docs/behaviour.md §2.6)
 *
 * `via` names a column of the child that is a key to this parent (a `@BelongsTo(() => Parent)`
 * of the child); on a many_to_many, `via` and `targetVia` name keys of the join entity to this
 * entity and to the target. The caret is on the string.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const relationViaUnknown: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
      if (relation.kind === 'manyToMany' && relation.join.kind === 'viaUnknown') {
        const entitySide = relation.join.side === 'entity';
        const option = entitySide ? 'via' : 'targetVia';
        const written = entitySide ? relation.via : relation.targetVia;
        const side = entitySide ? parent.name : (relation.target ?? '');
        const keys = relation.join.candidates.flatMap((key) => (key.keyColumn === undefined ? [] : [key.keyColumn]));
        const fix =
          keys.length > 0
            ? `use ${keys.map((key) => `${option}: '${key}'`).join(' or ')}`
            : `declare @BelongsTo(() => ${side}, { column: '${written ?? ''}' }) on ${relation.through}`;
        report({
          message: `${parent.name}.${relation.name} follows ${option}: '${written ?? ''}', which is not a key of ${relation.through} to ${side}${didYouMean(written ?? '', keys)}; ${fix}`,
          span: (entitySide ? relation.viaSpan : relation.targetViaSpan) ?? relation.span,
        });
        continue;
      }
      if (relation.kind !== 'hasMany' || relation.key.kind !== 'viaUnknown' || relation.via === undefined) continue;
      const keys = relation.key.candidates.flatMap((key) => (key.keyColumn === undefined ? [] : [key.keyColumn]));
      const fix =
        keys.length > 0
          ? `use ${keys.map((key) => `via: '${key}'`).join(' or ')}`
          : `declare @BelongsTo(() => ${parent.name}, { column: '${relation.via}' }) on ${relation.target}`;
      report({
        message: `${parent.name}.${relation.name} follows via: '${relation.via}', which is not a key of ${relation.target} to ${parent.name}${didYouMean(relation.via, keys)}; ${fix}`,
        span: relation.viaSpan ?? relation.span,
      });
    }
  }
};
