/**
 * Route version undeclared (docs/behaviour.md §9.1)
 *
 * A route-level `@Version` restricts a route to a subset of its controller's versions; naming a
 * version the controller does not declare would mount nothing. Silent when the controller's own
 * versions could not be read (that is reported where they are written).
 */
import type { Rule } from '../rule.js';

export const routeVersionUndeclared: Rule = (app, report) => {
  for (const controller of app.controllers) {
    if (!controller.versionsKnown) continue;
    const declared = new Set(controller.versions);
    for (const route of controller.routes) {
      for (const { version, span } of route.routeVersions ?? []) {
        if (declared.has(version)) continue;
        const fix =
          controller.versions.length === 0
            ? `${controller.name} declares no version; add version: ['${version}'] to its @Controller, or remove @Version`
            : `${controller.name} declares ${controller.versions.map((v) => `'${v}'`).join(', ')}; add '${version}' to the controller's versions or remove it here`;
        report({
          message: `${route.owner}.${route.methodName} is restricted to version '${version}', which its controller does not declare: ${fix}`,
          span,
        });
      }
    }
  }
};
