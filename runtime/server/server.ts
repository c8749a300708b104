/**
 * Boots a generated application (docs/architecture.md §2): configuration, logging, the database (through its
 * dialect), the container of providers, the GraphQL engine, then the transports the application
 * declares — composed on one Express app and one socket acceptor — and listens. What is
 * application-specific comes in an {@link ApplicationDefinition} emitted by the generator
 * (`generated/app.ts`); what a transport is, and how one is added, is runtime/transports/index.ts.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IResolvers } from '@graphql-tools/utils';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import bytes from 'bytes';
import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AbilityCache, type AbilityFactory } from '../auth/ability.js';
import { TokenVerifier } from '../auth/authentication.js';
import { type AppConfig, loadConfig } from './config.js';
import type { RequestContext } from '../auth/context.js';
import type { DatabaseClient, DatabaseOptions } from '../data/database.js';
import { dialectFor, type StartedEventRelay } from '../dialects/index.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import { EventBus } from '../events/bus.js';
import type { GraphQLContext } from '../graphql/context.js';
import { createGraphQLEngine } from '../graphql/engine.js';
import type { FieldComplexity } from '../graphql/limits.js';
import { isLoadable, type LoaderScope, type ScopedReader } from '../graphql/loaders.js';
import { RequestLifecycle } from '../http/lifecycle.js';
import { listen } from '../http/listener.js';
import { mountLanding } from '../http/landing.js';
import { API_TITLE } from '../http/openapi.js';
import { behindClaimedPaths, directListener } from '../http/direct.js';
import { createExpressApp, mountFallbacks, securityHeaders } from '../http/pipeline.js';
import { ConnectionQuotas } from '../http/connection-quotas.js';
import { RateLimit } from '../http/rate-limit.js';
import { authenticateRequests } from '../http/request-state.js';
import type { VersioningOptions, VersionPolicy } from '../http/versioning.js';
import type { CanActivate, RuntimeGuards } from '../auth/guards.js';
import { listeningUrl } from './listening-url.js';
import { createLogger } from './logger.js';
import { tuneV8ForServing } from './v8-tuning.js';
import { METRICS_PATH } from '../observability/exposition.js';
import { Observability } from '../observability/index.js';
import { databaseHealth, type SqlRunner } from '../data/sql-runner.js';
import {
  buildTransports,
  type DirectRoute,
  type Entrypoint,
  type HealthContribution,
  type MountContext,
  mountTransports,
  registerSockets,
  type Transport,
  type TransportFactory,
} from '../transports/index.js';
import { SocketQuotas } from '../transports/socket-quotas.js';
import { SocketAcceptor } from '../transports/sockets.js';
import { assertOneRuntime } from '../instance.js';

/** Services the runtime hands to the generated container. */
export interface RuntimeServices {
  readonly logger: Logger;
  readonly eventBus: EventBus;
  /** Runs the repositories' own statements (loader batches, a create's insert) on the same database. */
  readonly sqlRunner: SqlRunner;
}

/** Everything application-specific, as emitted in `generated/app.ts`. */
export interface ApplicationDefinition<Database extends DatabaseClient, Container> {
  /** The committed SDL (`generated/schema.graphql`). */
  readonly schemaFile: URL;
  /** The persisted-document manifest (`generated/graphql/documents.json`), read when `APP_GRAPHQL__TRUSTED_DOCUMENTS` is on (docs/behaviour.md §4.10). */
  readonly documentsFile?: URL;
  /** Exposed entities: wire fields and relations. */
  readonly entities: readonly EntityDescriptor[];
  /** Wraps a driver adapter in the generated Prisma client of its provider (loaded on demand). */
  readonly createDatabase: (adapter: SqlDriverAdapterFactory, options?: DatabaseOptions) => Promise<Database>;
  /** Constructs every provider once, dependencies first. */
  readonly createContainer: (database: Database, services: RuntimeServices) => Container;
  readonly createResolvers: (container: Container, services: RuntimeServices) => IResolvers<unknown, GraphQLContext>;
  /** The container's `@Abilities()` provider. */
  readonly abilities: (container: Container) => AbilityFactory;
  /** Repositories by entity name (relation loaders read through them). */
  readonly repositories: (container: Container) => Readonly<Record<string, ScopedReader>>;
  /** The container's `LoaderScope`, or undefined when no reachable module provides one (docs/behaviour.md §5.10). */
  readonly loaderScope: (container: Container) => LoaderScope | undefined;
  /** Scores of relation fields and `@Complexity` overrides (docs/behaviour.md §8). */
  readonly fieldComplexity: Readonly<Record<string, FieldComplexity>>;
  /** Connection, edge and page-info types (transparent for scoring and depth). */
  readonly connectionTypes: readonly string[];
  /** Guard instances by name (runtime guards and the application's own). */
  readonly createGuards: (container: Container, runtime: RuntimeGuards) => Readonly<Record<string, CanActivate>>;
  /** The guard chain of every root field (docs/behaviour.md §5.2). */
  readonly operationGuards: Readonly<Record<string, readonly string[]>>;
  /** The chain of operations selecting no declared field. */
  readonly globalGuards: readonly string[];
  /** The lifecycle of API versions (deprecation, sunset), by version. */
  readonly versionPolicies: Readonly<Record<string, VersionPolicy>>;
  /** The entity each subscription topic carries (`postPublished` → `Post`). */
  readonly eventTopics: Readonly<Record<string, string>>;
  /** The setting overriding each scheduled task's schedule (`APP_CRON__WRITE_DIGESTS`; docs/behaviour.md §10.2). */
  readonly cronSettings: readonly string[];
  /**
   * The transports the application is reached through, in mount order within each placement
   * (runtime/transports/index.ts): `/health`, the API documents, GraphQL over HTTP, REST routes,
   * graphql-ws, and the gateways, MCP host, job processors, scheduled tasks and listeners it
   * declares, each built from its generated inputs.
   */
  readonly transports: readonly TransportFactory<Container>[];
}

/** A listening server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly logger: Logger;
  /** The addresses the transports contribute (docs/behaviour.md §4.8), as the landing answer at `/` lists them. */
  readonly entrypoints: readonly Entrypoint[];
  /** Where `/metrics` is served on a port of its own (docs/behaviour.md §12.2); undefined when it is not. */
  readonly metricsUrl: string | undefined;
  /** Stops accepting, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Environment to read `APP_*` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** A logger to use instead of creating one. */
  readonly logger?: Logger;
  /** Sees the text of every SQL statement (tests and benchmarks count them). */
  readonly onQuery?: (sql: string) => void;
  /**
   * Runs once everything is built, before the server listens; a rejection closes what was opened
   * and rejects the start. `npm run dev` stops the previous server here, so a server whose new
   * code does not boot never replaces one that runs (docs/decisions.md §10).
   */
  readonly beforeListen?: () => Promise<void>;
}

/** The context of work done on behalf of the server itself (reloading an event's row). */
const UNSCOPED: RequestContext = Object.freeze({ principal: undefined, ability: undefined, unscoped: true });

/** What a running server opened and closes at shutdown, in this order: transports, the event relay, the database and the SQL runner, observability. */
interface Closeables {
  transports: readonly Transport[];
  relay: StartedEventRelay | undefined;
  readonly database: DatabaseClient;
  readonly sqlRunner: SqlRunner;
  readonly observability: Observability;
}

/**
 * Starts the application; resolves once it listens. First turns V8's allocation-site pretenuring
 * off for the process (./v8-tuning.ts). Throws `ConfigError` on bad configuration (closing whatever
 * it had opened), the listen error, or — before anything is opened — when two copies of the
 * runtime are loaded (../instance.ts).
 */
export async function startServer<Database extends DatabaseClient, Container>(
  definition: ApplicationDefinition<Database, Container>,
  options: StartOptions = {},
): Promise<RunningServer> {
  assertOneRuntime();
  tuneV8ForServing();
  const { config, warnings } = loadConfig(options.env ?? process.env, { cronSettings: definition.cronSettings });
  const logger = options.logger ?? createLogger(config.log);
  for (const warning of warnings) logger.warn(warning);

  const url = config.database.url;
  const dialect = dialectFor(url);
  const observed: DatabaseOptions = options.onQuery ? { onQuery: options.onQuery } : {};
  // Request ids, access lines, metrics and traces (docs/behaviour.md §12): every statement is observed.
  const observability = await Observability.start(config, logger);
  const adapterFactory = observability.observeAdapterFactory(await dialect.createAdapterFactory(url), dialect.name);
  const database = await definition.createDatabase(adapterFactory, observed);
  // Creates are inserted by the SQL runner where the client writes (runtime/data/sql-insert.ts).
  const sqlRunner = observability.observeRunner(
    await dialect.createRunner(url, { ...observed, writesThrough: adapterFactory, pooled: config.database.directUrl !== url }),
    dialect.name,
  );
  const closeables: Closeables = { transports: [], relay: undefined, database, sqlRunner, observability };
  try {
    const eventBus = new EventBus({ maxQueued: config.graphql.subscriptionQueue });
    const services: RuntimeServices = { logger, eventBus, sqlRunner };
    const container = definition.createContainer(database, services);
    const abilities = new AbilityCache(definition.abilities(container));
    const verifier = new TokenVerifier(config.auth);
    const graphql = createGraphQLEngine(definition, { container, services, config, abilities, logger, observability });
    const versioning = versioningOf(config, definition.versionPolicies);
    // One count per client across every transport (docs/hostile-input.md §12).
    const rateLimit = RateLimit.of(config);
    const socketQuotas = new SocketQuotas({
      perAddress: config.http.maxSocketsPerAddress,
      perCaller: config.http.maxSocketsPerCaller,
      anonymousShare: config.http.anonymousShare,
      subscriptionsPerCaller: config.graphql.maxSubscriptionsPerCaller,
      bufferBytes: config.http.socketBufferBytes,
      addresses: { trustProxy: config.http.trustProxy, ipv6Prefix: config.http.ipv6Prefix },
    });
    // What HTTP connections may hold, counted in the chain and on the direct routes alike (docs/hostile-input.md §15).
    const connectionQuotas = new ConnectionQuotas({
      perAddress: config.http.maxConnectionsPerAddress,
      perCaller: config.http.maxConnectionsPerCaller,
      anonymousShare: config.http.anonymousShare,
      addresses: { trustProxy: config.http.trustProxy, ipv6Prefix: config.http.ipv6Prefix },
    });
    const transports = await buildTransports(definition.transports, {
      config,
      logger,
      versioning,
      container,
      verifier,
      abilities,
      graphql,
      events: eventBus,
      observability,
      rateLimit,
      socketQuotas,
    });
    closeables.transports = transports;
    // Events between processes, when the database carries them (PostgreSQL LISTEN/NOTIFY).
    const repositories = definition.repositories(container);
    closeables.relay = await dialect.createEventRelay?.({
      url: config.database.directUrl,
      bus: eventBus,
      topicEntities: definition.eventTopics,
      replayWindow: config.graphql.eventReplayWindow,
      load: async (entity, id) => {
        const repository = repositories[entity];
        return isLoadable(repository) ? ((await repository.loadByIds(UNSCOPED, [id]))[0] ?? null) : null;
      },
      logger,
    });

    const lifecycle = new RequestLifecycle();
    const health: HealthContribution[] = [
      { name: 'db', check: () => databaseHealth(sqlRunner) },
      ...transports.flatMap((transport) => transport.health ?? []),
    ];
    const entrypoints = transports.flatMap((transport) => transport.entrypoints ?? []);
    const front: FrontChain = {
      observe: observability.front(),
      lifecycle: lifecycle.middleware(),
      metrics: observability.metricsRoute(),
      authenticate: authenticateRequests(verifier, abilities),
    };
    const app = composeApp(config, logger, transports, front, { health, draining: () => lifecycle.draining }, entrypoints, {
      rateLimit,
      connections: connectionQuotas,
    });
    // Hot routes are answered before the chain, with its front only — unless CORS or the rate
    // limit is configured, which only the chain applies (runtime/http/direct.ts).
    const direct =
      config.http.corsOrigins.length === 0 && config.http.rateLimit <= 0
        ? directRoutes(transports, front.metrics === undefined ? [] : [METRICS_PATH])
        : [];
    const listener = directListener(
      direct,
      { observe: front.observe, lifecycle, securityHeaders: securityHeaders(), verifier, abilities, logger, connections: connectionQuotas },
      app,
    );
    // Every WebSocket goes through one acceptor, which guards the socket and answers framing faults.
    const sockets = new SocketAcceptor({
      logger,
      maxPayload: bytes.parse(config.http.bodyLimit) ?? 100 * 1024,
      observability,
      quotas: socketQuotas,
      rateLimit,
    });
    registerSockets(sockets, transports);
    await options.beforeListen?.();
    const metricsUrl = await observability.listen();
    const server = await listen(listener, config, sockets, observability);
    const port = (server.address() as AddressInfo).port;
    const address = listeningUrl(config.http.host, port);
    // One line saying where everything is; the routes and paths each transport mounted are at debug.
    logger.info(
      {
        url: address,
        database: dialect.name,
        entrypoints: Object.fromEntries(entrypoints.map((entrypoint) => [entrypoint.name, entrypoint.path])),
        ...(metricsUrl === undefined ? {} : { metrics: metricsUrl }),
      },
      `listening on ${address}`,
    );
    return {
      url: address,
      port,
      logger,
      entrypoints,
      metricsUrl,
      close: () => shutdown({ server, lifecycle, sockets, closeables, config, logger }),
    };
  } catch (error) {
    await release(closeables, logger);
    throw error;
  }
}

/** The front of the Express chain (see {@link composeApp}). */
interface FrontChain {
  /** The request's id and observation (docs/behaviour.md §12.1). */
  readonly observe: RequestHandler;
  /** The in-flight count (runtime/http/lifecycle.ts). */
  readonly lifecycle: RequestHandler;
  /** `GET /metrics` behind `APP_METRICS__TOKEN`, when served on the main port (docs/behaviour.md §12.2). */
  readonly metrics: RequestHandler | undefined;
  /** The bearer token's verification (runtime/http/request-state.ts). */
  readonly authenticate: RequestHandler;
}

/** What the Express chain meters after its unmetered transports (see {@link composeApp}). */
interface Metering {
  /** The rate limit, when configured (docs/hostile-input.md §12). */
  readonly rateLimit: RateLimit | undefined;
  /** The places of HTTP connections (docs/hostile-input.md §15). */
  readonly connections: ConnectionQuotas;
}

/**
 * The Express chain, in this order: the request's id and observation, helmet and CORS, the
 * in-flight count, `/metrics` when served on the main port (before authentication: its token is
 * not a caller's), authentication, unmetered transports (`/health`), the connection places and the
 * rate limit (`metering`), neutral transports (API documents, GraphQL), versioned ones (REST), the
 * landing answer at `/` listing `entrypoints` (docs/behaviour.md §4.8), then 404 and the error handler.
 */
function composeApp(
  config: AppConfig,
  logger: Logger,
  transports: readonly Transport[],
  front: FrontChain,
  mounted: MountContext,
  entrypoints: readonly Entrypoint[],
  metering: Metering,
): Express {
  const app = createExpressApp(
    config,
    front.observe,
    transports.flatMap((transport) => transport.http?.exposedHeaders ?? []),
  );
  app.use(front.lifecycle);
  if (front.metrics) app.get(METRICS_PATH, front.metrics);
  app.use(front.authenticate);
  mountTransports(app, transports, 'unmetered', mounted, logger);
  app.use(metering.connections.middleware());
  if (metering.rateLimit) app.use(metering.rateLimit.middleware);
  mountTransports(app, transports, 'neutral', mounted, logger);
  mountTransports(app, transports, 'versioned', mounted, logger);
  mountLanding(app, API_TITLE, entrypoints);
  mountFallbacks(app, config, logger);
  return app;
}

/**
 * The transports' direct routes (runtime/http/direct.ts) in the chain's order: self-mounted
 * transports' first, then the versioned transports' behind every path the others mount and
 * `claimed` (`/metrics` on the main port), as the chain puts them.
 */
function directRoutes(transports: readonly Transport[], claimed: readonly string[]): DirectRoute[] {
  const selfMounted = transports.filter((transport) => transport.http !== undefined && transport.http.placement !== 'versioned');
  const versioned = transports.filter((transport) => transport.http?.placement === 'versioned');
  const paths = [...claimed, ...selfMounted.flatMap((transport) => transport.http?.paths ?? [])];
  return [
    ...selfMounted.flatMap((transport) => transport.http?.direct ?? []),
    ...versioned.flatMap((transport) => (transport.http?.direct ?? []).map((route) => behindClaimedPaths(route, paths))),
  ];
}

/** Versioning settings from the configuration and the application's version policies (docs/behaviour.md §9). */
function versioningOf(config: AppConfig, policies: Readonly<Record<string, VersionPolicy>>): VersioningOptions {
  return {
    strategy: config.http.versioning,
    header: config.http.versionHeader,
    prefix: config.http.prefix,
    defaultVersion: config.http.defaultVersion,
    policies,
  };
}

/**
 * Closes `closeables` in order — transports (closed, then released), the event relay, the
 * database, then the metrics listener and the trace exporter — logging a transport's failure.
 */
async function release(closeables: Closeables, logger: Logger): Promise<void> {
  await closeTransports(closeables.transports, logger);
  await releaseTransports(closeables.transports, logger);
  await closeables.relay?.close();
  await Promise.all([closeables.database.$disconnect(), closeables.sqlRunner.close()]);
  await closeables.observability.close();
}

/** Closes every transport at once; a failure is logged, never thrown (the database must still close). */
async function closeTransports(transports: readonly Transport[], logger: Logger): Promise<void> {
  const results = await Promise.allSettled(transports.map(async (transport) => transport.close?.()));
  results.forEach((result, index) => {
    if (result.status === 'rejected')
      logger.error({ err: result.reason, transport: transports[index]?.name }, 'a transport failed to close');
  });
}

/** Releases every transport at once, once requests have drained; a failure is logged, never thrown. */
async function releaseTransports(transports: readonly Transport[], logger: Logger): Promise<void> {
  const results = await Promise.allSettled(transports.map(async (transport) => transport.release?.()));
  results.forEach((result, index) => {
    if (result.status === 'rejected')
      logger.error({ err: result.reason, transport: transports[index]?.name }, 'a transport failed to release');
  });
}

/**
 * Graceful shutdown (docs/decisions.md §4; docs/guide/deployment.md "Shutdown"): first, with
 * `APP_HTTP__DRAIN_DELAY`, answers `/health` with 503 for that long while serving everything else
 * (docs/behaviour.md §4.9), then stops accepting connections, closes idle
 * keep-alive ones, closes every WebSocket with 1001 and lets the transports finish their work,
 * while in-flight requests get `APP_HTTP__SHUTDOWN_TIMEOUT` ms to finish (then their connections
 * are closed); then the transports release what requests could still use (the job queues), the
 * event relay and the database close, and last the metrics listener and the trace exporter
 * (which sends the spans not yet sent).
 */
async function shutdown(parts: {
  server: Server;
  lifecycle: RequestLifecycle;
  sockets: SocketAcceptor;
  closeables: Closeables;
  config: AppConfig;
  logger: Logger;
}): Promise<void> {
  const { server, lifecycle, sockets, closeables, config, logger } = parts;
  if (config.http.drainDelay > 0) {
    // The balancer's health check sees 503 and stops sending new requests; until then they are served.
    lifecycle.drain();
    logger.info(
      { drainDelay: config.http.drainDelay },
      `draining: /health answers 503 for ${config.http.drainDelay} ms before the listener closes`,
    );
    await new Promise((resolve) => setTimeout(resolve, config.http.drainDelay));
  }
  const drained = lifecycle.stop();
  const listening = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const socketsClosed = sockets.close(1001, config.http.shutdownTimeout);
  const transportsClosed = closeTransports(closeables.transports, logger);
  const timedOut = await Promise.race([
    drained.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), config.http.shutdownTimeout).unref()),
  ]);
  if (timedOut)
    logger.warn(
      { inFlight: lifecycle.inFlight },
      `shutdown timeout (${config.http.shutdownTimeout} ms) reached with requests in flight; closing their connections`,
    );
  server.closeAllConnections();
  await socketsClosed;
  await listening;
  await transportsClosed;
  // Requests have finished: what they could still use (the queues they enqueue on) can go.
  await releaseTransports(closeables.transports, logger);
  await closeables.relay?.close();
  await Promise.all([closeables.database.$disconnect(), closeables.sqlRunner.close()]);
  // Last, so the spans of everything that drained are exported.
  await closeables.observability.close();
  logger.info('stopped');
}
