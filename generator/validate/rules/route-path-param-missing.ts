/**
 * Route path parameter missing
 *
 * Every `:name` segment of a route's path is received by a method parameter of the same name;
 * a `@Param()` parameter names a segment that exists.
 */
import type { Rule } from '../rule.js';

export const routePathParamMissing: Rule = (app, report) => {
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      const names = new Set(route.params.map((param) => param.name));
      for (const segment of route.pathParameters) {
        if (names.has(segment)) continue;
        report({
          message: `${route.method} ${route.fullPath} has a :${segment} segment but ${route.owner}.${route.methodName} has no parameter named ${segment}; add \`${segment}: string\``,
          span: route.span,
        });
      }
      for (const param of route.params) {
        if (param.source === 'path' && !route.pathParameters.includes(param.name)) {
          report({
            message: `parameter ${param.name} of ${route.owner}.${route.methodName} is a path parameter but ${route.fullPath} has no :${param.name} segment`,
            span: param.span,
          });
        }
      }
    }
  }
};
