/**
 * Entity primary key missing (spec §2, PRODUCT.md §2)
 *
 * Every entity has a primary key: keyset pagination, loaders and cursors are built on it.
 */
import type { Rule } from '../rule.js';

export const entityPrimaryKeyMissing: Rule = ({ model }, report) => {
  for (const entity of model.entities) {
    if (entity.columns.some((column) => column.primaryKey)) continue;
    report({ message: `${entity.name} has no primary key; add \`@PrimaryKey() id!: string;\` (a UUID v7)`, span: entity.span });
  }
};
