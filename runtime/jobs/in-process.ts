/**
 * The in-process queue (docs/decisions.md §8): SQLite's job storage. SQLite is one process by design
 * (docs/decisions.md §2), so a queue in that process's memory serves it without a second store: jobs
 * run in the order they were enqueued, at most `concurrency` at once per queue, a failed run is
 * retried after `retryDelay` seconds doubled per retry, and a job failing `1 + retryLimit` times is
 * kept in its dead-letter queue (the last {@link DEAD_LETTER_KEPT}) and logged at error level.
 *
 * Not durable: a job waiting or running when the process stops (shutdown past its timeout, a crash,
 * kill -9) is lost, and its effect happens at most once. The boot log says so; with PostgreSQL,
 * pg-boss keeps jobs across processes and restarts.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Logger } from 'pino';
import type { JobEnvelope, QueueBackend, QueueBackendOptions, QueuePolicy, ReceivedJob } from './queue.js';

/** Jobs a dead-letter queue keeps (older ones are dropped; each was logged when it arrived). */
const DEAD_LETTER_KEPT = 1_000;

/** A job waiting in a queue. */
interface Waiting {
  readonly id: string;
  readonly envelope: JobEnvelope;
  readonly attempt: number;
}

/** One queue: what waits, who works it, what died. */
interface InProcessQueue {
  readonly waiting: Waiting[];
  readonly dead: Waiting[];
  worker: { readonly concurrency: number; readonly handler: (job: ReceivedJob) => Promise<void> } | undefined;
  running: number;
  /** Jobs waiting for their retry's back-off to pass. */
  retrying: number;
}

/** The in-process {@link QueueBackend} (module docstring). */
class InProcessQueues implements QueueBackend {
  private readonly queues = new Map<string, InProcessQueue>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  /** Jobs given up at shutdown: retries not yet due, and runs past the timeout. */
  private dropped = 0;
  private readonly policy: QueuePolicy;
  private readonly logger: Logger;

  constructor(options: Pick<QueueBackendOptions, 'logger' | 'policy'>) {
    this.policy = options.policy;
    this.logger = options.logger;
  }

  createQueue(queue: string): Promise<void> {
    if (!this.queues.has(queue)) this.queues.set(queue, { waiting: [], dead: [], worker: undefined, running: 0, retrying: 0 });
    return Promise.resolve();
  }

  send(queue: string, envelope: JobEnvelope): Promise<string> {
    const target = this.queue(queue);
    const id = uuidv7();
    // A copy through JSON, as a database would store it: the handler never shares the caller's objects.
    target.waiting.push({ id, envelope: JSON.parse(JSON.stringify(envelope)) as JobEnvelope, attempt: 1 });
    this.pump(target);
    return Promise.resolve(id);
  }

  work(queue: string, concurrency: number, handler: (job: ReceivedJob) => Promise<void>): Promise<void> {
    const target = this.queue(queue);
    target.worker = { concurrency, handler };
    this.pump(target);
    return Promise.resolve();
  }

  healthy(): Promise<boolean> {
    return Promise.resolve(!this.stopping);
  }

  depth(queue: string): Promise<number> {
    const target = this.queue(queue);
    return Promise.resolve(target.waiting.length + target.retrying);
  }

  async stopWorking(timeout: number): Promise<void> {
    this.stopping = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.dropped += this.retries.size;
    this.retries.clear();
    const finished = Promise.allSettled([...this.running]).then(() => true);
    const inTime = await Promise.race([finished, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeout).unref())]);
    if (!inTime) this.dropped += this.running.size;
  }

  close(): Promise<void> {
    const waiting = [...this.queues.values()].reduce((sum, queue) => sum + queue.waiting.length, 0);
    const lost = waiting + this.dropped;
    if (lost > 0) this.logger.warn({ lost, waiting }, `${lost} job(s) lost at shutdown: the in-process queue (SQLite) is not durable`);
    return Promise.resolve();
  }

  private queue(name: string): InProcessQueue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`queue ${name} was not created`);
    return queue;
  }

  /** Starts waiting jobs while the queue's worker has room. */
  private pump(queue: InProcessQueue): void {
    const worker = queue.worker;
    if (!worker || this.stopping) return;
    while (queue.running < worker.concurrency) {
      const job = queue.waiting.shift();
      if (!job) return;
      queue.running += 1;
      const run = this.run(queue, worker.handler, job).finally(() => {
        queue.running -= 1;
        this.running.delete(run);
        this.pump(queue);
      });
      this.running.add(run);
    }
  }

  private async run(queue: InProcessQueue, handler: (job: ReceivedJob) => Promise<void>, job: Waiting): Promise<void> {
    try {
      await handler(job);
    } catch {
      // The jobs transport logged the failure; here it is only retried or dead-lettered.
      if (job.attempt > this.policy.retryLimit) {
        queue.dead.push(job);
        if (queue.dead.length > DEAD_LETTER_KEPT) queue.dead.shift();
        return;
      }
      const delay = this.policy.retryDelay * 1000 * 2 ** (job.attempt - 1);
      queue.retrying += 1;
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        queue.retrying -= 1;
        queue.waiting.push({ ...job, attempt: job.attempt + 1 });
        this.pump(queue);
      }, delay);
      this.retries.add(timer);
    }
  }
}

/** Starts the in-process queue for a SQLite database (the URL is not needed: jobs stay in memory). */
export function startInProcessQueues(options: QueueBackendOptions): Promise<QueueBackend> {
  return Promise.resolve(new InProcessQueues(options));
}
