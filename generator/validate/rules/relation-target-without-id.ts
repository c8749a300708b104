/**
 * Relation target without id (docs/behaviour.md §2.6)
 *
 * A belongs_to holds its parent's `id`: its target is keyed by one `@PrimaryKey() id`. A join table
 * keyed by a composite key is reached from its sides with `@HasMany`, never named by a belongs_to.
 * A target without any primary key is entity-primary-key-missing's to report.
 */
import type { Rule } from '../rule.js';

export const relationTargetWithoutId: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const relation of entity.relations) {
      if (relation.kind !== 'belongsTo' || relation.target === undefined) continue;
      const target = app.entityByName.get(relation.target);
      if (!target || target.keyed || target.primaryKeys.length === 0) continue;
      const key = target.primaryKeys.map((column) => column.name);
      report({
        message: target.compositeKey
          ? `${entity.name}.${relation.name} is a belongs_to to ${target.name}, which is keyed by (${key.join(', ')}); a belongs_to holds one parent id, so point it at an entity keyed by \`@PrimaryKey() id\`; to reach ${target.name} rows from ${entity.name}, give ${target.name} a belongs_to to ${entity.name} and ${entity.name} a @HasMany(() => ${target.name})`
          : `${entity.name}.${relation.name} is a belongs_to to ${target.name}, whose primary key is ${key.join(', ')}; a belongs_to holds its parent's id, so rename ${target.name}'s primary key to id`,
        span: relation.targetSpan ?? relation.span,
      });
    }
  }
};
