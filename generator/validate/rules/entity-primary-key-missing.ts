/**
 * Entity primary key missing (docs/behaviour.md §2, docs/decisions.md §2)
 *
 * Every entity has a primary key; an exposed entity's is one column named `id`: keyset
 * pagination, loaders and cursors are built on it.
 */
import type { Rule } from '../rule.js';

export const entityPrimaryKeyMissing: Rule = (app, report) => {
  for (const entity of app.entities) {
    const [key, ...others] = entity.primaryKeys;
    if (!key) {
      report({ message: `${entity.name} has no primary key; add \`@PrimaryKey() id!: string;\` (a UUID v7)`, span: entity.span });
    } else if (entity.exposed && others.length === 0 && key.name !== 'id') {
      report({
        message: `the primary key of ${entity.name} is ${key.name}, but an exposed entity's primary key is named id (cursors and loaders key on it); rename it to id`,
        span: key.span,
      });
    }
  }
};
