/**
 * Ability condition untranslatable (docs/behaviour.md §5.5, §5.8)
 *
 * A read rule's condition runs as SQL in every read (`runtime/data/sql-scope.ts`) and on rows in
 * memory through CASL (masking, write checks); a condition either cannot take would answer
 * `database error` on every request, or deny what the grant gives. So each column condition uses
 * only the operators the translator knows (`equals`, `not`, `in`, `notIn`, `lt`, `lte`, `gt`, `gte`,
 * `contains`, `startsWith`, `endsWith`), each relation filter holds a condition object (CASL refuses
 * `is: null`: test the key column instead), and a `create` rule names no relation: a create is
 * checked on the data it writes, which holds no related rows.
 */
import { COLUMN_OPERATORS, RELATION_OPERATORS } from '../../../runtime/data/sql-scope.js';
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { AbilityCondition, DeclaredAbilityRule } from '../../model/declarations.js';
import type { EntityModel, ResolvedApp } from '../../model/model.js';
import type { Rule } from '../rule.js';

const COMBINATORS = new Set(['AND', 'OR', 'NOT']);
const OPERATORS: readonly string[] = COLUMN_OPERATORS;
type Span = AbilityCondition['keys'][number]['span'];

export const abilityConditionUntranslatable: Rule = (app, report) => {
  // A key spread from one constant into many rules is reported once.
  const reported = new Set<string>();
  const once = (span: Span, message: string): void => {
    const where = `${span.file}:${span.line}:${span.column}`;
    if (reported.has(where)) return;
    reported.add(where);
    report({ message, span });
  };
  for (const rule of app.abilityRules) {
    if (!rule.conditions) continue;
    const creates = rule.actions.some((action) => action.value === 'create' || action.value === 'manage');
    for (const subject of rule.subjects) {
      const entity = app.entityByName.get(subject.value);
      if (entity) check(app, rule, entity, rule.conditions, creates, once);
    }
  }
};

/** Reports what in `condition` (on `entity`'s rows) the translator or CASL cannot take. */
function check(
  app: ResolvedApp,
  rule: DeclaredAbilityRule,
  entity: EntityModel,
  condition: AbilityCondition,
  creates: boolean,
  report: (span: Span, message: string) => void,
): void {
  for (const entry of condition.keys) {
    if (COMBINATORS.has(entry.key)) {
      for (const nested of entry.values) check(app, rule, entity, nested, creates, report);
      continue;
    }
    if (entity.columnByName.has(entry.key)) {
      for (const nested of entry.values) checkOperators(rule, entity, entry.key, nested, report);
      continue;
    }
    const relation = entity.relations.find((candidate) => candidate.name === entry.key);
    const target = relation?.target === undefined ? undefined : app.entityByName.get(relation.target);
    // An unknown key is ability-condition-unknown's to report.
    if (!relation || !target) continue;
    if (relation.kind === 'manyToMany') {
      const through = relation.through ?? 'the join entity';
      report(
        entry.span,
        `${rule.owner}: a condition cannot follow the many_to_many ${entity.name}.${entry.key} (the database knows only the join rows); follow the join entity: declare @HasMany(() => ${through}) on ${entity.name} and write { <that relation>: { some: { <its belongs_to>: { is: … } } } }`,
      );
      continue;
    }
    if (creates) {
      report(
        entry.span,
        `${rule.owner}: a create rule on ${entity.name} names the relation ${entry.key}, which a create cannot be checked against (it is checked on the data written, which holds no related rows); name ${entity.name}'s own columns, or check the related row in the service`,
      );
      continue;
    }
    const filters: readonly string[] = RELATION_OPERATORS[relation.kind];
    for (const nested of entry.values) {
      for (const filter of nested.keys) {
        // A filter other than these is ability-condition-unknown's to report.
        if (!filters.includes(filter.key)) continue;
        if (filter.values.length === 0) {
          const key = relation.kind === 'belongsTo' ? relation.keyColumn : undefined;
          report(
            filter.span,
            `${rule.owner}: ${entity.name}.${entry.key}.${filter.key} needs a condition object (CASL's row check refuses \`${filter.key}: null\`); ${key ? `to test whether there is a related row, test the key column: { ${key}: ${filter.key === 'is' ? 'null' : '{ not: null }'} }` : `write { ${entry.key}: { ${filter.key}: { … } } }`}`,
          );
          continue;
        }
        for (const inner of filter.values) check(app, rule, target, inner, creates, report);
      }
    }
  }
}

/** Reports each operator of a column condition (`{ title: { contains: … } }`) the translator does not know. */
function checkOperators(
  rule: DeclaredAbilityRule,
  entity: EntityModel,
  column: string,
  condition: AbilityCondition,
  report: (span: Span, message: string) => void,
): void {
  for (const operator of condition.keys) {
    if (operator.key === 'not') {
      for (const nested of operator.values) checkOperators(rule, entity, column, nested, report);
      continue;
    }
    if (OPERATORS.includes(operator.key)) continue;
    const fix = didYouMean(operator.key, OPERATORS) || `; use one of ${OPERATORS.join(', ')}`;
    report(
      operator.span,
      `${rule.owner}: the condition on ${entity.name}.${column} uses '${operator.key}', which the row scope's SQL cannot express, so every request the rule applies to would fail${fix}`,
    );
  }
}
