/**
 * Entity primary key missing (spec §2, PRODUCT.md §2)
 *
 * Every entity has a primary key; an exposed entity's is one column named `id`: keyset
 * pagination, loaders and cursors are built on it.
 */
import type { Rule } from '../rule.js';

export const entityPrimaryKeyMissing: Rule = ({ model }, report) => {
  for (const entity of model.entities) {
    const keys = entity.columns.filter((column) => column.primaryKey);
    if (keys.length === 0) {
      report({ message: `${entity.name} has no primary key; add \`@PrimaryKey() id!: string;\` (a UUID v7)`, span: entity.span });
    } else if (entity.exposed && keys.length === 1 && keys[0]?.name !== 'id') {
      report({ message: `the primary key of ${entity.name} is ${keys[0]?.name}, but an exposed entity's primary key is named id (cursors and loaders key on it); rename it to id`, span: keys[0]?.span ?? entity.span });
    }
  }
};
