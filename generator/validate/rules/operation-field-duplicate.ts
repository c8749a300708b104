/**
 * Operation field duplicate (docs/behaviour.md §4.1)
 *
 * The schema is composed from every mounted resolver, so two operations must not claim the
 * same root field: the second would silently replace the first.
 */
import type { OperationModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const operationFieldDuplicate: Rule = (app, report) => {
  // A hand-written one beside a generated resource's is resource-operation-clash's to report.
  const generated = new Set(app.resources.map((resource) => resource.className));
  const oneGenerated = (a: { readonly owner: string }, b: { readonly owner: string }): boolean =>
    generated.has(a.owner) !== generated.has(b.owner);
  const seen = new Map<string, OperationModel>();
  for (const resolver of app.mounted.resolvers) {
    for (const operation of resolver.operations) {
      const key = `${operation.operationType}.${operation.fieldName}`;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, operation);
        continue;
      }
      if (oneGenerated(first, operation)) continue;
      report({
        message: `${operation.owner}.${operation.methodName} and ${first.owner}.${first.methodName} both define ${operation.operationType} field ${operation.fieldName}; rename one method or set @${operation.rootType}({ name: '…' })`,
        span: operation.span,
        related: [{ message: `${operation.fieldName} is first defined here`, span: first.span }],
      });
    }
  }
};
