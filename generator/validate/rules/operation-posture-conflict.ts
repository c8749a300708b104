/**
 * Operation posture conflict (docs/behaviour.md §1)
 *
 * An operation has exactly one posture. `@Public()` together with `@Authorized(…)`, or two
 * `@Authorized(…)`, leaves its access ambiguous and is refused.
 */
import type { WrittenPosture } from '../../model/model.js';
import type { Rule } from '../rule.js';

const describe = (posture: WrittenPosture): string => (posture.kind === 'public' ? '@Public()' : posture.kind === 'authorized' ? `@Authorized('${posture.action}', ${posture.subject})` : '@Authorized(…)');

export const operationPostureConflict: Rule = (app, report) => {
  const check = (name: string, postures: readonly WrittenPosture[]): void => {
    const [first, ...rest] = postures;
    if (!first) return;
    for (const extra of rest) {
      report({
        message: `${name} declares both ${describe(first)} and ${describe(extra)}; an operation has exactly one posture, so remove one of them`,
        span: extra.span,
        related: [{ message: `first posture of ${name}`, span: first.span }],
      });
    }
  };
  for (const resolver of app.resolvers) {
    for (const operation of resolver.operations) check(`${operation.rootType}.${operation.fieldName} (${operation.owner}.${operation.methodName})`, operation.postures);
  }
  for (const gateway of app.gateways) {
    for (const handler of gateway.handlers) check(`message ${handler.event} of ${gateway.name} (${gateway.name}.${handler.methodName})`, handler.postures);
  }
  for (const controller of app.controllers) {
    for (const route of controller.routes) check(`${route.method} ${route.fullPath} (${route.owner}.${route.methodName})`, route.postures);
  }
};
