/**
 * Ability condition unknown (docs/behaviour.md §5.5, §5.6)
 *
 * A rule's conditions are a Prisma `where` on its subject: each key is one of the entity's
 * columns or relations, or `AND`, `OR`, `NOT`. Prisma refuses any other key when the row scope
 * is queried, so a misspelt key (`orgID`) would answer every request 500. A relation's condition
 * is wrapped as CASL's Prisma interpreter requires (it throws on a bare `{ org: { id } }` when it
 * checks a row): `is`/`isNot` for a belongs_to, `some`/`every`/`none` for a has_many; the keys
 * inside are checked against the related entity. The value of a column (`{ in: […] }`) is not a
 * condition and is not read. Keys spread from a local constant are reported where the constant
 * writes them.
 */
import { RELATION_OPERATORS } from '../../../runtime/data/sql-scope.js';
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { AbilityCondition } from '../../model/declarations.js';
import type { EntityModel, ResolvedApp } from '../../model/model.js';
import type { Rule } from '../rule.js';

const COMBINATORS = new Set(['AND', 'OR', 'NOT']);

export const abilityConditionUnknown: Rule = (app, report) => {
  // A key spread from one constant into many rules is reported once.
  const reported = new Set<string>();
  for (const rule of app.abilityRules) {
    if (!rule.conditions) continue;
    for (const subject of rule.subjects) {
      const entity = app.entityByName.get(subject.value);
      if (!entity) continue;
      check(
        app,
        entity,
        rule.conditions,
        (key, span, owner) => {
          const where = `${span.file}:${span.line}:${span.column}:${owner.name}`;
          const names = [...owner.columns.map((column) => column.name), ...owner.relations.map((relation) => relation.name)];
          if (reported.has(where)) return;
          reported.add(where);
          const fix = didYouMean(key, names) || `; name one of ${names.join(', ')}`;
          report({
            message: `${rule.owner}: the condition key '${key}' is no column or relation of ${owner.name}, so the row scope would fail in the database on every request${fix}`,
            span,
          });
        },
        (key, span, owner, relation, filters) => {
          const where = `${span.file}:${span.line}:${span.column}:${owner.name}`;
          if (reported.has(where)) return;
          reported.add(where);
          report({
            message: `${rule.owner}: the condition on ${owner.name}.${relation} names '${key}' without ${filters.map((filter) => `'${filter}'`).join(', ')}, which the ability's row check refuses; write { ${relation}: { ${filters[0] ?? 'is'}: { ${key}: … } } }`,
            span,
          });
        },
      );
    }
  }
};

type Span = AbilityCondition['keys'][number]['span'];
type Unknown = (key: string, span: Span, entity: EntityModel) => void;
type Unwrapped = (key: string, span: Span, entity: EntityModel, relation: string, filters: readonly string[]) => void;

/** Reports each key of `condition` that `entity` lacks, descending into relations and combinators. */
function check(app: ResolvedApp, entity: EntityModel, condition: AbilityCondition, unknown: Unknown, unwrappedRelation: Unwrapped): void {
  for (const entry of condition.keys) {
    if (COMBINATORS.has(entry.key)) {
      for (const nested of entry.values) check(app, entity, nested, unknown, unwrappedRelation);
      continue;
    }
    if (entity.columnByName.has(entry.key)) continue;
    const relation = entity.relations.find((candidate) => candidate.name === entry.key);
    if (!relation) {
      unknown(entry.key, entry.span, entity);
      continue;
    }
    const target = relation.target === undefined ? undefined : app.entityByName.get(relation.target);
    // A condition cannot follow a many_to_many: ability-condition-untranslatable says what to write.
    if (!target || relation.kind === 'manyToMany') continue;
    const filters: readonly string[] = RELATION_OPERATORS[relation.kind];
    for (const nested of entry.values) {
      const unwrapped = nested.keys.filter((key) => !filters.includes(key.key));
      if (unwrapped.length > 0) {
        unwrapped.forEach((key) => unwrappedRelation(key.key, key.span, entity, relation.name, filters));
        continue;
      }
      for (const filter of nested.keys) for (const inner of filter.values) check(app, target, inner, unknown, unwrappedRelation);
    }
  }
}
