/**
 * Relation ambiguous via (docs/behaviour.md §2.6)
 *
 * A has_many whose child holds several keys to the parent must name the child column it follows
 * with `via`; with exactly one key, `via` is not needed.
 */
import type { Rule } from '../rule.js';

export const relationAmbiguousVia: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
      if (relation.kind !== 'hasMany' || relation.key.kind !== 'ambiguous') continue;
      const keys = relation.key.candidates;
      report({
        message: `${parent.name}.${relation.name} can follow ${keys.map((key) => `${relation.target}.${key.keyColumn}`).join(' or ')}; add ${keys.map((key) => `via: '${key.keyColumn}'`).join(' or ')}`,
        span: relation.span,
        related: keys.map((key) => ({ message: `${relation.target}.${key.keyColumn} is a key to ${parent.name}`, span: key.span })),
      });
    }
  }
};
