/**
 * Entity primary key nullable (docs/behaviour.md §2.6)
 *
 * Every primary key column — the one `id`, or each column of a composite key — holds exactly one
 * value in every row: it is neither nullable nor a list (the database refuses a key that may be
 * NULL, and a row is found by its key's values).
 */
import type { Rule } from '../rule.js';

export const entityPrimaryKeyNullable: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const column of entity.primaryKeys) {
      const { list, nullable } = column.type;
      if (!list && !nullable) continue;
      report({
        message: list
          ? `${entity.name}.${column.name} is part of the primary key of ${entity.name} but is a list; a key column holds one value in every row: give it a single value, or keep the list in a column outside the key`
          : `${entity.name}.${column.name} is part of the primary key of ${entity.name} but may be null; a key column holds a value in every row: declare it \`${column.name}!:\`, without \`?\` or \`| null\``,
        span: column.span,
      });
    }
  }
};
