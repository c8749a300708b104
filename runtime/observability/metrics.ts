/**
 * Prometheus metrics of one server process (docs/behaviour.md §12.2), with prom-client: one registry
 * per server (never the library's global one, so two servers in one process keep their own), the
 * default process metrics, and the server's own:
 *
 * | metric | type | labels |
 * |---|---|---|
 * | `http_request_duration_seconds` | histogram | `method`, `route` (template), `status` |
 * | `http_request_sql_statements` | histogram | `route` |
 * | `graphql_operation_duration_seconds` | histogram | `operation`, `type`, `outcome` (`ok`, `error`, `refused`) |
 * | `graphql_loader_batch_size` | histogram | `relation` (`User.posts`) |
 * | `websocket_connections` | gauge | `transport` |
 * | `graphql_subscriptions` | gauge | |
 * | `requests_refused_total` | counter | `reason` (the refusal's code in lower case) |
 * | `job_queue_depth` | gauge | `queue` (jobs waiting, read at scrape time) |
 * | `job_duration_seconds` | histogram | `queue`, `job`, `outcome` (`done`, `failed`) |
 * | `job_failures_total` | counter | `queue`, `job` |
 *
 * Every label has bounded values: routes are templates (unknown paths are `unmatched`), operation
 * names are capped at {@link MAX_OPERATION_NAMES} per process (later ones are `other`) and only an
 * operation a signed-in caller ran takes a new one (docs/hostile-input.md §8: anonymous callers
 * cannot fill them), the rest come from the application's declarations or fixed sets. Loaded only
 * when `APP_METRICS__ENABLED`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Distinct GraphQL operation names one process labels; names past them are `other`. */
const MAX_OPERATION_NAMES = 200;

/** Seconds: from 1 ms to 10 s. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Counts of statements or keys. */
const COUNT_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 21, 50, 100, 500, 1000];

/**
 * Per-request observations held before they reach prom-client: up to this many requests' (and as many
 * operations') values, then applied in one pass — or sooner, when anything is collected.
 */
const PENDING_LIMIT = 256;

/** One answered HTTP request, as {@link ServerMetrics.request} was told it. */
interface PendingRequest {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
  readonly statements: number;
}

/** One GraphQL operation, as {@link ServerMetrics.operation} was told it (its name already bounded). */
interface PendingOperation {
  readonly operation: string;
  readonly type: string;
  readonly outcome: 'ok' | 'error' | 'refused';
  readonly seconds: number;
}

/**
 * The metrics of one server process (module docstring).
 *
 * The observations every request makes — its duration, its statements, its GraphQL operation's
 * duration — are queued and applied to their histograms {@link PENDING_LIMIT} at a time, and before
 * every collection (the histograms' `collect`, which prom-client calls for `/metrics` and for a
 * cluster's aggregation), so an exposition always includes every request answered before it. Applied
 * in one pass, prom-client's label hashing and bucket search take about a third of the CPU they take
 * one request at a time among a request's other work (BENCHMARKS.md, "Observability's cost").
 */
export class ServerMetrics {
  /** What `/metrics` exposes. */
  readonly registry = new Registry();
  private readonly operationNames = new Set<string>();
  private pendingRequests: PendingRequest[] = [];
  private pendingOperations: PendingOperation[] = [];
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route template, method and status',
    labelNames: ['method', 'route', 'status'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
    collect: () => this.applyPending(),
  });
  private readonly statements = new Histogram({
    name: 'http_request_sql_statements',
    help: 'SQL statements one request sent, by route template',
    labelNames: ['route'],
    buckets: COUNT_BUCKETS,
    registers: [this.registry],
    collect: () => this.applyPending(),
  });
  private readonly operationDuration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'Time to prepare and execute one GraphQL query or mutation, by operation name, type and outcome',
    labelNames: ['operation', 'type', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
    collect: () => this.applyPending(),
  });
  private readonly batchSize = new Histogram({
    name: 'graphql_loader_batch_size',
    help: 'Keys one relation loader batch asked for in one statement, by relation',
    labelNames: ['relation'],
    buckets: COUNT_BUCKETS,
    registers: [this.registry],
  });
  private readonly sockets = new Gauge({
    name: 'websocket_connections',
    help: 'Open WebSockets, by transport',
    labelNames: ['transport'],
    registers: [this.registry],
  });
  private readonly subscriptions = new Gauge({
    name: 'graphql_subscriptions',
    help: 'Running GraphQL subscriptions',
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'requests_refused_total',
    help: 'Requests and operations refused, by reason (the code of the answer, lower case)',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Time one run of a job took, by queue, job and outcome',
    labelNames: ['queue', 'job', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Job runs that failed (each is retried or dead-lettered), by queue and job',
    labelNames: ['queue', 'job'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** One answered HTTP request: `seconds` from arrival to answer, `statements` it sent. */
  request(method: string, route: string, status: number, seconds: number, statements: number): void {
    if (this.pendingRequests.push({ method, route, status, seconds, statements }) >= PENDING_LIMIT) this.applyPending();
  }

  /**
   * One GraphQL query or mutation, `outcome` `ok`, `error` (errors in its answer) or `refused` (it
   * did not run); `admitsName` when its name may take a label of its own not taken yet.
   */
  operation(name: string, type: string, outcome: 'ok' | 'error' | 'refused', seconds: number, admitsName: boolean): void {
    if (this.pendingOperations.push({ operation: this.operationName(name, admitsName), type, outcome, seconds }) >= PENDING_LIMIT)
      this.applyPending();
  }

  /** Applies every queued observation to its histogram (class docstring). */
  private applyPending(): void {
    const requests = this.pendingRequests;
    const operations = this.pendingOperations;
    this.pendingRequests = [];
    this.pendingOperations = [];
    for (const { method, route, status, seconds, statements } of requests) {
      this.httpDuration.observe({ method, route, status }, seconds);
      this.statements.observe({ route }, statements);
    }
    for (const { operation, type, outcome, seconds } of operations) this.operationDuration.observe({ operation, type, outcome }, seconds);
  }

  /**
   * `name` when it is labelled already, or is admitted while fewer than {@link MAX_OPERATION_NAMES}
   * distinct names are; `other` otherwise.
   */
  private operationName(name: string, admit: boolean): string {
    if (this.operationNames.has(name)) return name;
    if (!admit || this.operationNames.size >= MAX_OPERATION_NAMES) return 'other';
    this.operationNames.add(name);
    return name;
  }

  /** One loader batch of `keys` keys for `relation`. */
  loaderBatch(relation: string, keys: number): void {
    this.batchSize.observe({ relation }, keys);
  }

  /** A WebSocket of `transport` opened (+1) or closed (-1). */
  socket(transport: string, change: 1 | -1): void {
    this.sockets.inc({ transport }, change);
  }

  /** A subscription started (+1) or ended (-1). */
  subscription(change: 1 | -1): void {
    this.subscriptions.inc(change);
  }

  /** One refusal, by reason: the code of the answer in lower case (`too_many_requests` for the rate limit, `complexity_limit`). */
  refused(reason: string): void {
    this.refusals.inc({ reason });
  }

  /** One run of a job. */
  job(queue: string, job: string, outcome: 'done' | 'failed', seconds: number): void {
    this.jobDuration.observe({ queue, job, outcome }, seconds);
    if (outcome === 'failed') this.jobFailures.inc({ queue, job });
  }

  /**
   * Reports `job_queue_depth` from `depths` (jobs waiting, by queue) at every scrape. Every process
   * of a cluster sees the same queues, so the cluster's figure is the largest, not the sum.
   */
  queueDepth(depths: () => Promise<Readonly<Record<string, number>>>): void {
    new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs waiting in each queue (created or waiting for a retry), read at scrape time',
      labelNames: ['queue'],
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        // A queue that cannot be read now (its storage is closing) keeps the last depth read.
        const read = await depths().catch(() => ({}));
        for (const [queue, depth] of Object.entries(read)) this.set({ queue }, depth);
      },
    });
  }

  /** The text exposition of every metric, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
