/**
 * Route duplicate (docs/behaviour.md §9.1)
 *
 * Two routes must not mount the same method at the same address under the same version (or both
 * unversioned), across controllers too: one of them would never answer. Path parameters are
 * compared by position, not name (`/posts/:id` and `/posts/:postId` are the same address).
 */
import type { RouteModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const routeDuplicate: Rule = (app, report) => {
  // A hand-written one beside a generated resource's is resource-operation-clash's to report.
  const generated = new Set(app.resources.map((resource) => resource.className));
  const oneGenerated = (a: { readonly owner: string }, b: { readonly owner: string }): boolean =>
    generated.has(a.owner) !== generated.has(b.owner);
  const seen = new Map<string, RouteModel>();
  for (const controller of app.mounted.controllers) {
    for (const route of controller.routes) {
      const shape = route.fullPath.replace(/:[A-Za-z0-9_]+/g, ':param');
      for (const version of route.versions.length > 0 ? route.versions : [undefined]) {
        const key = `${route.method} ${shape} ${version ?? '(unversioned)'}`;
        const first = seen.get(key);
        if (!first) {
          seen.set(key, route);
          continue;
        }
        if (oneGenerated(first, route)) continue;
        const where = version === undefined ? 'unversioned' : `under version ${version}`;
        report({
          message: `${route.method} ${route.fullPath} ${where} is mounted by both ${first.owner}.${first.methodName} and ${route.owner}.${route.methodName}; only one can answer: change a path, or restrict one with @Version`,
          span: route.span,
          related: [{ message: `${first.owner}.${first.methodName} mounts it first`, span: first.span }],
        });
      }
    }
  }
};
