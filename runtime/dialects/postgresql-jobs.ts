/**
 * Jobs and schedules on PostgreSQL (docs/decisions.md §8): the PostgreSQL dialect's job storage,
 * loaded only when a server with processors or scheduled tasks starts on PostgreSQL.
 *
 * Queues are pg-boss 10 queues in the database's `pgboss` schema (pg-boss creates and migrates it
 * on start): durable, shared by every worker process and host, each job taken by one worker
 * (`FOR UPDATE SKIP LOCKED`). A failed run is retried `retryLimit` times with exponential back-off,
 * then moved to `<queue>-dead-letter`; a job whose worker died (kill -9, a lost host) expires after
 * `expire` seconds and runs again elsewhere — at least once, so handlers are written idempotent.
 * This process fetches jobs itself (`fetch`, then `complete` or `fail` per job) so that every job
 * has its own outcome and shutdown can stop fetching and wait for the running ones.
 *
 * Scheduled tasks fire once per tick for the whole cluster through `resource_service.schedule_ticks`:
 * its primary key `(task, tick)` lets one process's insert through; that process runs the tick.
 */
import type PgBoss from 'pg-boss';
import pg from 'pg';
import { deadLetterQueue, type JobEnvelope, type QueueBackend, type QueueBackendOptions, type ReceivedJob } from '../jobs/queue.js';
import type { TickClaimOptions, TickClaims } from '../jobs/schedule.js';
import { ensureServiceTables } from './postgresql-service-schema.js';

/** How often an idle worker looks for jobs (milliseconds); a send from this process wakes it at once. */
const POLL_INTERVAL = 500;

/** One queue's fetch loop in this process. */
interface Worker {
  readonly queue: string;
  readonly concurrency: number;
  readonly handler: (job: ReceivedJob) => Promise<void>;
  readonly running: Set<Promise<void>>;
  wake: (() => void) | undefined;
  loop: Promise<void> | undefined;
}

/** pg-boss behind the {@link QueueBackend} interface (module docstring). */
class PgBossQueues implements QueueBackend {
  private readonly workers = new Map<string, Worker>();
  private stopping = false;

  constructor(
    private readonly boss: PgBoss,
    private readonly options: QueueBackendOptions,
  ) {}

  /**
   * Creates `queue` and its dead-letter queue, or applies the settings in force to them. Creating
   * is idempotent, and one process at a time does it (see {@link withQueueSetupLock}). Rejects
   * with the database's error.
   */
  async createQueue(queue: string): Promise<void> {
    const { retryLimit, retryDelay, expire } = this.options.policy;
    const deadLetter = deadLetterQueue(queue);
    const settings = { name: queue, retryLimit, retryDelay, retryBackoff: true, expireInSeconds: expire, deadLetter };
    await withQueueSetupLock(this.options.url, async () => {
      // The dead-letter queue keeps what it receives for two weeks; nothing works it.
      await this.boss.createQueue(deadLetter, { name: deadLetter, retentionDays: 14 });
      await this.boss.createQueue(queue, settings);
      await this.boss.updateQueue(queue, settings);
    });
  }

  async send(queue: string, envelope: JobEnvelope): Promise<string> {
    const id = await this.boss.send(queue, envelope as unknown as object);
    if (id === null) throw new Error(`pg-boss did not store a job on ${queue}`);
    this.workers.get(queue)?.wake?.();
    return id;
  }

  work(queue: string, concurrency: number, handler: (job: ReceivedJob) => Promise<void>): Promise<void> {
    const worker: Worker = { queue, concurrency, handler, running: new Set(), wake: undefined, loop: undefined };
    this.workers.set(queue, worker);
    worker.loop = this.loop(worker);
    return Promise.resolve();
  }

  /** Whether pg-boss's own connections reach the database (its fetch swallows errors, so this asks directly). */
  async healthy(): Promise<boolean> {
    if (this.stopping) return false;
    try {
      await this.boss.getDb().executeSql('SELECT 1', []);
      return true;
    } catch {
      return false;
    }
  }

  /** Jobs created or waiting for a retry (pg-boss's queue size: the states before `active`). */
  depth(queue: string): Promise<number> {
    return this.boss.getQueueSize(queue);
  }

  /** Fetches as many jobs as the worker has room for, runs them, and waits when there are none. */
  private async loop(worker: Worker): Promise<void> {
    while (!this.stopping) {
      const room = worker.concurrency - worker.running.size;
      let fetched = 0;
      if (room > 0) {
        try {
          const jobs = await this.boss.fetch<JobEnvelope>(worker.queue, { batchSize: room, includeMetadata: true });
          fetched = jobs.length;
          for (const job of jobs) this.start(worker, job);
        } catch (error) {
          // pg-boss answers [] when the database cannot be reached; anything else is logged, and the loop goes on.
          this.options.logger.warn({ err: error, queue: worker.queue }, `could not fetch jobs of ${worker.queue}; trying again`);
        }
      }
      // Full, or nothing to fetch: wait for a job to finish, a send from this process, or the poll.
      if (fetched === 0 || worker.running.size >= worker.concurrency) await this.pause(worker);
    }
  }

  private pause(worker: Worker): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, POLL_INTERVAL);
      function done(): void {
        clearTimeout(timer);
        worker.wake = undefined;
        resolve();
      }
      worker.wake = done;
    });
  }

  private start(worker: Worker, job: PgBoss.JobWithMetadata<JobEnvelope>): void {
    const run = (async () => {
      try {
        await worker.handler({ id: job.id, envelope: job.data, attempt: job.retryCount + 1 });
        await this.boss.complete(worker.queue, job.id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // pg-boss retries it with back-off, or moves it to the dead-letter queue after the last retry.
        await this.boss
          .fail(worker.queue, job.id, { message })
          .catch((failure: unknown) =>
            this.options.logger.error({ err: failure, jobId: job.id }, 'could not record a failed job; it expires and runs again'),
          );
      }
    })().finally(() => {
      worker.running.delete(run);
      worker.wake?.();
    });
    worker.running.add(run);
  }

  async stopWorking(timeout: number): Promise<void> {
    this.stopping = true;
    for (const worker of this.workers.values()) worker.wake?.();
    const running = [...this.workers.values()].flatMap((worker) => [...(worker.loop ? [worker.loop] : []), ...worker.running]);
    const inTime = await Promise.race([
      Promise.allSettled(running).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeout).unref()),
    ]);
    if (!inTime)
      this.options.logger.warn({ timeout }, `jobs still running after ${timeout} ms; they expire and run again on another worker`);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, close: true, wait: true, timeout: 1_000 });
  }
}

/**
 * The advisory lock {@link withQueueSetupLock} holds: one key for the database, whatever the queue.
 */
const QUEUE_SETUP_LOCK = "hashtext('resource_service.queue_setup')";

/**
 * Runs `setup` while this connection holds a transaction advisory lock on the database at `url`, so
 * that processes starting at once (the workers of `APP_HTTP__WORKERS`, several hosts) create their
 * queues one after another. pg-boss's `create_queue` adds a foreign key from the new queue's job
 * table to its queue table, taking a lock that conflicts with another process's insert into that
 * table: two processes creating queues at once on a fresh database deadlock, and one fails to start
 * (docs/decisions.md §8). Resolves with what `setup` resolves with; rejects with its error or the
 * connection's. The lock is the open transaction's, not the session's: it goes with the
 * transaction when this process dies, and a transaction-mode pooler reached by mistake (no
 * `APP_DATABASE__DIRECT_URL`) cannot keep it on a server connection after this one has gone.
 */
async function withQueueSetupLock<T>(url: string, setup: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${QUEUE_SETUP_LOCK})`);
    const result = await setup();
    await client.query('COMMIT');
    return result;
  } finally {
    // Closing the connection ends a transaction still open (after a failure), and its lock with it.
    await client.end().catch(() => undefined);
  }
}

/** Starts pg-boss on `url` (creating or migrating its schema) behind the {@link QueueBackend} interface. */
export async function startPgBossQueues(options: QueueBackendOptions): Promise<QueueBackend> {
  const { default: PgBossClass } = await import('pg-boss');
  const boss = new PgBossClass({
    connectionString: options.url,
    max: 4,
    // Expired jobs (a dead worker's) are noticed at the next maintenance: keep it below the expiry.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.policy.expire / 2))),
    // pg-boss's own cron is not used: scheduled tasks are claimed per tick (module docstring).
    schedule: false,
  });
  boss.on('error', (error) => options.logger.warn({ err: error }, 'pg-boss reported an error; it keeps trying'));
  await boss.start();
  return new PgBossQueues(boss, options);
}

/** The tick claims of a PostgreSQL database (module docstring). */
class PostgresTickClaims implements TickClaims {
  constructor(private readonly pool: pg.Pool) {}

  async claim(task: string, tick: Date): Promise<boolean> {
    const claimed = await this.pool.query(
      'INSERT INTO resource_service.schedule_ticks (task, tick) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING task',
      [task, tick],
    );
    if (claimed.rowCount === 0) return false;
    // Ticks older than a day are of no further use.
    await this.pool.query("DELETE FROM resource_service.schedule_ticks WHERE task = $1 AND tick < now() - interval '1 day'", [task]);
    return true;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Creates the claims table when absent (under a lock: several workers start at once) and returns the claims. */
export async function startPostgresTickClaims(options: TickClaimOptions): Promise<TickClaims> {
  const pool = new pg.Pool({ connectionString: options.url, max: 2 });
  pool.on('error', (error) => options.logger.warn({ err: error }, 'schedule connection failed; the next tick reconnects'));
  const client = await pool.connect();
  try {
    await ensureServiceTables(client, [
      'CREATE TABLE IF NOT EXISTS resource_service.schedule_ticks (task text NOT NULL, tick timestamptz NOT NULL, claimed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (task, tick))',
    ]);
  } catch (error) {
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  return new PostgresTickClaims(pool);
}
