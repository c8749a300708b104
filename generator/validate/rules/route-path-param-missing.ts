/**
 * Route path parameter missing
 *
 * Every `:name` segment of a route's path is received by a method parameter of the same name;
 * a `@Param()` parameter names a segment that exists.
 */
import type { Rule } from '../rule.js';
import { displayPath } from './operation-posture-missing.js';

export const routePathParamMissing: Rule = ({ model }, report) => {
  for (const controller of model.controllers) {
    for (const route of controller.routes) {
      const full = displayPath(controller.path, route.path);
      const segments = [...full.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
      for (const segment of segments) {
        if (route.params.some((param) => param.name === segment)) continue;
        report({ message: `${route.method} ${full} has a :${segment} segment but ${route.owner}.${route.methodName} has no parameter named ${segment}; add \`${segment}: string\``, span: route.span });
      }
      for (const param of route.params) {
        if (param.source === 'path' && !segments.includes(param.name)) {
          report({ message: `parameter ${param.name} of ${route.owner}.${route.methodName} is a path parameter but ${full} has no :${param.name} segment`, span: param.span });
        }
      }
    }
  }
};
