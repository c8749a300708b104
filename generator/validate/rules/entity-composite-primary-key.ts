/**
 * Entity composite primary key (docs/behaviour.md §2.6)
 *
 * Exposed entities have a single-column primary key: cursors and loader keys are one id.
 * A composite key is allowed only on a storage-only entity (`@Entity({ exposed: false })`), such as
 * a join table, which services read and write through its generated repository by the key.
 */
import type { Rule } from '../rule.js';

export const entityCompositePrimaryKey: Rule = (app, report) => {
  for (const entity of app.entities) {
    const keys = entity.primaryKeys;
    const [first, second] = keys;
    if (!entity.exposed || !first || !second) continue;
    report({
      message: `${entity.name} has a composite primary key (${keys.map((key) => key.name).join(', ')}), which exposed entities may not have; use one \`@PrimaryKey() id\` plus @Unique(${keys.map((key) => `'${key.name}'`).join(', ')}), or, for a join table services read through its repository, mark the entity @Entity({ exposed: false })`,
      span: second.span,
      related: [{ message: 'first primary key column', span: first.span }],
    });
  }
};
