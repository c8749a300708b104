/**
 * Relation via on belongs_to (docs/behaviour.md §2.6)
 *
 * The child side names its column through `column`; `via` belongs on the parent's has_many.
 */
import type { Rule } from '../rule.js';

export const relationViaOnBelongsTo: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const relation of entity.relations) {
      if (relation.kind !== 'belongsTo' || !relation.viaSpan) continue;
      const column = relation.keyColumn === undefined ? 'its column' : `column: '${relation.keyColumn}'`;
      report({
        message: `${entity.name}.${relation.name} is a belongs_to: it names its key with ${column}; remove via here (via goes on ${relation.target ?? 'the parent'}'s @HasMany)`,
        span: relation.viaSpan,
      });
    }
  }
};
