/**
 * The schedules transport (docs/behaviour.md §10.2): runs every `@Cron(expression)` task of the
 * application on croner in this process. Each tick is claimed first (`Dialect.jobs.startTickClaims`,
 * runtime/jobs/schedule.ts): on PostgreSQL every worker runs the schedule and exactly one claims each
 * tick, so a task fires once per tick for the whole cluster; on SQLite the one process does.
 *
 * A task's schedule is overridden by its setting, `APP_CRON__<TASK>` (`off`, or another expression;
 * validated at boot: ./settings.ts). A tick runs outside any request and unscoped,
 * explicitly; a task still running when its next tick comes skips that tick (croner's `protect`);
 * an error is logged with the task and tick and never reaches the process. At shutdown no tick
 * starts and running ones get `APP_HTTP__SHUTDOWN_TIMEOUT` ms.
 */
import { Cron } from 'croner';
import type { Logger } from 'pino';
import { runUnscoped, withoutCaller } from '../../auth/context.js';
import { dialectFor } from '../../dialects/index.js';
import { type TaskContext, tickOf, type TickClaims } from '../../jobs/schedule.js';
import { defineTransport, type TransportFactory } from '../index.js';

/** One `@Cron` method, as `generated/schedules.ts` declares it. */
export interface ScheduledTaskDefinition {
  /** The task's name (`writeDigests`): what claims and logs call it. */
  readonly name: string;
  /** The setting overriding its schedule (`APP_CRON__WRITE_DIGESTS`). */
  readonly setting: string;
  /** The declared expression. */
  readonly expression: string;
  /** Where it is declared (`DigestService.writeDigests`). */
  readonly handler: string;
  readonly run: (task: TaskContext) => unknown;
}

/**
 * The schedules transport of an application (module docstring). `create` builds its tasks from
 * the container. Throws at boot when the tick claims cannot start (PostgreSQL unreachable).
 */
export function schedules<Container>(create: (container: Container) => readonly ScheduledTaskDefinition[]): TransportFactory<Container> {
  return defineTransport<Container>('schedules', async ({ config, logger, container }) => {
    const tasks = create(container);
    const log = logger.child({ transport: 'schedules' });
    const storage = dialectFor(config.database.url).jobs;
    const claims = await storage.startTickClaims({ url: config.database.directUrl, logger: log });
    const running = new Set<Promise<void>>();
    const crons: Cron[] = [];
    for (const task of tasks) {
      const override = config.cron[task.setting];
      const expression = override ?? task.expression;
      if (expression === 'off') {
        log.info({ task: task.name, setting: task.setting }, `scheduled task ${task.name} is off (${task.setting}=off)`);
        continue;
      }
      const cron: Cron = new Cron(expression, { protect: true }, () => {
        const tick = tickOf(new Date());
        const fired = fire(task, { tick, previousTick: cron.previousRuns(1, new Date(tick.getTime() - 1))[0] ?? null }, claims, log);
        running.add(fired);
        void fired.finally(() => running.delete(fired));
        return fired;
      });
      crons.push(cron);
      const source = override === undefined ? 'declared' : `from ${task.setting}`;
      log.info(
        { task: task.name, expression, next: cron.nextRun()?.toISOString() },
        `scheduled task ${task.name}: '${expression}' (${source}); ${storage.schedules}`,
      );
    }
    return {
      name: 'schedules',
      close: async () => {
        for (const cron of crons) cron.stop();
        const finished = await Promise.race([
          Promise.allSettled([...running]).then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), config.http.shutdownTimeout).unref()),
        ]);
        if (!finished) log.warn({ running: running.size }, 'scheduled tasks still running at the shutdown timeout');
        await claims.close();
      },
    };
  });
}

/** Claims the tick of `task` and, when this process won it, runs the task; logs instead of throwing. */
async function fire(
  task: ScheduledTaskDefinition,
  ticks: Pick<TaskContext, 'tick' | 'previousTick'>,
  claims: TickClaims,
  logger: Logger,
): Promise<void> {
  const { tick } = ticks;
  const taskLogger = logger.child({ task: task.name, tick: tick.toISOString() });
  let won: boolean;
  try {
    won = await claims.claim(task.name, tick);
  } catch (error) {
    taskLogger.error({ err: error }, `could not claim tick ${tick.toISOString()} of ${task.name}; it is skipped`);
    return;
  }
  if (!won) return;
  const started = performance.now();
  try {
    await withoutCaller(() => runUnscoped(() => task.run({ ...ticks, logger: taskLogger })));
    taskLogger.info({ ms: Math.round(performance.now() - started), handler: task.handler }, `scheduled task ${task.name} ran`);
  } catch (error) {
    taskLogger.error({ err: error, handler: task.handler }, `scheduled task ${task.name} failed at tick ${tick.toISOString()}`);
  }
}
