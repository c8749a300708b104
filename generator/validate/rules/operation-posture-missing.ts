/**
 * Operation posture missing (spec §1, §5)
 *
 * Every GraphQL operation and HTTP route declares an access posture: `@Public()` (deliberately
 * ungated) or `@Authorized(action, Entity)`. One with neither is refused, so nothing is
 * exposed by accident.
 */
import type { Rule } from '../rule.js';

export const operationPostureMissing: Rule = ({ model }, report) => {
  for (const gateway of model.gateways) {
    for (const handler of gateway.handlers) {
      if (handler.postures.length > 0) continue;
      report({ message: `message ${handler.event} of ${gateway.name} (${gateway.name}.${handler.methodName}) has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately`, span: handler.span });
    }
  }
  for (const resolver of model.resolvers) {
    for (const operation of resolver.operations) {
      if (operation.postures.length > 0) continue;
      const field = `${capitalize(operation.operationType)}.${operation.fieldName}`;
      report({
        message: `${field} (${operation.owner}.${operation.methodName}) has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately`,
        span: operation.span,
      });
    }
  }
  for (const controller of model.controllers) {
    for (const route of controller.routes) {
      if (route.postures.length > 0) continue;
      report({
        message: `${route.method} ${displayPath(controller.path, route.path)} (${route.owner}.${route.methodName}) has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately`,
        span: route.span,
      });
    }
  }
};

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `/posts/:id` from a controller path and a route path. */
export function displayPath(controllerPath: string, routePath: string): string {
  return `/${[controllerPath, routePath].filter(Boolean).join('/')}`;
}
