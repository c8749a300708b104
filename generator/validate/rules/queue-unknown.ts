/**
 * Queue unknown (docs/behaviour.md §10.1)
 *
 * A queue is its processors' address: `@InjectQueue('notifications')` must name a queue some
 * mounted `@Processor('notifications')` processes, or every job enqueued there would wait forever
 * (or be refused at run time). The message suggests the closest mounted queue.
 */
import { didYouMean } from '../../../runtime/server/suggest.js';
import type { Rule } from '../rule.js';

export const queueUnknown: Rule = (app, report) => {
  const known = app.mounted.queues.map((queue) => queue.name);
  for (const provider of app.mounted.providers) {
    for (const dependency of provider.dependencies) {
      const target = dependency.target;
      if (target.kind !== 'queue' || target.queueKnown) continue;
      const queues = known.length > 0 ? ` (mounted queues: ${known.map((name) => `'${name}'`).join(', ')})` : ' (no mounted processor)';
      report({
        message: `${provider.name} injects queue '${target.queue}' (parameter ${dependency.parameterName}), which no mounted @Processor processes${didYouMean(target.queue, known).replace(/did you mean (.+)\?/, "did you mean '$1'?")}${queues}; add a @Processor('${target.queue}') class to the providers of a module reachable from AppModule, or inject a queue that has one`,
        span: target.queueSpan,
      });
    }
  }
};
