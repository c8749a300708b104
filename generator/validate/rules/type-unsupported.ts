/**
 * Type unsupported (docs/behaviour.md §4.1)
 *
 * Every column, argument, input field and return type maps to a wire type: String, Int,
 * Float, Boolean, DateTime, an entity, an enum alias or an input interface.
 */
import type { Report } from '../../diagnostics/diagnostic.js';
import type { NamedType, ReturnShape, SourceSpan, TypeShape } from '../../model/types.js';
import type { Rule } from '../rule.js';

const checkNamed = (named: NamedType, where: string, span: SourceSpan, report: Report): void => {
  if (named.kind !== 'unsupported') return;
  report({
    message:
      named.text === undefined
        ? `${where} has no declared type, so it has no wire type: ${named.reason}`
        : `${where} has type ${named.text}, which has no wire type: ${named.reason}`,
    span,
  });
};
const checkShape = (shape: TypeShape, where: string, span: SourceSpan, report: Report): void =>
  checkNamed(shape.named, where, span, report);
const checkReturn = (shape: ReturnShape, where: string, span: SourceSpan, report: Report): void => {
  if (shape.kind === 'page') checkNamed(shape.item, where, span, report);
  else if (shape.kind === 'value') checkShape(shape.type, where, span, report);
};

export const typeUnsupported: Rule = (app, report) => {
  for (const entity of app.entities) {
    for (const column of entity.columns) checkShape(column.type, `column ${entity.name}.${column.name}`, column.span, report);
  }
  for (const input of app.inputs) {
    for (const field of input.fields) checkShape(field.type, `input field ${input.name}.${field.name}`, field.span, report);
  }
  for (const resolver of app.resolvers) {
    for (const operation of [...resolver.operations, ...resolver.fieldResolvers]) {
      const name = `${operation.owner}.${operation.methodName}`;
      for (const param of operation.params) checkShape(param.type, `parameter ${param.name} of ${name}`, param.span, report);
      checkReturn(operation.returns, `the return value of ${name}`, operation.span, report);
    }
  }
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      const name = `${route.owner}.${route.methodName}`;
      for (const param of route.params) checkShape(param.type, `parameter ${param.name} of ${name}`, param.span, report);
      checkReturn(route.returns, `the return value of ${name}`, route.span, report);
    }
  }
};
