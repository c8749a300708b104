/**
 * Deprecation unseen (docs/behaviour.md §2.7)
 *
 * A deprecation is said to callers, so it is written where callers read: on a column or relation
 * that has a field on the wire. On a hidden entity, a hidden column or a relation not exposed it
 * would be silently dropped (a warning: nothing breaks, but nobody is told).
 */
import type { DeprecationModel } from '../../model/types.js';
import type { Rule } from '../rule.js';

export const deprecationUnseen: Rule = (app, report) => {
  const warn = (what: string, deprecation: DeprecationModel | undefined, why: string, fix: string): void => {
    const span = deprecation?.option?.span ?? deprecation?.tag?.span;
    if (span === undefined) return;
    report({
      severity: 'warning',
      message: `${what} is deprecated, but callers never see it: ${why}; drop the deprecation, or ${fix}`,
      span,
    });
  };
  for (const entity of app.entities) {
    const hidden = `${entity.name} is @Entity({ exposed: false })`;
    for (const column of entity.columns) {
      if (!entity.exposed) warn(`${entity.name}.${column.name}`, column.deprecation, hidden, `expose ${entity.name}`);
      else if (!column.exposed) warn(`${entity.name}.${column.name}`, column.deprecation, 'the column is exposed: false', 'expose it');
    }
    for (const relation of entity.relations) {
      if (!entity.exposed) warn(`${entity.name}.${relation.name}`, relation.deprecation, hidden, `expose ${entity.name}`);
      else if (!relation.exposed)
        warn(`${entity.name}.${relation.name}`, relation.deprecation, 'the relation has no field (it is not exposed: true)', 'expose it');
    }
  }
};
