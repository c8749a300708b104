/**
 * Route duplicate (spec §9.1)
 *
 * Two routes must not mount the same method at the same address under the same version (or both
 * unversioned), across controllers too: one of them would never answer. Path parameters are
 * compared by position, not name (`/posts/:id` and `/posts/:postId` are the same address).
 */
import type { RouteModel, SourceSpan } from '../../model/model.js';
import type { Rule } from '../rule.js';
import { displayPath } from './operation-posture-missing.js';

export const routeDuplicate: Rule = ({ application }, report) => {
  const seen = new Map<string, { route: RouteModel; span: SourceSpan }>();
  for (const controller of application.controllers) {
    for (const route of controller.routes) {
      const address = displayPath(controller.path, route.path);
      const shape = address.replace(/:[A-Za-z0-9_]+/g, ':param');
      const versions = route.versions ?? controller.versions;
      for (const version of versions.length > 0 ? versions : [undefined]) {
        const key = `${route.method} ${shape} ${version ?? '(unversioned)'}`;
        const first = seen.get(key);
        if (!first) {
          seen.set(key, { route, span: route.span });
          continue;
        }
        const where = version === undefined ? 'unversioned' : `under version ${version}`;
        report({
          message: `${route.method} ${address} ${where} is mounted by both ${first.route.owner}.${first.route.methodName} and ${route.owner}.${route.methodName}; only one can answer: change a path, or restrict one with @Version`,
          span: route.span,
          related: [{ message: `${first.route.owner}.${first.route.methodName} mounts it first`, span: first.span }],
        });
      }
    }
  }
};
