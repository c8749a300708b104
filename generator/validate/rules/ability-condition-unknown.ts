/**
 * Ability condition unknown (docs/behaviour.md §5.5, §5.6)
 *
 * A rule's conditions are a Prisma `where` on its subject: each key is one of the entity's
 * columns or relations, or `AND`, `OR`, `NOT`. Prisma refuses any other key when the row scope
 * is queried, so a misspelt key (`orgID`) would answer every request 500. Keys inside a
 * relation's condition (directly, or under `is`, `isNot`, `some`, `every`, `none`) are checked
 * against the related entity; the value of a column (`{ in: […] }`) is not a condition and is not
 * read. Keys spread from a local constant are reported where the constant writes them.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { AbilityCondition } from '../../model/declarations.js';
import type { EntityModel, ResolvedApp } from '../../model/model.js';
import type { Rule } from '../rule.js';

const COMBINATORS = new Set(['AND', 'OR', 'NOT']);
const RELATION_FILTERS = new Set(['is', 'isNot', 'some', 'every', 'none']);

export const abilityConditionUnknown: Rule = (app, report) => {
  // A key spread from one constant into many rules is reported once.
  const reported = new Set<string>();
  for (const rule of app.abilityRules) {
    if (!rule.conditions) continue;
    for (const subject of rule.subjects) {
      const entity = app.entityByName.get(subject.value);
      if (!entity) continue;
      check(app, entity, rule.conditions, (key, span, owner) => {
        const where = `${span.file}:${span.line}:${span.column}:${owner.name}`;
        const names = [...owner.columns.map((column) => column.name), ...owner.relations.map((relation) => relation.name)];
        if (reported.has(where)) return;
        reported.add(where);
        const fix = didYouMean(key, names) || `; name one of ${names.join(', ')}`;
        report({ message: `${rule.owner}: the condition key '${key}' is no column or relation of ${owner.name}, so the row scope would fail in the database on every request${fix}`, span });
      });
    }
  }
};

type Unknown = (key: string, span: AbilityCondition['keys'][number]['span'], entity: EntityModel) => void;

/** Reports each key of `condition` that `entity` lacks, descending into relations and combinators. */
function check(app: ResolvedApp, entity: EntityModel, condition: AbilityCondition, unknown: Unknown): void {
  for (const entry of condition.keys) {
    if (COMBINATORS.has(entry.key)) {
      for (const nested of entry.values) check(app, entity, nested, unknown);
      continue;
    }
    if (entity.columnByName.has(entry.key)) continue;
    const relation = entity.relations.find((candidate) => candidate.name === entry.key);
    if (!relation) {
      unknown(entry.key, entry.span, entity);
      continue;
    }
    const target = relation.target === undefined ? undefined : app.entityByName.get(relation.target);
    if (!target) continue;
    for (const nested of entry.values) {
      if (nested.keys.length > 0 && nested.keys.every((key) => RELATION_FILTERS.has(key.key))) {
        for (const filter of nested.keys) for (const inner of filter.values) check(app, target, inner, unknown);
      } else {
        check(app, target, nested, unknown);
      }
    }
  }
}
