/**
 * Relation key missing (docs/behaviour.md §2.2)
 *
 * A has_many follows a key the child declares: the child has a `@BelongsTo(() => Parent)`.
 */
import { lowerFirst } from '../../model/naming.js';
import type { Rule } from '../rule.js';

export const relationKeyMissing: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
      if (relation.kind !== 'hasMany' || relation.key.kind !== 'missing') continue;
      report({
        message: `${parent.name}.${relation.name} lists ${relation.target} rows, but ${relation.target} has no key to ${parent.name}; declare @BelongsTo(() => ${parent.name}, { column: '${lowerFirst(parent.name)}Id' }) on ${relation.target}`,
        span: relation.span,
      });
    }
  }
};
