/**
 * Observability of one server (docs/behaviour.md §12, docs/decisions.md §12): request ids and the
 * access line, Prometheus metrics and OpenTelemetry traces, each switched by configuration.
 *
 * - Every HTTP request gets an id (./request-id.ts) and a {@link RequestObservation} at the front
 *   of the Express chain; the request context carries it, so every log line written while serving
 *   the request has `requestId` (the logger's mixin reads it, runtime/server/logger.ts), problem
 *   documents and GraphQL errors carry it, and the statements the request sends are counted. When
 *   the answer has gone, one access line is written (`APP_LOG__ACCESS`, `APP_LOG__ACCESS_SAMPLE`),
 *   the metrics observed and the request's span ended.
 * - Metrics (`APP_METRICS__ENABLED`; ./metrics.ts) are served on a port of their own, or on the main
 *   port behind `APP_METRICS__TOKEN`; a cluster's workers are scraped as one (./cluster.ts).
 * - Traces (`APP_OTEL__ENDPOINT`; ./tracing.ts) have one span per request, GraphQL operation, loader
 *   batch, SQL statement and job. With tracing off the SDK is never loaded and no span is made.
 *
 * The cost of each, measured, is in BENCHMARKS.md §"Observability's cost".
 */
import cluster from 'node:cluster';
import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { currentContext, type RequestContext } from '../auth/context.js';
import type { SqlRunner } from '../data/sql-runner.js';
import type { Sql } from '../data/sql-scope.js';
import { problem, sendProblem } from '../http/problem.js';
import type { AppConfig } from '../server/config.js';
import { type Exposition, METRICS_PATH, serveMetrics } from './exposition.js';
import type { ServerMetrics } from './metrics.js';
import { type OperationLabel, refusalReason, RequestObservation } from './observation.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import type { Tracing } from './tracing.js';

/** The route label of a request no route answered (bounded: never the raw path). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * The tracer `config.otel` asks for: undefined when `APP_OTEL__ENDPOINT` is unset (tracing off,
 * nothing loaded), else an OTLP/HTTP exporter to `<endpoint>/v1/traces` behind a batching processor.
 */
async function startTracing(config: AppConfig, logger: Logger): Promise<Tracing | undefined> {
  const endpoint = config.otel.endpoint;
  if (endpoint === undefined) return undefined;
  const { startOtelTracing } = await import('./otel.js');
  return startOtelTracing({
    endpoint,
    serviceName: config.otel.serviceName,
    sample: config.otel.sample,
    exportTimeout: config.otel.exportTimeout,
    logger,
  });
}

/** Observes each relation loader batch (runtime/graphql/loaders.ts): its size and its span. */
export type LoaderObserver = <T>(relation: string, keys: number, run: () => Promise<T>) => Promise<T>;

/** Statement texts already named (prepared statements repeat; bounded, cleared when full). */
const operations = new Map<string, string>();

/** The first SQL keyword of `sql` (`SELECT`), for a statement span's name. */
function statementOperation(sql: string): string {
  let operation = operations.get(sql);
  if (operation === undefined) {
    operation = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
    if (operations.size >= 1_000) operations.clear();
    operations.set(sql, operation);
  }
  return operation;
}

/** The route template Express matched for `request` (`/api-json/:version`), if a route of it answered. */
function expressRoute(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${request.baseUrl}${path}` : undefined;
}

/** Whether `given` is `Bearer <token>`, compared in constant time. */
function bearerMatches(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The observability of one server (module docstring). */
export class Observability {
  private metricsServer: Server | undefined;
  /** Where expositions come from: this process's registry, or the cluster's (./cluster.ts). */
  private exposition: (() => Promise<Exposition>) | undefined;
  /**
   * The level access lines are written at, or undefined when none is: `APP_LOG__ACCESS` is `off`,
   * or below the logger's level at boot.
   */
  private readonly accessLevel: Exclude<AppConfig['log']['access'], 'off'> | undefined;
  /**
   * Whether anything is written when a request ends — an access line, metrics, a span. When
   * nothing is, a request gets its id and observation and nothing more: no end-of-request work,
   * no statement counting.
   */
  private readonly recording: boolean;

  private constructor(
    private readonly config: AppConfig,
    private readonly logger: Logger,
    /** Undefined unless `APP_METRICS__ENABLED`. */
    readonly metrics: ServerMetrics | undefined,
    /** Undefined unless `APP_OTEL__ENDPOINT` is set. */
    readonly tracing: Tracing | undefined,
  ) {
    const registry = metrics?.registry;
    if (registry) this.exposition = async () => ({ contentType: registry.contentType, text: await registry.metrics() });
    const access = config.log.access;
    this.accessLevel = access !== 'off' && logger.isLevelEnabled(access) ? access : undefined;
    this.recording = metrics !== undefined || tracing !== undefined || this.accessLevel !== undefined;
  }

  /**
   * The observability `config` asks for: loads prom-client only with metrics on and the
   * OpenTelemetry SDK only with an endpoint. In a cluster worker the metrics join the cluster's
   * (the primary serves them, or answers a worker's `/metrics` on the main port).
   */
  static async start(config: AppConfig, logger: Logger): Promise<Observability> {
    if (!config.metrics.enabled && config.metrics.token !== undefined)
      logger.warn('APP_METRICS__TOKEN is set but APP_METRICS__ENABLED is not: no metrics are served');
    let metrics: ServerMetrics | undefined;
    if (config.metrics.enabled) {
      const { ServerMetrics } = await import('./metrics.js');
      metrics = new ServerMetrics();
    }
    const observability = new Observability(config, logger, metrics, await startTracing(config, logger));
    if (metrics && cluster.isWorker) {
      const { joinClusterMetrics, askPrimaryForMetrics } = await import('./cluster.js');
      await joinClusterMetrics(metrics.registry);
      observability.exposition = askPrimaryForMetrics;
    }
    return observability;
  }

  /**
   * The Express middleware in front of everything: takes or makes the request's id, answers it in
   * `X-Request-Id`, begins its observation (`response.locals.observation`) and its span, and once
   * the answer has gone (or the client has) writes the access line and the metrics and ends the span.
   */
  front(): RequestHandler {
    const tracing = this.tracing;
    if (!this.recording) {
      return (request: Request, response: Response, next: NextFunction) => {
        const observation = new RequestObservation(requestIdOf(request.headers));
        response.locals.observation = observation;
        response.setHeader(REQUEST_ID_HEADER, observation.requestId);
        next();
      };
    }
    return (request: Request, response: Response, next: NextFunction) => {
      const started = performance.now();
      const observation = new RequestObservation(requestIdOf(request.headers));
      response.locals.observation = observation;
      response.setHeader(REQUEST_ID_HEADER, observation.requestId);
      const span = tracing?.request(request);
      // 'close' comes once per response, after the answer is sent or the client has gone.
      response.on('close', () => this.finish(request, response, observation, started, span));
      if (span) observation.traceContext = span.context;
      next();
    };
  }

  /** Everything written once a request has ended (see {@link front}). */
  private finish(
    request: Request,
    response: Response,
    observation: RequestObservation,
    started: number,
    span: ReturnType<Tracing['request']> | undefined,
  ): void {
    const seconds = (performance.now() - started) / 1000;
    const route = observation.route ?? expressRoute(request) ?? UNMATCHED_ROUTE;
    const status = response.statusCode;
    const method = request.method;
    if (this.metrics) {
      this.metrics.request(method, route, status, seconds, observation.statements);
      if (observation.refusal !== undefined) this.metrics.refused(observation.refusal);
    }
    const operation = observation.operation;
    if (span?.recording)
      span.end(route, status, {
        'request.id': observation.requestId,
        'db.statements': observation.statements,
        ...(operation ? { 'graphql.operation.name': operation.name, 'graphql.operation.type': operation.type } : {}),
      });
    const level = this.accessLevel;
    if (level === undefined) return;
    const sample = this.config.log.accessSample;
    if (status < 500 && sample < 1 && Math.random() >= sample) return;
    const sub = (response.locals as { request?: RequestContext }).request?.principal?.sub;
    this.logger[level](
      {
        requestId: observation.requestId,
        method,
        route,
        status,
        ms: Math.round(seconds * 10_000) / 10,
        ...(sub !== undefined ? { sub } : {}),
        ...(operation ? { operationName: operation.name, operationType: operation.type } : {}),
        statements: observation.statements,
        ...(observation.refusal !== undefined ? { refused: observation.refusal } : {}),
        ...(response.writableFinished ? {} : { aborted: true }),
      },
      `${method} ${route} ${status}`,
    );
  }

  /**
   * `GET /metrics` on the main port, for `APP_METRICS__TOKEN`: the exposition to
   * `Authorization: Bearer <token>`, 401 to anyone else. Undefined when metrics are off or served
   * on their own port.
   */
  metricsRoute(): RequestHandler | undefined {
    const token = this.config.metrics.token;
    const exposition = this.exposition;
    if (token === undefined || !exposition) return undefined;
    return (request: Request, response: Response) => {
      const observation = (response.locals as { observation?: RequestObservation }).observation;
      if (observation) observation.route = METRICS_PATH;
      if (!bearerMatches(request.headers.authorization, token)) {
        sendProblem(response, problem(401, 'UNAUTHENTICATED', `${METRICS_PATH} needs Authorization: Bearer <APP_METRICS__TOKEN>`));
        return;
      }
      exposition().then(
        ({ contentType, text }) => response.type(contentType).send(text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'could not collect the metrics');
          sendProblem(response, problem(503, 'SERVICE_UNAVAILABLE', 'the metrics could not be collected; try again'));
        },
      );
    };
  }

  /**
   * Serves `GET /metrics` on `APP_METRICS__HOST`:`APP_METRICS__PORT` when metrics are on, not behind
   * a token, and this process is not a cluster worker (the primary serves a cluster's). Resolves with
   * the metrics URL, or undefined when nothing was started; rejects with the listen error.
   */
  async listen(): Promise<string | undefined> {
    const exposition = this.exposition;
    if (!exposition || this.config.metrics.token !== undefined || cluster.isWorker) return undefined;
    const { server, url } = await serveMetrics(exposition, this.config, this.logger);
    this.metricsServer = server;
    return url;
  }

  /** Observes a loader batch (size, span), or undefined when neither metrics nor traces are on. */
  loaderObserver(): LoaderObserver | undefined {
    const { metrics, tracing } = this;
    if (!metrics && !tracing) return undefined;
    return (relation, keys, run) => {
      metrics?.loaderBatch(relation, keys);
      return tracing?.recording()
        ? tracing.inSpan(
            { name: `loader ${relation}`, attributes: { 'graphql.loader.relation': relation, 'graphql.loader.keys': keys } },
            run,
          )
        : run();
    };
  }

  /** Counts one statement against the request being served (if any) and, with tracing, runs it in its span. */
  private statement<T>(system: string, sql: string, run: () => Promise<T>): Promise<T> {
    const observation = currentContext().observation;
    if (observation) observation.statements += 1;
    if (!this.tracing?.recording()) return run();
    const operation = statementOperation(sql);
    return this.tracing.inSpan(
      { name: operation, kind: 'client', attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': sql } },
      run,
    );
  }

  /**
   * `runner` with every statement observed ({@link statement}); `system` is the dialect's name.
   * `runner` itself when nothing is recorded. The observed runner writes the same SQL (`sql`).
   */
  observeRunner(runner: SqlRunner, system: string): SqlRunner {
    if (!this.recording) return runner;
    const insert = runner.insert?.bind(runner);
    const roomToWrite = runner.roomToWrite?.bind(runner);
    return {
      sql: runner.sql,
      read: (statement) => this.statement(system, statement.sql, () => runner.read(statement)),
      ...(insert ? { insert: (statement: Sql) => this.statement(system, statement.sql, () => insert(statement)) } : {}),
      // Not a statement: what `/health` asks of the database's storage, unobserved.
      ...(roomToWrite ? { roomToWrite } : {}),
      close: () => runner.close(),
    };
  }

  /**
   * `factory` with every statement the Prisma client sends through its connections and
   * transactions observed ({@link statement}); `system` is the dialect's name. Returns `factory`,
   * untouched when nothing is recorded.
   */
  observeAdapterFactory<Factory extends SqlDriverAdapterFactory>(factory: Factory, system: string): Factory {
    if (!this.recording) return factory;
    const connect = factory.connect.bind(factory);
    const observe = <Queryable extends SqlQueryable>(queryable: Queryable): Queryable => {
      const queryRaw = queryable.queryRaw.bind(queryable);
      const executeRaw = queryable.executeRaw.bind(queryable);
      queryable.queryRaw = (query) => this.statement(system, query.sql, () => queryRaw(query));
      queryable.executeRaw = (query) => this.statement(system, query.sql, () => executeRaw(query));
      return queryable;
    };
    factory.connect = async (): Promise<SqlDriverAdapter> => {
      const adapter = observe(await connect());
      const startTransaction = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel): Promise<Transaction> => observe(await startTransaction(isolationLevel));
      return adapter;
    };
    return factory;
  }

  /**
   * Runs `run` in the span of GraphQL operation `label` (`query Users`), the child of the active
   * one; returns what `run` returns. Just runs it with tracing off or inside a trace not sampled.
   */
  inOperationSpan<T>(label: OperationLabel, run: () => T): T {
    if (!this.tracing?.recording()) return run();
    return this.tracing.inSpan(
      { name: `${label.type} ${label.name}`, attributes: { 'graphql.operation.name': label.name, 'graphql.operation.type': label.type } },
      run,
    );
  }

  /**
   * A GraphQL operation that did not run (parse, validation, limits, guards): its duration
   * (`outcome` `refused`) and the refusal its errors' codes say, if any. `operation` is the refused
   * operation when the document parsed; otherwise the label is the `operationName` the caller sent
   * when it is a GraphQL name (else `anonymous`), of type `unknown`. Its name takes a metrics label
   * of its own only when `signedIn` (docs/hostile-input.md §8).
   */
  operationRefused(
    observation: RequestObservation | undefined,
    operation: OperationLabel | undefined,
    operationName: unknown,
    codes: readonly unknown[],
    started: number,
    signedIn: boolean,
  ): void {
    this.noteRefusal(observation, codes);
    const label = operation ?? {
      name: typeof operationName === 'string' && /^[_A-Za-z][_0-9A-Za-z]{0,99}$/.test(operationName) ? operationName : 'anonymous',
      type: 'unknown',
    };
    if (observation) observation.operation ??= label;
    this.metrics?.operation(label.name, label.type, 'refused', (performance.now() - started) / 1000, signedIn);
  }

  /**
   * A GraphQL operation that ran: its duration and outcome, and the refusal its errors' codes say
   * (`ROW_LIMIT`, `FORBIDDEN`). Its name takes a metrics label of its own only when `signedIn` (a
   * caller with a principal; docs/hostile-input.md §8).
   */
  operationFinished(
    observation: RequestObservation | undefined,
    operation: OperationLabel,
    codes: readonly unknown[],
    started: number,
    signedIn: boolean,
  ): void {
    this.noteRefusal(observation, codes);
    this.metrics?.operation(
      operation.name,
      operation.type,
      codes.length > 0 ? 'error' : 'ok',
      (performance.now() - started) / 1000,
      signedIn,
    );
  }

  /** Notes the first refusal among `codes`: on the request's observation, or (a WebSocket's operation) counted at once. */
  private noteRefusal(observation: RequestObservation | undefined, codes: readonly unknown[]): void {
    if (observation) {
      for (const code of codes) observation.refuse(code);
      return;
    }
    const reason = codes.map(refusalReason).find((candidate) => candidate !== undefined);
    if (reason !== undefined) this.metrics?.refused(reason);
  }

  /** Counts a refusal outside any HTTP request (a WebSocket's), by its answer's code; other codes count nothing. */
  refused(code: string): void {
    const reason = refusalReason(code);
    if (reason !== undefined) this.metrics?.refused(reason);
  }

  /**
   * Stops the metrics listener and sends the spans not yet exported. Never rejects: a collector that
   * cannot be reached loses those spans (logged at warn), it does not fail the shutdown.
   */
  async close(): Promise<void> {
    const server = this.metricsServer;
    this.metricsServer = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await this.tracing
      ?.shutdown()
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not send the last spans to the OpenTelemetry collector; they are lost'),
      );
  }
}
