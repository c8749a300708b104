/**
 * Route version undeclared (spec §9.1)
 *
 * A route-level `@Version` restricts a route to a subset of its controller's versions; naming a
 * version the controller does not declare would mount nothing.
 */
import type { Rule } from '../rule.js';

export const routeVersionUndeclared: Rule = ({ model }, report) => {
  for (const controller of model.controllers) {
    for (const route of controller.routes) {
      for (const version of route.versions ?? []) {
        if (controller.versions.includes(version)) continue;
        const fix =
          controller.versions.length === 0
            ? `${controller.name} declares no version; add version: ['${version}'] to its @Controller, or remove @Version`
            : `${controller.name} declares ${controller.versions.map((v) => `'${v}'`).join(', ')}; add '${version}' to the controller's versions or remove it here`;
        report({ message: `${route.owner}.${route.methodName} is restricted to version '${version}', which its controller does not declare: ${fix}`, span: route.versionSpan ?? route.span });
      }
    }
  }
};
