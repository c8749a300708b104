/**
 * Operation posture conflict (spec §1)
 *
 * An operation has exactly one posture. `@Public()` together with `@Authorized(…)`, or two
 * `@Authorized(…)`, leaves its access ambiguous and is refused.
 */
import type { PostureModel } from '../../model/model.js';
import type { Rule } from '../rule.js';
import { displayPath } from './operation-posture-missing.js';

const describe = (posture: PostureModel): string => (posture.kind === 'public' ? '@Public()' : `@Authorized('${posture.action}', ${posture.subject})`);

export const operationPostureConflict: Rule = ({ model }, report) => {
  const check = (name: string, postures: readonly PostureModel[]): void => {
    if (postures.length < 2) return;
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
  for (const resolver of model.resolvers) {
    for (const operation of resolver.operations) check(`${operation.operationType === 'query' ? 'Query' : operation.operationType === 'mutation' ? 'Mutation' : 'Subscription'}.${operation.fieldName} (${operation.owner}.${operation.methodName})`, operation.postures);
  }
  for (const gateway of model.gateways) {
    for (const handler of gateway.handlers) check(`message ${handler.event} of ${gateway.name} (${gateway.name}.${handler.methodName})`, handler.postures);
  }
  for (const controller of model.controllers) {
    for (const route of controller.routes) check(`${route.method} ${displayPath(controller.path, route.path)} (${route.owner}.${route.methodName})`, route.postures);
  }
};
