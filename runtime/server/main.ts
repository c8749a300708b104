/**
 * Running a generated server as a process: start it, stop it cleanly on SIGTERM / SIGINT, and
 * turn a configuration problem into a readable message and exit code 1 (never a stack trace).
 *
 * With `APP_HTTP__WORKERS=N` (N > 1, on a database whose dialect allows it: PostgreSQL) this
 * process becomes a `node:cluster` primary: it forks N workers that share one listening port,
 * replaces a worker that crashes, and on SIGTERM / SIGINT forwards the signal and waits for every
 * worker to finish its in-flight requests. The workers are stateless: every request's answer comes
 * from the database, and subscription events travel between them through the dialect's event
 * relay (PostgreSQL LISTEN/NOTIFY). With metrics on, the primary serves the workers' metrics as
 * one (runtime/observability/cluster.ts; docs/behaviour.md §12.2). A primary serves nothing, so it
 * never loads the application or the server (`resource-service/runtime/main` imports neither):
 * only the processes that serve do.
 */
import cluster, { type Worker } from 'node:cluster';
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import type { DatabaseClient } from '../data/database.js';
import { DIALECTS, dialectFor } from '../dialects/index.js';
import { closeOnSignals, exitWhenWritten } from './exit.js';
import { createLogger } from './logger.js';
import type { ApplicationDefinition } from './server.js';

/** What a worker tells the primary once it listens. */
interface ListeningMessage {
  readonly kind: 'listening';
  readonly url: string;
}

/** Whether a worker's IPC message is its {@link ListeningMessage} (a worker may send others). */
function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'listening';
}

/** How long the primary waits before replacing a crashed worker (milliseconds). */
const RESTART_DELAY = 1_000;

/**
 * What {@link runServer} starts: the schedule settings the configuration is checked with, and the
 * application, loaded only in a process that serves (`generated/main.ts` passes
 * `() => import('./app.js')`).
 */
export interface ServerEntry<Database extends DatabaseClient, Container> {
  /** The `APP_CRON__<TASK>` settings of the application's scheduled tasks (docs/behaviour.md §10.2). */
  readonly cronSettings: readonly string[];
  /** Imports the application; called once, by the process that serves it. */
  readonly load: () => Promise<ApplicationDefinition<Database, Container>>;
}

/**
 * Starts the application of `entry` from `process.env`: one server in this process, or a cluster
 * of `APP_HTTP__WORKERS` workers, whose primary checks the configuration and forks without loading
 * the application. Exits the process on fatal errors (code 1, a configuration error as its
 * message) and after a clean shutdown (code 0). Implements docs/decisions.md §4 (configuration,
 * workers, shutdown).
 */
export async function runServer<Database extends DatabaseClient, Container>(entry: ServerEntry<Database, Container>): Promise<void> {
  try {
    const { config } = loadConfig(process.env, { cronSettings: entry.cronSettings });
    if (config.http.workers > 1 && cluster.isPrimary) {
      refuseWorkersWhereNotAllowed(config);
      await runPrimary(config);
      return;
    }
    await runWorker(await entry.load());
  } catch (error) {
    fail(error);
  }
}

/**
 * Several processes need a database they can share and a way to pass events between them: a
 * dialect whose `workers` are allowed (PostgreSQL). Throws `ConfigError` naming the databases
 * that allow them and why this one does not.
 */
function refuseWorkersWhereNotAllowed(config: AppConfig): void {
  const dialect = dialectFor(config.database.url);
  if (dialect.workers.allowed) return;
  const shared = DIALECTS.filter((candidate) => candidate.workers.allowed);
  throw new ConfigError([
    {
      variable: 'APP_HTTP__WORKERS',
      message: `${config.http.workers} workers need ${shared.map((candidate) => candidate.title).join(' or ')} (APP_DATABASE__URL=${shared.map((candidate) => candidate.urlForm).join(' or ')}): ${dialect.workers.reason}; set APP_HTTP__WORKERS=1`,
    },
  ]);
}

/** One server in this process (a cluster worker, or the only process). */
async function runWorker<Database extends DatabaseClient, Container>(
  definition: ApplicationDefinition<Database, Container>,
): Promise<void> {
  const { startServer } = await import('./server.js');
  const server = await startServer(definition);
  if (cluster.isWorker) process.send?.({ kind: 'listening', url: server.url } satisfies ListeningMessage);
  closeOnSignals(server, ['SIGTERM', 'SIGINT']);
}

/**
 * The cluster primary: forks the workers, logs `listening on <url>` once all of them listen,
 * replaces a worker that dies after it started, and gives up (exit 1) when one dies while
 * starting, since its replacement would fail the same way. With metrics on it first starts the
 * cluster's metrics (their port, or the answers to the workers' main-port scrapes); rejects when
 * the metrics port cannot be listened on.
 */
async function runPrimary(config: AppConfig): Promise<void> {
  const logger = createLogger(config.log);
  if (config.metrics.enabled) {
    const { servePrimaryMetrics } = await import('../observability/cluster.js');
    await servePrimaryMetrics(config, logger);
  }
  const count = config.http.workers;
  const started = new Set<Worker>();
  let stopping = false;
  let announced = false;

  const fork = (): void => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isListeningMessage(message)) return;
      started.add(worker);
      logger.info({ worker: worker.id, workerPid: worker.process.pid, url: message.url }, `worker ${worker.id} listening`);
      if (!announced && started.size === count) {
        announced = true;
        logger.info({ url: message.url, workers: count }, `listening on ${message.url} with ${count} workers`);
      }
    });
  };

  // Node passes a null code for a worker killed by a signal and a null signal otherwise (its types say neither).
  cluster.on('exit', (worker, code: number | null, signal: string | null) => {
    const hadStarted = started.delete(worker);
    if (stopping) {
      if (liveWorkers().length === 0) {
        logger.info('stopped');
        void exitWhenWritten();
      }
      return;
    }
    if (!hadStarted) {
      logger.fatal({ worker: worker.id, code, signal }, `worker ${worker.id} exited while starting (code ${code ?? signal}); stopping`);
      process.exitCode = 1;
      stopping = true;
      stopWorkers('SIGTERM');
      if (liveWorkers().length === 0) process.exit();
      return;
    }
    logger.error(
      { worker: worker.id, code, signal },
      `worker ${worker.id} died (${signal ?? `code ${code}`}); starting a replacement in ${RESTART_DELAY} ms`,
    );
    setTimeout(fork, RESTART_DELAY).unref();
  });

  const stopWorkers = (signal: NodeJS.Signals): void => {
    for (const worker of liveWorkers()) worker.process.kill(signal);
  };
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: liveWorkers().length }, 'shutting down the workers');
    stopWorkers('SIGTERM');
    if (liveWorkers().length === 0) process.exit(0);
    // Workers bound their own drain by APP_HTTP__DRAIN_DELAY, APP_HTTP__SHUTDOWN_TIMEOUT and, tracing,
    // APP_OTEL__EXPORT_TIMEOUT for the last spans; past those and a margin, stop them.
    setTimeout(
      () => {
        logger.warn('workers did not stop in time; killing them');
        stopWorkers('SIGKILL');
        process.exit(1);
      },
      config.http.drainDelay + config.http.shutdownTimeout + (config.otel.endpoint === undefined ? 0 : config.otel.exportTimeout) + 5_000,
    ).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  logger.info({ workers: count, database: dialectFor(config.database.url).name }, `starting ${count} workers`);
  for (let index = 0; index < count; index++) fork();
}

/** Workers whose process has not exited yet. */
function liveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
}

function fail(error: unknown): void {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`the server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  void exitWhenWritten(1);
}
