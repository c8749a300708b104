/**
 * Relation via unknown (docs/behaviour.md §2.6)
 *
 * `via` names a column of the child that is a key to this parent (a `@BelongsTo(() => Parent)`
 * of the child). The caret is on the `via` string.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const relationViaUnknown: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
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
