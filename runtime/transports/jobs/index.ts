/**
 * The jobs transport (docs/behaviour.md §10.1): runs the handlers of every `@Processor` queue in this
 * process and connects the injected {@link Queue}s to the database's job storage
 * (`Dialect.jobs.startQueues`: pg-boss on PostgreSQL, the in-process queue on SQLite). Generated
 * code (`generated/processors.ts`) hands it the queues and one {@link JobHandlerDefinition} per
 * `@Process(name, schema)` method.
 *
 * A job runs outside any request context and unscoped, explicitly (`withoutCaller`, then
 * `runUnscoped`; docs/behaviour.md §5.9), with a logger carrying its queue, name, id and attempt. Its
 * payload is parsed by the handler's schema again before the handler sees it. A handler that
 * throws (or a payload the schema refuses) fails that run: it is logged, retried with back-off and,
 * after `APP_JOBS__RETRY_LIMIT` retries, moved to the queue's dead-letter queue — never does it
 * reach the process. When shutdown begins the transport stops taking jobs and waits for the running
 * ones, at most `APP_HTTP__SHUTDOWN_TIMEOUT` ms; its queues stay open for the requests still
 * draining (a post published then still enqueues its job) and close once they have finished.
 *
 * Observed (docs/behaviour.md §12): each run's duration and outcome and each failure are metrics,
 * each queue's depth is read at scrape time, and with traces on a job enqueued inside a span carries
 * its `traceparent`, and each run is a span continuing that trace.
 */
import type { Logger } from 'pino';
import { type $ZodType, type output, parseAsync } from 'zod/v4/core';
import { runUnscoped, withoutCaller } from '../../auth/context.js';
import { dialectFor } from '../../dialects/index.js';
import {
  deadLetterQueue,
  type JobContext,
  type JobSender,
  type Queue,
  type QueueBackend,
  type QueuePolicy,
  type ReceivedJob,
} from '../../jobs/queue.js';
import type { Observability } from '../../observability/index.js';
import { defineTransport, type TransportFactory } from '../index.js';

/** One `@Process(name, schema)` method of a processor, as `generated/processors.ts` declares it. */
export interface JobHandlerDefinition {
  readonly queue: string;
  readonly job: string;
  /** Where it is declared (`NotificationsProcessor.postPublished`), for logs. */
  readonly handler: string;
  readonly schema: $ZodType;
  /** Runs the handler with the parsed payload. */
  readonly handle: (payload: unknown, job: JobContext) => unknown;
}

/** A handler definition whose `handle` receives what `schema` parses (generated code writes these). */
export function defineJobHandler<Schema extends $ZodType>(definition: {
  readonly queue: string;
  readonly job: string;
  readonly handler: string;
  readonly schema: Schema;
  readonly handle: (payload: output<Schema>, job: JobContext) => unknown;
}): JobHandlerDefinition {
  // Sound: the transport hands `handle` only what `schema` parsed.
  return definition as unknown as JobHandlerDefinition;
}

/** What `generated/processors.ts` gives the transport: the queues services inject, and every handler. */
export interface JobsDefinition {
  readonly queues: readonly Queue<object>[];
  readonly handlers: readonly JobHandlerDefinition[];
}

/**
 * The jobs transport of an application (module docstring). `create` builds its queues and handlers
 * from the container. Throws (at boot) when the database's job storage cannot start.
 */
export function jobs<Container>(create: (container: Container) => JobsDefinition): TransportFactory<Container> {
  return defineTransport<Container>('jobs', async ({ config, logger, container, observability }) => {
    const { queues, handlers } = create(container);
    const log = logger.child({ transport: 'jobs' });
    const storage = dialectFor(config.database.url).jobs;
    const policy: QueuePolicy = config.jobs;
    const backend = await storage.startQueues({ url: config.database.directUrl, logger: log, policy });
    const byQueue = new Map<string, Map<string, JobHandlerDefinition>>();
    for (const handler of handlers)
      byQueue.set(handler.queue, (byQueue.get(handler.queue) ?? new Map<string, JobHandlerDefinition>()).set(handler.job, handler));
    const names = [...new Set([...queues.map((queue) => queue.name), ...byQueue.keys()])].sort();
    try {
      for (const name of names) await backend.createQueue(name);
      for (const [name, byName] of byQueue)
        await backend.work(name, config.jobs.concurrency, (job) => runJob(name, byName, job, policy, log, observability));
    } catch (error) {
      await backend.stopWorking(0);
      await backend.close();
      throw error;
    }
    const sender = traceCarrying(backend, observability);
    for (const queue of queues) queue.connect(sender);
    observability.metrics?.queueDepth(async () =>
      Object.fromEntries(await Promise.all(names.map(async (name) => [name, await backend.depth(name)] as const))),
    );
    log.info({ queues: names, storage: storage.durability }, `jobs: ${names.join(', ')} on ${storage.durability}`);
    return {
      name: 'jobs',
      health: [{ name: 'jobs', check: () => backend.healthy().catch(() => false) }],
      // Stop taking jobs when shutdown begins; requests still draining may enqueue until release.
      close: () => backend.stopWorking(config.http.shutdownTimeout),
      release: () => releaseJobs(queues, backend),
    };
  });
}

/**
 * `backend` as the queues' sender; with traces on, each job carries the `traceparent` of the span
 * enqueuing it (docs/behaviour.md §12.3).
 */
function traceCarrying(backend: QueueBackend, observability: Observability): JobSender {
  const tracing = observability.tracing;
  if (!tracing) return backend;
  return {
    send: (queue, envelope) => {
      const traceparent = tracing.traceparent();
      return backend.send(queue, traceparent === undefined ? envelope : { ...envelope, traceparent });
    },
  };
}

/** Refuses new jobs and closes the storage, once requests have drained. */
async function releaseJobs(queues: readonly Queue<object>[], backend: QueueBackend): Promise<void> {
  for (const queue of queues) queue.disconnect();
  await backend.close();
}

/**
 * Runs one job: outside any request, unscoped, its payload parsed by its handler's schema, in its
 * span (continuing the trace that enqueued it) and observed. Rejects when it fails (the backend
 * retries it or dead-letters it), after logging why.
 */
async function runJob(
  queue: string,
  handlers: ReadonlyMap<string, JobHandlerDefinition>,
  received: ReceivedJob,
  policy: QueuePolicy,
  logger: Logger,
  observability: Observability,
): Promise<void> {
  const name = received.envelope.name;
  const started = performance.now();
  const tracing = observability.tracing;
  const run = (): Promise<void> => runHandler(queue, handlers, received, policy, logger);
  try {
    await (tracing
      ? tracing.continueTrace(
          received.envelope.traceparent,
          {
            name: `process ${queue}`,
            kind: 'consumer',
            attributes: {
              'messaging.destination.name': queue,
              'messaging.operation.type': 'process',
              'messaging.message.id': received.id,
              'job.name': name,
              'job.attempt': received.attempt,
            },
          },
          run,
        )
      : run());
    observability.metrics?.job(queue, name, 'done', (performance.now() - started) / 1000);
  } catch (error) {
    observability.metrics?.job(queue, name, 'failed', (performance.now() - started) / 1000);
    throw error;
  }
}

/** Runs the handler of one job (see {@link runJob}); logs its outcome. */
async function runHandler(
  queue: string,
  handlers: ReadonlyMap<string, JobHandlerDefinition>,
  received: ReceivedJob,
  policy: QueuePolicy,
  logger: Logger,
): Promise<void> {
  const name = received.envelope.name;
  const jobLogger = logger.child({ queue, job: name, jobId: received.id, attempt: received.attempt });
  const started = performance.now();
  try {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`no handler for job ${name} on queue ${queue} (enqueued by another version of the application?)`);
    await withoutCaller(() =>
      runUnscoped(async () => {
        const payload: unknown = await parseAsync(handler.schema, received.envelope.payload);
        await handler.handle(payload, { id: received.id, queue, name, attempt: received.attempt, logger: jobLogger });
      }),
    );
    jobLogger.info({ ms: Math.round(performance.now() - started), handler: handler.handler }, `job ${name} done`);
  } catch (error) {
    if (received.attempt > policy.retryLimit) {
      jobLogger.error({ err: error }, `job ${name} failed on its last attempt (${received.attempt}); moved to ${deadLetterQueue(queue)}`);
    } else {
      jobLogger.warn(
        { err: error },
        `job ${name} failed (attempt ${received.attempt} of ${policy.retryLimit + 1}); it runs again after a back-off`,
      );
    }
    throw error;
  }
}
