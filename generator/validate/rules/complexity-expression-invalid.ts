/**
 * Complexity expression invalid (docs/behaviour.md §8)
 *
 * A complexity override is a number or arithmetic over `first` and `childComplexity`; it is
 * compiled at generate time, so a typo fails here rather than at run time.
 */
import { checkComplexityExpression } from '../../model/complexity.js';
import type { SourceSpan } from '../../model/types.js';
import type { Report } from '../../diagnostics/diagnostic.js';
import type { Rule } from '../rule.js';

const check = (expression: string | undefined, where: string, span: SourceSpan, report: Report): void => {
  if (expression === undefined) return;
  const checked = checkComplexityExpression(expression);
  if (!checked.ok)
    report({
      message: `the complexity of ${where} (${JSON.stringify(expression)}) is not valid: ${checked.reason}; write for example 'first * childComplexity + 1'`,
      span,
    });
};

export const complexityExpressionInvalid: Rule = (app, report) => {
  for (const entity of app.entities)
    for (const relation of entity.relations)
      check(relation.complexity, `${entity.name}.${relation.name}`, relation.complexitySpan ?? relation.span, report);
  // Hand-written resolvers, and the fields generated for resources (their `complexity:` option).
  for (const resolver of [...app.resolvers, ...app.resources.map((resource) => resource.resolver)]) {
    for (const operation of resolver.operations)
      check(operation.complexity, `${operation.owner}.${operation.methodName}`, operation.complexitySpan ?? operation.span, report);
    for (const field of resolver.fieldResolvers)
      check(field.complexity, `${field.owner}.${field.methodName}`, field.complexitySpan ?? field.span, report);
  }
};
