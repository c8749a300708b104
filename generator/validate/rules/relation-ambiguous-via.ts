/**
 * Relation ambiguous via (docs/behaviour.md §2.6)
 *
 * A has_many whose child holds several keys to the parent must name the child column it follows
 * with `via`; with exactly one key, `via` is not needed. Likewise a many_to_many whose join entity
 * holds several keys to one side: `via` names the one to this entity, `targetVia` the one to the
 * target (a join of an entity with itself always needs `via`).
 */
import type { Rule } from '../rule.js';

export const relationAmbiguousVia: Rule = (app, report) => {
  for (const parent of app.entities) {
    for (const relation of parent.relations) {
      if (relation.kind === 'manyToMany' && relation.join.kind === 'ambiguous') {
        const keys = relation.join.candidates;
        const option = relation.join.side === 'entity' ? 'via' : 'targetVia';
        const side = relation.join.side === 'entity' ? parent.name : (relation.target ?? '');
        report({
          message: `${parent.name}.${relation.name} can follow ${keys.map((key) => `${relation.through}.${key.keyColumn}`).join(' or ')} to ${side}; add ${keys.map((key) => `${option}: '${key.keyColumn}'`).join(' or ')}`,
          span: relation.span,
          related: keys.map((key) => ({ message: `${relation.through}.${key.keyColumn} is a key to ${side}`, span: key.span })),
        });
        continue;
      }
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
