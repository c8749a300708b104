/**
 * Job queues as application code sees them (docs/behaviour.md §10.1): a service enqueues through an
 * injected {@link Queue} (`@InjectQueue('notifications') private readonly queue: Queue<NotificationsJobs>`),
 * a `@Processor('notifications')` class handles each named job in a `@Process(name, schema)` method.
 * The queue's name is its address (docs/behaviour.md §9.5): it takes no version.
 *
 * Every payload is checked against the handler's zod schema when it is enqueued: a payload the schema
 * refuses (or a job name the queue has no handler for) is a {@link JobPayloadError} thrown at the
 * caller, and nothing is enqueued. The payload is stored as JSON and parsed again by the same schema
 * when the job runs. Where jobs are stored, how often they are retried and where they go when they
 * keep failing is the database's business (runtime/dialects/: pg-boss on PostgreSQL, an in-process
 * queue on SQLite); the {@link QueueBackend} interface is what each provides.
 */
import type { Logger } from 'pino';
import { type $ZodIssue, type $ZodType, type input, safeParseAsync } from 'zod/v4/core';
import { didYouMean } from '../server/suggest.js';

/**
 * The schema of every job a queue takes, by job name (`{ 'post-published': PostPublishedJobSchema }`):
 * any zod schema, through zod's core type (runtime/declarations/pipes.ts says why).
 */
export type JobSchemas = Readonly<Record<string, $ZodType>>;

/** The payload each job of `Schemas` takes when it is enqueued (the schemas' inputs), by job name. */
export type JobsOf<Schemas extends JobSchemas> = { [Name in keyof Schemas]: input<Schemas[Name]> };

/** What a job carries in its queue: its name and the payload it was enqueued with. */
export interface JobEnvelope {
  readonly name: string;
  readonly payload: unknown;
  /**
   * The W3C `traceparent` of the span that enqueued it, when traces are on (docs/behaviour.md
   * §12.3): the job's span continues that trace.
   */
  readonly traceparent?: string;
}

/** A job handed to a worker by a {@link QueueBackend}. */
export interface ReceivedJob {
  readonly id: string;
  readonly envelope: JobEnvelope;
  /** 1 for the first run, 2 for the first retry, … */
  readonly attempt: number;
}

/**
 * How a queue retries and expires its jobs: `APP_JOBS__RETRY_LIMIT`, `APP_JOBS__RETRY_DELAY`,
 * `APP_JOBS__EXPIRE` (docs/guide/configuration.md).
 */
export interface QueuePolicy {
  /** Retries after the first run; a job failing `1 + retryLimit` times goes to the dead-letter queue. */
  readonly retryLimit: number;
  /** Seconds before the first retry, doubled for each one after it. */
  readonly retryDelay: number;
  /** Seconds a running job may take before it counts as failed (its worker died) and runs again; PostgreSQL only. */
  readonly expire: number;
}

/**
 * One database's job storage (runtime/dialects/: `Dialect.jobs`). A handler's rejection is a failed
 * run: the backend retries it with back-off, then moves it to `<queue>-dead-letter`.
 */
export interface QueueBackend {
  /** Creates `queue` and its dead-letter queue when they do not exist. */
  createQueue(queue: string): Promise<void>;
  /** Stores one job; resolves with its id. */
  send(queue: string, envelope: JobEnvelope): Promise<string>;
  /** Starts running jobs of `queue` with `handler`, at most `concurrency` at once in this process. */
  work(queue: string, concurrency: number, handler: (job: ReceivedJob) => Promise<void>): Promise<void>;
  /** Whether it still takes jobs (`GET /health`'s `jobs`). Never rejects. */
  healthy(): Promise<boolean>;
  /** Jobs of `queue` waiting to run: created, or waiting for a retry (`job_queue_depth`, docs/behaviour.md §12.2). */
  depth(queue: string): Promise<number>;
  /**
   * Stops taking jobs and waits for running ones, at most `timeout` ms; `send` still works. A job
   * still running then is left to the backend's own recovery (PostgreSQL: it expires and runs again).
   */
  stopWorking(timeout: number): Promise<void>;
  /** Closes its connections (after {@link stopWorking}); jobs sent afterwards fail. */
  close(): Promise<void>;
}

/** What a dialect's job storage is started with. */
export interface QueueBackendOptions {
  /** The database reached directly (`APP_DATABASE__DIRECT_URL`): pg-boss and the queue setup's session lock need a session of their own. */
  readonly url: string;
  readonly logger: Logger;
  readonly policy: QueuePolicy;
}

/** The dead-letter queue of `queue`: where jobs that failed every retry are kept. */
export function deadLetterQueue(queue: string): string {
  return `${queue}-dead-letter`;
}

/** A job refused at the caller: unknown job name, or a payload its schema refuses. Nothing was enqueued. */
export class JobPayloadError extends Error {
  override readonly name = 'JobPayloadError';

  constructor(
    readonly queue: string,
    readonly job: string,
    message: string,
    readonly issues: readonly $ZodIssue[] = [],
  ) {
    super(`job ${job} on queue ${queue}: ${message}`);
  }
}

/**
 * The queue was used before the jobs transport started or after it stopped.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export class QueueClosedError extends Error {
  override readonly name = 'QueueClosedError';

  constructor(queue: string) {
    super(`queue ${queue} is not open: jobs are taken only while the server runs (it starts before listening and stops at shutdown)`);
  }
}

/** Where a {@link Queue} sends what it accepted. */
export interface JobSender {
  send(queue: string, envelope: JobEnvelope): Promise<string>;
}

/**
 * A queue as a service injects it (`@InjectQueue('notifications')`). `Jobs` maps each job name to
 * the payload it takes (generated: `NotificationsJobs` in `generated/jobs.ts`).
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export class Queue<Jobs extends object = Record<string, unknown>> {
  private sender: JobSender | undefined;

  /**
   * @param name the queue's name, its address (docs/behaviour.md §9.5)
   * @param schemas the schema of every job its processors handle
   */
  constructor(
    readonly name: string,
    private readonly schemas: JobSchemas,
  ) {}

  /** Routes accepted jobs to `sender` (the jobs transport, once it has started). */
  connect(sender: JobSender): void {
    this.sender = sender;
  }

  /** Refuses jobs from now on (shutdown). */
  disconnect(): void {
    this.sender = undefined;
  }

  /**
   * Enqueues job `job` with `payload`; resolves with the job's id once it is stored.
   * Throws {@link JobPayloadError} when the queue has no handler named `job` or its schema refuses
   * the payload (nothing is enqueued), {@link QueueClosedError} outside the server's run, and the
   * database's error when it cannot be stored.
   */
  async add<Name extends keyof Jobs & string>(job: Name, payload: Jobs[Name]): Promise<string> {
    const schema = this.schemas[job];
    if (!schema) throw new JobPayloadError(this.name, job, `no processor handles it${didYouMean(job, Object.keys(this.schemas))}`);
    const parsed = await safeParseAsync(schema, payload);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`).join('; ');
      throw new JobPayloadError(
        this.name,
        job,
        `the payload does not match its schema (${detail}); nothing was enqueued`,
        parsed.error.issues,
      );
    }
    const sender = this.sender;
    if (!sender) throw new QueueClosedError(this.name);
    return sender.send(this.name, { name: job, payload });
  }
}

/**
 * What a job handler receives beside its payload (`@Process` methods' second parameter): which job
 * this is, which run, and a logger whose lines carry the queue, job name, id and attempt.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface JobContext {
  readonly id: string;
  readonly queue: string;
  readonly name: string;
  /** 1 for the first run, 2 for the first retry, … */
  readonly attempt: number;
  readonly logger: Logger;
}
