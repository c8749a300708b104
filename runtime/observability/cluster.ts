/**
 * Metrics of a cluster (`APP_HTTP__WORKERS` > 1; docs/behaviour.md §12.2, docs/decisions.md §12):
 * one scrape shows the whole server, as a Prometheus user expects of one target. Each worker keeps
 * its own registry and answers prom-client's `AggregatorRegistry` over the cluster's IPC channel;
 * the primary sums the workers' figures (gauges of shared state, such as a queue's depth, take the
 * largest) and serves them on the metrics port — or, behind `APP_METRICS__TOKEN`, hands them to
 * the worker that received `GET /metrics` on the main port.
 */
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AppConfig } from '../server/config.js';
import { type Exposition, serveMetrics } from './exposition.js';

/** A worker's request for the cluster's metrics (main-port scrapes). */
interface MetricsRequest {
  readonly kind: 'metrics-request';
  readonly id: number;
}

/** The primary's answer to a {@link MetricsRequest}. */
interface MetricsResponse {
  readonly kind: 'metrics-response';
  readonly id: number;
  readonly exposition?: Exposition;
  readonly error?: string;
}

/** Milliseconds a worker waits for the primary's answer before the scrape fails (503). */
const ANSWER_TIMEOUT = 10_000;

function isMessage<Kind extends string>(message: unknown, kind: Kind): message is { kind: Kind } {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === kind;
}

/** In a worker: answers the primary's aggregation requests from `registry`. */
export async function joinClusterMetrics(registry: Registry): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client');
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener for the primary's requests in this worker.
  new AggregatorRegistry();
}

let nextRequest = 0;
const pending = new Map<number, { resolve: (exposition: Exposition) => void; reject: (error: Error) => void }>();

/** In a worker: the cluster's metrics, asked of the primary over IPC. Rejects when it does not answer in time. */
export function askPrimaryForMetrics(): Promise<Exposition> {
  if (pending.size === 0) process.on('message', answer);
  const id = nextRequest++;
  return new Promise<Exposition>((resolve, reject) => {
    const timer = setTimeout(() => settle(id, new Error('the cluster primary did not answer with the metrics in time')), ANSWER_TIMEOUT);
    pending.set(id, {
      resolve: (exposition) => {
        clearTimeout(timer);
        resolve(exposition);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    process.send?.({ kind: 'metrics-request', id } satisfies MetricsRequest);
  });
}

/** Settles the request `id` with `outcome`. */
function settle(id: number, outcome: Exposition | Error): void {
  const request = pending.get(id);
  if (!request) return;
  pending.delete(id);
  if (pending.size === 0) process.off('message', answer);
  if (outcome instanceof Error) request.reject(outcome);
  else request.resolve(outcome);
}

/** A worker's handler of the primary's {@link MetricsResponse}s. */
function answer(message: unknown): void {
  if (!isMessage(message, 'metrics-response')) return;
  const response = message as MetricsResponse;
  settle(response.id, response.exposition ?? new Error(response.error ?? 'the cluster primary could not collect the metrics'));
}

/**
 * In the primary, with metrics on: aggregates the workers' metrics, served on the metrics port, or
 * (`APP_METRICS__TOKEN`) answered to the workers' requests. Resolves once served (the listener lives
 * as long as the primary); rejects with the listen error.
 */
export async function servePrimaryMetrics(config: AppConfig, logger: Logger): Promise<void> {
  const { AggregatorRegistry } = await import('prom-client');
  const aggregator = new AggregatorRegistry();
  const exposition = async (): Promise<Exposition> => ({ contentType: aggregator.contentType, text: await aggregator.clusterMetrics() });
  if (config.metrics.token === undefined) {
    const { server } = await serveMetrics(exposition, config, logger);
    // The primary exits with its workers; its metrics listener must not keep it alive.
    server.unref();
    return;
  }
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message, 'metrics-request')) return;
    const { id } = message as MetricsRequest;
    exposition().then(
      (collected) => worker.send({ kind: 'metrics-response', id, exposition: collected } satisfies MetricsResponse),
      (error: unknown) =>
        worker.send({
          kind: 'metrics-response',
          id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies MetricsResponse),
    );
  });
}
