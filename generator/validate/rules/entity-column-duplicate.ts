/**
 * Entity column duplicate (docs/behaviour.md §2.6)
 *
 * An entity declares each column and relation under its own name: each is one field of its Prisma
 * model (and a column one column of its table), so a name declared twice — a composite key naming
 * a column twice among them — is no schema at all.
 */
import type { SourceSpan } from '../../model/types.js';
import type { Rule } from '../rule.js';

export const entityColumnDuplicate: Rule = (app, report) => {
  for (const entity of app.entities) {
    const first = new Map<string, { readonly what: string; readonly span: SourceSpan }>();
    const members = [
      ...entity.columns.map((column) => ({
        name: column.name,
        what: column.primaryKey ? 'primary key column' : 'column',
        span: column.span,
      })),
      ...entity.relations.map((relation) => ({ name: relation.name, what: 'relation', span: relation.span })),
    ].sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);
    for (const member of members) {
      const earlier = first.get(member.name);
      if (!earlier) {
        first.set(member.name, member);
        continue;
      }
      report({
        message: `${entity.name} declares ${member.name} twice; each column and relation is one field of ${entity.name}'s table, so rename or remove this ${member.what}`,
        span: member.span,
        related: [{ message: `${entity.name}.${member.name} first declared here, as a ${earlier.what}`, span: earlier.span }],
      });
    }
  }
};
