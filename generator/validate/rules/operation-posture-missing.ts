/**
 * Operation posture missing (docs/behaviour.md §1, §5)
 *
 * Every GraphQL operation and HTTP route declares an access posture: `@Public()` (deliberately
 * ungated) or `@Authorized(action, Entity)`. One with neither is refused, so nothing is
 * exposed by accident.
 */
import type { Rule } from '../rule.js';

const FIX = "has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately";

export const operationPostureMissing: Rule = (app, report) => {
  for (const gateway of app.gateways) {
    for (const handler of gateway.handlers) {
      if (handler.postures.length === 0) report({ message: `message ${handler.event} of ${gateway.name} (${gateway.name}.${handler.methodName}) ${FIX}`, span: handler.span });
    }
  }
  for (const resolver of app.resolvers) {
    for (const operation of resolver.operations) {
      if (operation.postures.length === 0) report({ message: `${operation.rootType}.${operation.fieldName} (${operation.owner}.${operation.methodName}) ${FIX}`, span: operation.span });
    }
  }
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      if (route.postures.length === 0) report({ message: `${route.method} ${route.fullPath} (${route.owner}.${route.methodName}) ${FIX}`, span: route.span });
    }
  }
};
