/**
 * Route path parameter missing
 *
 * Every `:name` parameter of a route's path — as path-to-regexp reads it, which is how the server
 * hands it over (generator/resolve/route-paths.ts) — is received by a method parameter of the same
 * name; a `@Param()` parameter names a parameter that exists. Silent for a path `route-path-invalid`
 * reports: which names it holds is not known.
 */
import type { Rule } from '../rule.js';

export const routePathParamMissing: Rule = (app, report) => {
  for (const controller of app.controllers) {
    for (const route of controller.routes) {
      const { pathParameters } = route;
      if (pathParameters === undefined) continue;
      const names = new Set(route.params.map((param) => param.name));
      for (const segment of pathParameters) {
        if (names.has(segment)) continue;
        report({
          message: `${route.method} ${route.fullPath} has a :${segment} segment but ${route.owner}.${route.methodName} has no parameter named ${segment}; add \`${segment}: string\``,
          span: route.span,
        });
      }
      for (const param of route.params) {
        if (param.source === 'path' && !pathParameters.includes(param.name)) {
          report({
            message: `parameter ${param.name} of ${route.owner}.${route.methodName} is a path parameter but ${route.fullPath} has no :${param.name} segment`,
            span: param.span,
          });
        }
      }
    }
  }
};
