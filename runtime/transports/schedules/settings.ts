/**
 * The schedules transport's settings (docs/behaviour.md §10.2): one per scheduled task,
 * `APP_CRON__<TASK>`, `off` or a cron expression overriding the declared one. They name the
 * application's tasks, so an unknown one is an error, not a warning: a typo would otherwise leave a
 * schedule running that someone meant to switch off. Read by runtime/server/config.ts.
 */
import { Cron } from 'croner';
import type { ConfigProblem } from '../../server/settings.js';
import { didYouMean } from '../../server/suggest.js';

/** The prefix of schedule overrides: `APP_CRON__<TASK>` (docs/behaviour.md §10.2). */
export const CRON_PREFIX = 'APP_CRON__';

/** Why `value` cannot be a task's schedule (`off` or a cron expression), or undefined when it can. */
function cronValueProblem(value: string): string | undefined {
  if (value === 'off') return undefined;
  try {
    new Cron(value, { paused: true }).stop();
    return undefined;
  } catch (error) {
    return `expected off or a cron expression such as '0 * * * *' (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * The schedule overrides in `env` (`APP_CRON__<TASK>`), each checked against `settings` (the
 * setting of each scheduled task, from `generated/schedules.ts`): the valid ones by variable, and a
 * problem for each naming no task or holding neither `off` nor a cron expression croner accepts.
 */
export function cronOverrides(
  env: NodeJS.ProcessEnv,
  settings: readonly string[],
): { cron: Record<string, string>; problems: ConfigProblem[] } {
  const cron: Record<string, string> = {};
  const problems: ConfigProblem[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(CRON_PREFIX) || value === undefined) continue;
    if (!settings.includes(name)) {
      const known = settings.length > 0 ? ` (scheduled tasks: ${settings.join(', ')})` : ' (the application declares no scheduled task)';
      problems.push({ variable: name, message: `no scheduled task has this setting${didYouMean(name, settings)}${known}` });
      continue;
    }
    const problem = cronValueProblem(value.trim());
    if (problem) problems.push({ variable: name, message: `${problem} (got ${JSON.stringify(value)})` });
    else cron[name] = value.trim();
  }
  return { cron, problems };
}
