/**
 * Boots a generated application: configuration, logging, database, the container of providers,
 * the executable GraphQL schema and the Express app (authentication, GraphQL, REST routes,
 * health), then listens. What is application-specific comes in an {@link ApplicationDefinition}
 * emitted by the generator (`generated/app.ts`).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { IResolvers } from '@graphql-tools/utils';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import bytes from 'bytes';
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { printSdl } from './graphql/sdl.js';
import type { Logger } from 'pino';
import { AbilityCache, type AbilityFactory } from './ability.js';
import { type Authentication, TokenVerifier } from './auth.js';
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import { type RequestContext, runInContext } from './context.js';
import type { PostgresEventTransport } from './events-postgres.js';
import { createSqlReader, isReachable, type SqlReader } from './sql-reader.js';
import { createAdapterFactory, type DatabaseClient, type DatabaseOptions, providerOf } from './database.js';
import type { EntityDescriptor } from './entity-metadata.js';
import { EventBus } from './events.js';
import type { GraphQLContext } from './graphql/context.js';
import { createGraphQLHandler } from './graphql/http.js';
import { type FieldComplexity, QueryLimits } from './graphql/limits.js';
import { type LoadableRepository, type LoaderRegistry, type LoaderScope, RequestLoaders } from './graphql/loaders.js';
import { buildExecutableSchema } from './graphql/schema.js';
import { problem, sendError, sendProblem, writeRawProblem } from './http/problem.js';
import { NEXT_CURSOR_HEADER, type RouteDefinition, sendReply } from './http/routes.js';
import { type VersioningOptions, type VersionPolicy, VersionRouter, versionedRoutes } from './http/versioning.js';
import { type GatewayDefinition, registerGateways } from './gateways.js';
import { HealthCheck } from './health.js';
import { createLogger } from './logger.js';
import { mountApiDocs } from './http/docs.js';
import { AuthenticationGuard, type CanActivate, GraphQLAuthorizationGuard, type RuntimeGuards } from './guards.js';
import { OperationPreparer } from './graphql/prepare.js';
import { SubscriptionServer } from './graphql/ws.js';
import { SocketAcceptor } from './transports/sockets.js';
import { mountPlayground } from './graphql/playground.js';
import type { ApiCatalog } from './openapi.js';

/** Services the runtime hands to the generated container. */
export interface RuntimeServices {
  readonly logger: Logger;
  readonly eventBus: EventBus;
  /** Runs the repositories' loader batches on the same database. */
  readonly reader: SqlReader;
}

/** Everything application-specific, as emitted in `generated/app.ts`. */
export interface ApplicationDefinition<Database extends DatabaseClient, Container> {
  /** The committed SDL (`generated/schema.graphql`). */
  readonly schemaFile: URL;
  /** Exposed entities: wire fields and relations. */
  readonly entities: readonly EntityDescriptor[];
  /** Wraps a driver adapter in the generated Prisma client of its provider (loaded on demand). */
  readonly createDatabase: (adapter: SqlDriverAdapterFactory, options?: DatabaseOptions) => Promise<Database>;
  /** Constructs every provider once, dependencies first. */
  readonly createContainer: (database: Database, services: RuntimeServices) => Container;
  readonly createResolvers: (container: Container, services: RuntimeServices) => IResolvers<unknown, GraphQLContext>;
  readonly createRoutes: (container: Container) => readonly RouteDefinition[];
  /** WebSocket gateways at their versioned socket paths. */
  readonly createGateways: (container: Container) => readonly GatewayDefinition[];
  /** The container's `@Abilities()` provider. */
  readonly abilities: (container: Container) => AbilityFactory;
  /** Repositories by entity name (relation loaders read through them). */
  readonly repositories: (container: Container) => Readonly<Record<string, LoadableRepository>>;
  /** The container's `LoaderScope`, or undefined when no reachable module provides one (spec §5.10). */
  readonly loaderScope: (container: Container) => LoaderScope | undefined;
  /** Scores of relation fields and `@Complexity` overrides (spec §8). */
  readonly fieldComplexity: Readonly<Record<string, FieldComplexity>>;
  /** Connection, edge and page-info types (transparent for scoring and depth). */
  readonly connectionTypes: readonly string[];
  /** Guard instances by name (runtime guards and the application's own). */
  readonly createGuards: (container: Container, runtime: RuntimeGuards) => Readonly<Record<string, CanActivate>>;
  /** The guard chain of every root field (spec §5.2). */
  readonly operationGuards: Readonly<Record<string, readonly string[]>>;
  /** The chain of operations selecting no declared field. */
  readonly globalGuards: readonly string[];
  /** Every REST route, version-neutral, for the OpenAPI documents (spec §4.4). */
  readonly apiCatalog: ApiCatalog;
  /** The lifecycle of API versions (deprecation, sunset), by version. */
  readonly versionPolicies: Readonly<Record<string, VersionPolicy>>;
  /** The entity each subscription topic carries (`postPublished` → `Post`). */
  readonly eventTopics: Readonly<Record<string, string>>;
}

/** A listening server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly logger: Logger;
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
}

/** The context of work done on behalf of the server itself (reloading an event's row). */
const UNSCOPED: RequestContext = Object.freeze({ principal: undefined, ability: undefined, unscoped: true });


/** Per-request state the authentication step leaves for later steps. */
interface RequestState {
  readonly request: RequestContext;
  readonly authentication: Authentication;
}

function stateOf(response: Response): RequestState {
  return response.locals as unknown as RequestState;
}

/** Starts the application; resolves once it listens. Throws `ConfigError` on bad configuration. */
export async function startServer<Database extends DatabaseClient, Container>(
  definition: ApplicationDefinition<Database, Container>,
  options: StartOptions = {},
): Promise<RunningServer> {
  const { config, warnings } = loadConfig(options.env ?? process.env);
  const logger = options.logger ?? createLogger(config.log);
  for (const warning of warnings) logger.warn(warning);

  const versioning: VersioningOptions = {
    strategy: config.http.versioning,
    header: config.http.versionHeader,
    prefix: config.http.prefix,
    defaultVersion: config.http.defaultVersion,
    policies: definition.versionPolicies,
  };

  const provider = providerOf(config.database.url);
  const database = await definition.createDatabase(await createAdapterFactory(config.database.url), options.onQuery ? { onQuery: options.onQuery } : {});
  const eventBus = new EventBus({ maxQueued: config.graphql.subscriptionQueue });
  const reader = await createSqlReader(config.database.url, options.onQuery ? { onQuery: options.onQuery } : {});
  const services: RuntimeServices = { logger, eventBus, reader };
  const container = definition.createContainer(database, services);
  const abilities = new AbilityCache(definition.abilities(container));
  const router = new VersionRouter(definition.createRoutes(container), versioning);
  if (versioning.defaultVersion !== undefined && !router.versions().includes(versioning.defaultVersion)) {
    await Promise.all([database.$disconnect(), reader.close()]);
    throw new ConfigError([{ variable: 'APP_HTTP__DEFAULT_VERSION', message: `names version ${versioning.defaultVersion}, which no controller declares; the declared versions are ${router.versions().join(', ') || 'none'}` }]);
  }
  const verifier = new TokenVerifier(config.auth);

  let transport: PostgresEventTransport | undefined;
  if (provider === 'postgresql') {
    const repositories = definition.repositories(container);
    const { PostgresEventTransport } = await import('./events-postgres.js');
    transport = new PostgresEventTransport({
      url: config.database.url,
      bus: eventBus,
      topicEntities: definition.eventTopics,
      load: async (entity, id) => (await repositories[entity]?.loadByIds(UNSCOPED, [id]))?.[0] ?? null,
      logger,
    });
    await transport.start();
  }
  const loaderScope = definition.loaderScope(container);
  const registry: LoaderRegistry = {
    repositories: new Map(Object.entries(definition.repositories(container))),
    entities: new Map(definition.entities.map((entity) => [entity.name, entity])),
    logger,
  };
  const loaderCount = definition.entities.reduce((count, entity) => count + entity.relations.length, 0);
  if (!loaderScope && loaderCount > 0) {
    logger.warn({ loaders: loaderCount }, `${loaderCount} loaders were seeded with no batch context: list LoaderScope in a module reachable from AppModule, or every relation field fails with "database error"`);
  }
  const limits = new QueryLimits({
    maxComplexity: config.graphql.maxComplexity,
    maxDepth: config.graphql.maxDepth,
    fieldComplexity: definition.fieldComplexity,
    connectionTypes: new Set(definition.connectionTypes),
  });

  const sdl = readFileSync(definition.schemaFile, 'utf8');
  const schema = buildExecutableSchema(sdl, definition.createResolvers(container, services), definition.entities);
  if (config.graphql.emitSdl) {
    // Beside the entry point; written to a temporary name and renamed, so a reader never sees half.
    const target = fileURLToPath(new URL('./schema.graphql', definition.schemaFile));
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, printSdl(schema));
    renameSync(temporary, target);
    logger.info({ file: target }, `wrote the GraphQL schema to ${target} (APP_GRAPHQL__EMIT_SDL)`);
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Behind a load balancer the client's address is in X-Forwarded-For (rate limits key on it).
  app.set('trust proxy', config.http.trustProxy);

  // Security headers (helmet's defaults: a same-origin content security policy the docs UI and
  // the playground satisfy, nosniff, frame denial, no referrer leaks, HSTS behind TLS).
  app.use(helmet());
  // Cross-origin callers: only the configured origins (none by default: same origin only).
  if (config.http.corsOrigins.length > 0) {
    const origins = config.http.corsOrigins;
    app.use(cors({ origin: origins.includes('*') ? '*' : origins, exposedHeaders: [NEXT_CURSOR_HEADER, 'Deprecation', 'Sunset', 'RateLimit', 'RateLimit-Policy', 'Retry-After'], maxAge: 600 }));
  }

  // In-flight requests, so a shutdown can wait for them (and tell keep-alive clients to go). A
  // request counts until its handler has answered: when the client hangs up first ('close' before
  // 'finish'), the handler is still reading the database, so it counts until it calls end().
  const lifecycle = { inFlight: 0, stopping: false, drained: (): void => undefined };
  app.use((_request: Request, response: Response, next: NextFunction) => {
    lifecycle.inFlight++;
    let done = false;
    let answered = false;
    let gone = false;
    const settle = (): void => {
      if (done || !(answered && gone)) return;
      done = true;
      lifecycle.inFlight--;
      if (lifecycle.inFlight === 0) lifecycle.drained();
    };
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.end = ((...args: unknown[]) => {
      answered = true;
      const result = end(...args);
      queueMicrotask(settle);
      return result;
    }) as Response['end'];
    response.once('close', () => {
      gone = true;
      settle();
    });
    if (lifecycle.stopping) response.setHeader('Connection', 'close');
    next();
  });

  // Authentication (spec §5.1): verify the bearer token once, seed principal and ability as the
  // ambient context of everything that follows.
  app.use((request: Request, response: Response, next: NextFunction) => {
    verifier.authenticate(request.headers.authorization).then((authentication) => {
      const principal = authentication.kind === 'authenticated' ? authentication.principal : undefined;
      const context: RequestContext = { principal, ability: principal ? abilities.for(principal) : undefined, unscoped: false, transport: 'http' };
      response.locals.request = context;
      response.locals.authentication = authentication;
      runInContext(context, next);
    }, next);
  });

  const health = new HealthCheck(() => isReachable(reader));
  app.get('/health', async (_request, response) => {
    const reachable = await health.reachable();
    response.status(reachable ? 200 : 503).json({ status: reachable ? 'ok' : 'unavailable', db: reachable ? 'ok' : 'down' });
  });

  // Rate limiting (off unless APP_HTTP__RATE_LIMIT is set): per client address, health exempt.
  if (config.http.rateLimit > 0) {
    app.use(
      rateLimit({
        windowMs: config.http.rateLimitWindow,
        limit: config.http.rateLimit,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        handler: (_request, response) => {
          sendProblem(response, problem(429, 'TOO_MANY_REQUESTS', `more than ${config.http.rateLimit} requests in ${config.http.rateLimitWindow / 1000} s from this address; retry after the Retry-After delay`));
        },
      }),
    );
  }

  mountApiDocs(app, definition.apiCatalog, { ...versioning, rateLimited: config.http.rateLimit > 0 });
  const runtimeGuards: RuntimeGuards = { authentication: new AuthenticationGuard(), graphqlAuthorization: new GraphQLAuthorizationGuard(abilities) };
  const preparer = new OperationPreparer(
    schema,
    limits,
    { operations: definition.operationGuards, global: definition.globalGuards, guards: definition.createGuards(container, runtimeGuards) },
    (request, authentication) => ({ request, authentication, loaders: new RequestLoaders(loaderScope?.capture(request), registry) }),
    logger,
    {
      documents: {
        maxTokens: config.graphql.maxTokens,
        maxNesting: config.graphql.maxNesting,
        maxOperations: config.graphql.maxOperations,
        maxDirectives: config.graphql.maxDirectives,
        maxAliases: config.graphql.maxAliases,
        maxFields: config.graphql.maxFields,
      },
      maxRows: config.graphql.maxRows,
    },
  );
  mountGraphQL(app, config, schema, logger, preparer);
  mountRoutes(app, config, router, versioning, logger);

  app.use((request: Request, response: Response) => {
    sendProblem(response, problem(404, 'NOT_FOUND', `no route answers ${request.method} ${request.path}`));
  });
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown; type?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const detail = status === 413 ? `the request body exceeds ${config.http.bodyLimit}` : 'the request body is not valid JSON';
      sendProblem(response, problem(status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_USER_INPUT', detail));
      return;
    }
    sendError(response, error, logger);
  });

  // A request (headers and body) must arrive within APP_HTTP__REQUEST_TIMEOUT, or Node answers 408
  // and closes the connection (slow-loris clients cannot hold sockets); checked 4 times per period.
  const server = createServer(
    {
      requestTimeout: config.http.requestTimeout,
      headersTimeout: Math.min(config.http.requestTimeout, 60_000),
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(config.http.requestTimeout / 4))),
    },
    app,
  );
  const maxPayload = bytes.parse(config.http.bodyLimit) ?? 100 * 1024;
  // Every WebSocket goes through one acceptor, which guards the socket and answers framing faults.
  const sockets = new SocketAcceptor({ logger, maxPayload });
  sockets.register(new SubscriptionServer({ schema, preparer, verifier, logger, connectionInitWaitTimeout: config.graphql.connectionInitTimeout, maxSubscriptions: config.graphql.maxSubscriptions }).transport(config.graphql.path));
  registerGateways(sockets, definition.createGateways(container), { verifier, abilities, logger });
  server.on('clientError', answerClientError);
  server.on('upgrade', (request, socket, head) => sockets.accept(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.http.host === '0.0.0.0' ? '127.0.0.1' : config.http.host;
  const url = `http://${host}:${port}`;
  logger.info({ url, database: provider }, `listening on ${url}`);

  return {
    url,
    port,
    logger,
    close: async () => {
      lifecycle.stopping = true;
      const drained = new Promise<void>((resolve) => {
        lifecycle.drained = resolve;
        if (lifecycle.inFlight === 0) resolve();
      });
      const listening = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const socketsClosed = sockets.close(1001, config.http.shutdownTimeout);
      const timedOut = await Promise.race([drained.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), config.http.shutdownTimeout).unref())]);
      if (timedOut) logger.warn({ inFlight: lifecycle.inFlight }, `shutdown timeout (${config.http.shutdownTimeout} ms) reached with requests in flight; closing their connections`);
      server.closeAllConnections();
      await socketsClosed;
      await listening;
      await transport?.close();
      await Promise.all([database.$disconnect(), reader.close()]);
      logger.info('stopped');
    },
  };
}

/**
 * Answers a request Node's HTTP parser refused before any route saw it, as a problem document
 * instead of a bare status line: 408 when it did not arrive within APP_HTTP__REQUEST_TIMEOUT,
 * 431 when its headers (the URL included) pass Node's 16 KiB limit, 400 otherwise. The connection
 * is closed after the answer.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in full within the request timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'the request line and headers exceed 16 KiB; send long values in a body']
        : [400, 'BAD_REQUEST', 'the request is not valid HTTP/1.1'];
  writeRawProblem(socket, problem(status, code, detail));
}

function mountGraphQL(app: express.Express, config: AppConfig, schema: ReturnType<typeof buildExecutableSchema>, logger: Logger, preparer: OperationPreparer): void {
  const path = config.graphql.path;
  // GraphQL over HTTP takes JSON and answers JSON; say so in a problem document (graphql-http
  // would answer 415/406 with no body at all).
  app.post(path, (request, response, next) => {
    if (!request.is('application/json')) {
      sendProblem(response, problem(415, 'UNSUPPORTED_MEDIA_TYPE', `send the GraphQL request as application/json (got ${request.get('content-type') ?? 'no content type'})`));
    } else if (!request.accepts(['application/graphql-response+json', 'application/json'])) {
      sendProblem(response, problem(406, 'NOT_ACCEPTABLE', 'GraphQL answers application/graphql-response+json or application/json; accept one of them'));
    } else next();
  });
  // The body is read here, within APP_HTTP__BODY_LIMIT (413 past it), as text: graphql-http parses it.
  app.post(path, express.text({ type: () => true, limit: config.http.bodyLimit }), (request, _response, next) => {
    // An empty body leaves nothing for graphql-http to read (the stream is spent): hand it an empty
    // request, which it answers 400 "Missing query".
    if (typeof request.body !== 'string' || request.body === '') request.body = {};
    next();
  });
  app.post(path, createGraphQLHandler({ schema, logger, preparer, authenticationOf: (request) => stateOf(request.res as Response).authentication }));
  if (config.graphql.playground) mountPlayground(app, path);
  app.all(path, (_request, response) => {
    sendProblem(response, problem(405, 'METHOD_NOT_ALLOWED', `${path} answers POST; the playground is off (APP_GRAPHQL__PLAYGROUND=true serves it on GET)`), { Allow: 'POST' });
  });
}

function mountRoutes(app: express.Express, config: AppConfig, router: VersionRouter, versioning: VersioningOptions, logger: Logger): void {
  const json = express.json({ limit: config.http.bodyLimit });
  const parseBody = (request: Request, response: Response): Promise<void> =>
    new Promise((resolve, reject) => json(request, response, (error?: unknown) => (error ? reject(error) : resolve())));
  app.use(
    versionedRoutes(router, versioning, {
      run: async (route, request, response, params) => {
        const state = stateOf(response);
        try {
          if (route.takesBody) await parseBody(request, response);
          const value = await route.handle({ params, query: request.query as Record<string, unknown>, body: request.body, request: state.request, authentication: state.authentication });
          sendReply(request, response, route, value);
        } catch (error) {
          const status = (error as { status?: unknown }).status;
          if (typeof status === 'number' && status >= 400 && status < 500) throw error;
          sendError(response, error, logger);
        }
      },
      refuse: (response, status, code, detail, extensions, headers) => sendProblem(response, problem(status, code, detail, extensions), headers),
    }),
  );
  for (const mounted of router.mounted()) {
    const versionField = versioning.strategy !== 'uri' && mounted.version !== undefined ? { version: mounted.version } : {};
    logger.info(
      { controller: mounted.route.controller, method: mounted.method, address: mounted.address, handler: `${mounted.route.controller}.${mounted.route.handler}`, ...versionField },
      `mounted ${mounted.method} ${mounted.address}${mounted.version !== undefined && versioning.strategy !== 'uri' ? ` (version ${mounted.version})` : ''}`,
    );
  }
}

