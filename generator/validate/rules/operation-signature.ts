/**
 * Operation signature (docs/behaviour.md §4.1)
 *
 * Arguments are input types (scalars, enums, input interfaces), never entity types; GraphQL
 * operations return entities, scalars or enums (or pages of entities), never input types. HTTP
 * path and query parameters are scalars or enums; a body is an input interface; a route may also
 * return a plain interface (described in OpenAPI). Nothing returns an unexposed entity.
 */
import type { NamedType, ReturnShape, SourceSpan } from '../../model/types.js';
import type { Rule } from '../rule.js';

const returnsInput = (shape: ReturnShape): boolean =>
  (shape.kind === 'value' && shape.type.named.kind === 'input') ||
  (shape.kind === 'page' && shape.item.kind !== 'entity' && shape.item.kind !== 'unsupported');
const isScalarOrEnum = (named: NamedType): boolean => named.kind === 'scalar' || named.kind === 'enum';

export const operationSignature: Rule = (app, report) => {
  const checkHidden = (entity: string | undefined, name: string, span: SourceSpan): void => {
    if (entity !== undefined && app.entityByName.get(entity)?.exposed === false) {
      report({
        message: `${name} returns ${entity}, which is @Entity({ exposed: false }) and so has no wire type; expose it or return another type`,
        span,
      });
    }
  };
  for (const resolver of app.resolvers) {
    for (const operation of resolver.operations) {
      const name = `${operation.owner}.${operation.methodName}`;
      checkHidden(operation.returnedEntity, name, operation.span);
      // A subscription's item written after an argument is subscription-item-parameter's to report.
      const misplacedItem = (param: (typeof operation.params)[number]): boolean =>
        operation.operationType === 'subscription' &&
        param.type.named.kind === 'entity' &&
        param.type.named.name === operation.eventEntity &&
        operation.itemParam?.type.named.kind !== 'entity';
      for (const param of operation.params) {
        if (param.type.named.kind === 'entity' && !misplacedItem(param)) {
          report({
            message: `parameter ${param.name} of ${name} is the entity ${param.type.named.name}; arguments must be input types, so declare an interface for the input`,
            span: param.span,
          });
        }
      }
      if (returnsInput(operation.returns))
        report({ message: `${name} returns an input type; return an entity, a scalar or Page<Entity>`, span: operation.span });
      if (operation.returns.kind === 'void')
        report({
          message: `${name} returns nothing; a GraphQL field must return a value (for example the changed entity)`,
          span: operation.span,
        });
    }
  }
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      const name = `${route.owner}.${route.methodName}`;
      checkHidden(route.returnedEntity, name, route.span);
      for (const param of route.params) {
        if (param.source === 'body' && param.type.named.kind !== 'input' && param.type.named.kind !== 'unsupported') {
          report({ message: `the body parameter ${param.name} of ${name} must be an input interface`, span: param.span });
        }
        if (
          (param.source === 'path' || param.source === 'query') &&
          !isScalarOrEnum(param.type.named) &&
          param.type.named.kind !== 'unsupported'
        ) {
          report({
            message: `parameter ${param.name} of ${name} is read from the ${param.source === 'path' ? 'path' : 'query string'}, so it must be a scalar or an enum; mark an object parameter @Body()`,
            span: param.span,
          });
        }
      }
      if (route.returns.kind === 'page' && route.returns.item.kind !== 'entity' && route.returns.item.kind !== 'unsupported')
        report({ message: `${name} returns a page of a non-entity; Page<T> pages an entity by its id`, span: route.span });
    }
  }
};
