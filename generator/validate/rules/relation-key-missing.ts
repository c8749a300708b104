/**
 * Relation key missing (docs/behaviour.md §2.2)
 *
 * A has_many follows a key the child declares: the child has a `@BelongsTo(() => Parent)`. A
 * many_to_many follows two keys its join entity declares: a `@BelongsTo` to each side (docs/behaviour.md §2.6).
 */
import { lowerFirst } from '../../model/naming.js';
import type { Rule } from '../rule.js';

export const relationKeyMissing: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
      if (relation.kind === 'manyToMany' && relation.join.kind === 'missing') {
        const side = relation.join.side === 'entity' ? parent.name : (relation.target ?? '');
        const column = relation.join.side === 'entity' ? relation.via : relation.targetVia;
        report({
          message: `${parent.name}.${relation.name} goes through ${relation.through}, which has no key to ${side}; declare @BelongsTo(() => ${side}, { column: '${column ?? `${lowerFirst(side)}Id`}' }) on ${relation.through}`,
          span: relation.throughSpan ?? relation.span,
        });
        continue;
      }
      if (relation.kind !== 'hasMany' || relation.key.kind !== 'missing') continue;
      report({
        message: `${parent.name}.${relation.name} lists ${relation.target} rows, but ${relation.target} has no key to ${parent.name}; declare @BelongsTo(() => ${parent.name}, { column: '${lowerFirst(parent.name)}Id' }) on ${relation.target}`,
        span: relation.span,
      });
    }
  }
};
