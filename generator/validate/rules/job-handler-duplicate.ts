/**
 * Job handler duplicate (docs/behaviour.md §10.1)
 *
 * Within one queue a job name has one handler: `queue.add(name, …)` finds the handler (and the
 * payload schema) by name. Two `@Process` methods for one name — in one processor or in two
 * processors of the same queue — are refused, pointing at both.
 */
import type { Rule } from '../rule.js';

export const jobHandlerDuplicate: Rule = (app, report) => {
  for (const queue of app.mounted.queues) {
    for (const handler of queue.handlers) {
      if (handler.job === undefined) continue;
      const first = queue.handlerByJob.get(handler.job);
      if (!first || first === handler) continue;
      report({
        message: `job '${handler.job}' of queue '${queue.name}' is handled by both ${first.processor}.${first.methodName} and ${handler.processor}.${handler.methodName}; a job name has one handler: rename one job or remove a handler`,
        span: handler.jobSpan,
        related: [{ message: `${first.processor}.${first.methodName} handles it first`, span: first.jobSpan }],
      });
    }
  }
};
