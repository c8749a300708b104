/**
 * Cron expression invalid (docs/behaviour.md §10.2)
 *
 * A `@Cron(expression)` must be an expression croner — the scheduler that runs it — accepts: five
 * fields (minute hour day month weekday) or six with seconds first. Checked by croner itself, so
 * build time and run time agree.
 */
import { Cron } from 'croner';
import type { Rule } from '../rule.js';

/** croner's complaint about `expression`, or undefined when it accepts it. */
function problemOf(expression: string): string | undefined {
  try {
    new Cron(expression, { paused: true }).stop();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const cronExpressionInvalid: Rule = (app, report) => {
  for (const task of app.cronTasks) {
    if (task.expression === undefined || !task.expressionSpan) continue;
    const problem = problemOf(task.expression);
    if (problem === undefined) continue;
    report({
      message: `'${task.expression}' on ${task.owner}.${task.methodName} is not a cron expression (${problem}); write five fields, minute hour day month weekday ('0 * * * *': hourly), or six with seconds first ('*/10 * * * * *')`,
      span: task.expressionSpan,
    });
  }
};
