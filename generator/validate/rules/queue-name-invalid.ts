/**
 * Queue name invalid (docs/behaviour.md §10.1)
 *
 * A queue's name is its address in the database's job storage, where pg-boss takes letters, digits,
 * `_` and `-` only (the dead-letter queue appends `-dead-letter`). Anything else would fail at boot
 * on PostgreSQL, so it is refused here, on both databases.
 */
import type { Rule } from '../rule.js';

/** What a queue name may contain. */
const QUEUE_NAME = /^[A-Za-z0-9_-]+$/;

export const queueNameInvalid: Rule = (app, report) => {
  for (const processor of app.processors) {
    if (processor.queue === undefined || !processor.queueSpan || QUEUE_NAME.test(processor.queue)) continue;
    const suggestion = processor.queue.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
    report({
      message: `queue name '${processor.queue}' of ${processor.name} may contain only letters, digits, _ and -${suggestion ? `; write '${suggestion}'` : ''}`,
      span: processor.queueSpan,
    });
  }
};
