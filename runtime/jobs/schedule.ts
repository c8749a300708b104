/**
 * Scheduled tasks' one-firing-per-tick rule (docs/behaviour.md §10.2): every process of the server
 * runs every task's croner schedule, and when a tick comes each asks its database to *claim* it;
 * only the process whose claim succeeds runs the task. The database decides how
 * (runtime/dialects/: `Dialect.jobs.startTickClaims`): PostgreSQL inserts `(task, tick)` into a
 * table whose primary key lets exactly one insert through; SQLite is one process, which claims every
 * tick of its own.
 */
import type { Logger } from 'pino';

/**
 * What a scheduled task receives (a `@Cron` method's optional parameter): the tick it runs for, the
 * previous one, and a logger carrying the task and tick (runtime/transports/schedules/ hands it over).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface TaskContext {
  /** The scheduled instant this run is for (whole seconds; the same in every process). */
  readonly tick: Date;
  /** The schedule's instant before `tick` (the start of the period this tick ends), or null when there is none. */
  readonly previousTick: Date | null;
  readonly logger: Logger;
}

/** Claims ticks of scheduled tasks for this process. */
export interface TickClaims {
  /**
   * Whether this process won `tick` (the scheduled instant, whole seconds) of `task` and must run
   * it. Rejects when the database cannot be asked (the tick is then skipped, and logged).
   */
  claim(task: string, tick: Date): Promise<boolean>;
  /** Closes its connections. */
  close(): Promise<void>;
}

/** What a dialect's tick claims are started with. */
export interface TickClaimOptions {
  /** The database reached directly (`APP_DATABASE__DIRECT_URL`). */
  readonly url: string;
  readonly logger: Logger;
}

/** The claims of a server that is one process: each tick is claimed once, by it. */
export class LocalTickClaims implements TickClaims {
  private readonly last = new Map<string, number>();

  claim(task: string, tick: Date): Promise<boolean> {
    const previous = this.last.get(task);
    if (previous !== undefined && previous >= tick.getTime()) return Promise.resolve(false);
    this.last.set(task, tick.getTime());
    return Promise.resolve(true);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The scheduled instant of a firing at `fired`: rounded to the whole second, so every process names one tick the same way. */
export function tickOf(fired: Date): Date {
  return new Date(Math.round(fired.getTime() / 1000) * 1000);
}
