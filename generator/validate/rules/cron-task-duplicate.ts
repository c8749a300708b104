/**
 * Cron task duplicate (docs/behaviour.md §10.2)
 *
 * Each scheduled task is overridden by one setting, `APP_CRON__<NAME>`, and named by it in claims
 * and logs: two mounted tasks whose names give the same setting would share both. Name one of them
 * with `@Cron(expression, { name })`.
 */
import type { CronTaskModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const cronTaskDuplicate: Rule = (app, report) => {
  const seen = new Map<string, CronTaskModel>();
  for (const task of app.mounted.cronTasks) {
    const first = seen.get(task.setting);
    if (!first) {
      seen.set(task.setting, task);
      continue;
    }
    report({
      message: `scheduled tasks ${first.owner}.${first.methodName} and ${task.owner}.${task.methodName} would both be ${task.setting}; give one another name: @Cron('${task.expression ?? '…'}', { name: '${task.methodName}${task.owner}' })`,
      span: task.nameSpan ?? task.span,
      related: [{ message: `${first.owner}.${first.methodName} is ${first.setting}`, span: first.nameSpan ?? first.span }],
    });
  }
};
