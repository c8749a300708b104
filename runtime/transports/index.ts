/**
 * The transport seam (docs/architecture.md §2; modelled on NestJS's platform adapters and
 * microservice transports): every way a caller reaches the application — REST routes, GraphQL over HTTP,
 * graphql-ws, WebSocket gateways, the API documents, `/health` — is one {@link Transport}, and
 * `startServer` (runtime/server/server.ts) composes a list of them. The server owns what every transport
 * shares: configuration, the Express app and its front middleware (helmet, CORS, the in-flight
 * count, authentication, the rate limit, 404 and the error handler), the one
 * {@link SocketAcceptor} (runtime/transports/sockets.ts) that takes every WebSocket, and the
 * shutdown order. A transport only says what it adds.
 *
 * ## Adding a transport
 *
 * A new transport (an MCP host, job processors, schedules, listeners) is one folder here and one
 * under the generator's targets (`generator/emit/<target>/`, emitting what the transport reads and
 * its entry in `generated/app.ts`'s `transports`). The folder's `index.ts` exports a factory — a
 * function of the transport's generated inputs returning a {@link TransportFactory} — and the
 * factory builds, from the {@link TransportContext} the server hands it (configuration, logger,
 * container, token verifier, abilities, the GraphQL engine, the event bus), a {@link Transport} with:
 *
 * 1. `name` — what logs call it (`rest`, `graphql-ws`, `mcp`).
 * 2. `http` (optional) — its Express handlers: `mount(app, mounted)` adds them, `placement` says
 *    where in the chain they go (`unmetered` before the rate limit: `/health` only; `neutral`:
 *    self-mounted paths; `versioned`: selected by API version, after every neutral transport), and
 *    `paths` lists the paths it mounts itself — every one: mounting elsewhere, or without a path,
 *    fails at boot, since REST requests answered before the chain step aside only for these
 *    (runtime/http/direct.ts). Those are neutral to version selection (spec
 *    §9.3.3: `/graphql`, `/mcp`, `/api-json`, `/health` are served as written, whatever version a
 *    caller states), which the order guarantees: a neutral transport answers before the REST
 *    router decides anything. Parse bodies inside your own routes, never app-wide. Its
 *    `exposedHeaders` are the response headers of its own a browser on another origin may read
 *    (CORS, when `APP_HTTP__CORS_ORIGINS` is set): the server exposes those of every transport
 *    beside the ones any answer may carry (runtime/http/pipeline.ts).
 * 3. `sockets` (optional) — the {@link SocketTransport}s it serves WebSockets through, one per
 *    path set. The server registers them with its {@link SocketAcceptor}, which does the handshake,
 *    size limit, framing faults, keep-alive and the 1001 close at shutdown; never call
 *    `handleUpgrade` or listen for `upgrade` yourself (docs/hostile-input.md §1).
 * 4. `health` (optional) — {@link HealthContribution}s: each is one field of `GET /health`'s body
 *    (`"db": "ok"` is the database's); any one down answers 503.
 * 5. `close` (optional) — called when shutdown begins, beside the HTTP drain and the socket
 *    close; stop taking work and resolve once what was running has finished. The event relay
 *    and the database close after every transport has (in-flight work may still need them).
 * 6. `release` (optional) — called once in-flight requests have finished (or the shutdown timeout
 *    passed) and every `close` has resolved, before the database closes: release what a request
 *    may still use while it drains. The jobs transport stops fetching jobs in `close` but keeps its
 *    queues open for the requests still running, and closes them here.
 * 7. `entrypoints` (optional) — the {@link Entrypoint}s a newcomer starts from (the documents,
 *    the GraphQL endpoint, `/health`, the MCP host): the server lists them in the landing answer at
 *    `/` (docs/behaviour.md §4.8), in its `listening on` line and in what `npm run dev` prints.
 *
 * Its settings, when it has any, are its own too: a `settings.ts` in its folder declares its
 * section (`settingsSection('mcp', z.object({…}))`, runtime/server/settings.ts: `APP_MCP__*`), and
 * ./settings.ts collects it into the configuration every transport reads (`context.config.mcp`).
 * A factory may throw `ConfigError` for a setting it cannot serve (the REST transport does for an
 * `APP_HTTP__DEFAULT_VERSION` no controller declares); the server then closes what it opened.
 * Work that runs for a request sets `RequestContext.transport` to its name, so `runUnscoped` can
 * refuse inside it (docs/behaviour.md §5.9). Work that runs for no caller (jobs, scheduled tasks,
 * listeners: runtime/transports/jobs/, schedules/, listeners/) starts outside any request context
 * (`withoutCaller`) and lifts the scope explicitly with `runUnscoped`. A transport that needs the
 * database for more than the repositories asks its dialect (`dialectFor(config.database.url)`),
 * never tests which database it is. Tests: a behaviour suite over loopback whose first line,
 * `// Runs on: sqlite, postgresql`, runs it on both databases.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AbilityCache } from '../auth/ability.js';
import type { TokenVerifier } from '../auth/authentication.js';
import type { AppConfig } from '../server/config.js';
import type { EventBus } from '../events/bus.js';
import type { GraphQLEngine } from '../graphql/engine.js';
import type { RateLimit } from '../http/rate-limit.js';
import type { SocketQuotas } from './socket-quotas.js';
import type { RequestState } from '../http/request-state.js';
import type { VersioningOptions } from '../http/versioning.js';
import type { Observability } from '../observability/index.js';
import type { SocketAcceptor, SocketTransport } from './sockets.js';

/** What the server built before its transports, handed to every {@link TransportFactory}. */
export interface TransportContext<Container> {
  /** The validated `APP_*` configuration. */
  readonly config: AppConfig;
  readonly logger: Logger;
  /** Strategy, header, prefix, default version and version policies in force (docs/behaviour.md §9). */
  readonly versioning: VersioningOptions;
  /** The generated container: every provider, constructed once. */
  readonly container: Container;
  /** Verifies bearer tokens (docs/behaviour.md §5.1). */
  readonly verifier: TokenVerifier;
  /** The ability of each principal, cached per principal. */
  readonly abilities: AbilityCache;
  /** The executable schema and the operation preparer every GraphQL transport shares. */
  readonly graphql: GraphQLEngine;
  /** The process's event bus (in-process listeners observe what it publishes; docs/behaviour.md §10.3). */
  readonly events: EventBus;
  /** Metrics and traces, when configured (docs/behaviour.md §12): a transport records its own (operations, sockets, jobs). */
  readonly observability: Observability;
  /**
   * The rate limit shared by every transport (docs/hostile-input.md §12), when configured: a socket
   * or MCP transport counts each operation it runs beyond the HTTP request the middleware counted.
   */
  readonly rateLimit?: RateLimit | undefined;
  /** What WebSocket clients may hold, shared by every socket transport and the acceptor (docs/hostile-input.md §16). */
  readonly socketQuotas: SocketQuotas;
}

/**
 * Builds one transport from the server's context; may be async (a transport that connects to
 * something first). Throws `ConfigError` for configuration it cannot serve. `transportName` is the
 * name its {@link Transport} will have, known before it is built (a test replaces a transport of
 * an application by it).
 */
export interface TransportFactory<Container> {
  readonly transportName: string;
  (context: TransportContext<Container>): Transport | Promise<Transport>;
}

/** A {@link TransportFactory} named `name` that builds with `build`. */
export function defineTransport<Container>(
  name: string,
  build: (context: TransportContext<Container>) => Transport | Promise<Transport>,
): TransportFactory<Container> {
  return Object.assign((context: TransportContext<Container>) => build(context), { transportName: name });
}

/** Where a transport's HTTP handlers go in the Express chain (see the module docstring). */
export type HttpPlacement = 'unmetered' | 'neutral' | 'versioned';

/** What the server hands to {@link HttpTransport.mount}. */
export interface MountContext {
  /** Every health contribution of the server, the database's first (the `/health` transport reads them). */
  readonly health: readonly HealthContribution[];
  /** Whether the server is draining before a shutdown (`/health` then answers 503, docs/behaviour.md §4.9). */
  readonly draining: () => boolean;
}

/**
 * A transport's Express handlers.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface HttpTransport {
  readonly placement: HttpPlacement;
  /**
   * The paths it mounts itself, as written (a trailing `/*`: everything below); neutral to version
   * selection (docs/behaviour.md §9.3.3). Empty for a `versioned` transport, whose paths the version router decides.
   */
  readonly paths: readonly string[];
  /** Adds its handlers to `app`; called once, in list order within its placement. */
  mount(app: Express, mounted: MountContext): void;
  /**
   * The response headers its answers carry that a caller on another origin may read
   * (`Access-Control-Expose-Headers`, sent when `APP_HTTP__CORS_ORIGINS` is set): `x-next-cursor`
   * for REST pages. Those any answer may carry (the request id,
   * the rate limit's, `WWW-Authenticate`) the server exposes itself (runtime/http/pipeline.ts).
   */
  readonly exposedHeaders?: readonly string[];
  /**
   * Routes answered before the Express chain (runtime/http/direct.ts), for hot requests that need
   * none of the chain's other middleware: the server gives them its front (the request's id, the
   * in-flight count, the security headers, authentication) and nothing else. What they answer
   * stays mounted through `mount` too, which answers whatever they decline.
   */
  readonly direct?: readonly DirectRoute[];
}

/**
 * Requests the server answers before the Express chain (runtime/http/direct.ts). For each request
 * the server asks its direct routes in order — those of self-mounted transports first, then the
 * REST routes' — with only the request line and headers read; the first that gives a
 * {@link DirectAnswer} answers the request with the request's {@link RequestState}, and when none
 * does the request goes to the Express chain (where `mount` put the full routes).
 */
export interface DirectRoute {
  /**
   * How this route answers `request`, whose path without its query string is `path`, when it
   * answers it in full itself; undefined leaves it to the Express chain. Decides from the request
   * line and headers alone, consuming nothing.
   */
  match(request: IncomingMessage, path: string): DirectAnswer | undefined;
}

/** How a {@link DirectRoute} answers one request. */
export interface DirectAnswer {
  /** The route template access lines and metrics name it by (`/graphql`, `/v2/posts/:id`, docs/behaviour.md §12.1). */
  readonly route: string;
  /** Answers the request; must not reject (the server answers a rejection with 500). */
  handle(request: IncomingMessage, response: ServerResponse, state: RequestState): Promise<void>;
}

/**
 * What one health check found: up (`true`, the field says `ok`), down (`false`, `down`), or down for
 * the reason a word names, which the field says instead (`'full'`: the database answers but has no
 * room to write).
 */
export type HealthState = boolean | string;

/** One field of `GET /health`'s body. */
export interface HealthContribution {
  /** The field's name (`db`). */
  readonly name: string;
  /** Whether it is up; must not reject (a failure is `false`). Called at most about twice a second. */
  readonly check: () => Promise<HealthState>;
}

/**
 * An address worth knowing about, as the landing answer at `/` lists it (docs/behaviour.md §4.8):
 * `{ "graphql": "/graphql" }`.
 */
export interface Entrypoint {
  /** Its key in the landing answer: `docs`, `openapi`, `graphql`, `playground`, `subscriptions`, `health`, `mcp`. */
  readonly name: string;
  /** The path it is served at, as written (`/graphql`). */
  readonly path: string;
  /** What it is, in a few words (`GraphQL over HTTP (POST)`). */
  readonly description: string;
  /** `websocket` for a socket address (`ws://…`); default `http`. */
  readonly scheme?: 'http' | 'websocket';
}

/** One way callers reach the application (module docstring: what each member is for). */
export interface Transport {
  /** What logs call it (`rest`, `graphql-ws`). */
  readonly name: string;
  readonly http?: HttpTransport;
  /** Registered with the server's {@link SocketAcceptor}, which takes over the upgrade requests of their paths. */
  readonly sockets?: readonly SocketTransport[];
  readonly health?: readonly HealthContribution[];
  /** The addresses a newcomer starts from (docs/behaviour.md §4.8). */
  readonly entrypoints?: readonly Entrypoint[];
  /** Stops taking work and resolves once running work has finished; called when shutdown begins. */
  close?(): Promise<void>;
  /** Releases what requests may use while they drain; called after the drain and every `close`, before the database closes. */
  release?(): Promise<void>;
}

/**
 * Builds every transport of `factories` in order. When one throws, closes and releases the ones
 * already built and rethrows (the server then closes the database).
 */
export async function buildTransports<Container>(
  factories: readonly TransportFactory<Container>[],
  context: TransportContext<Container>,
): Promise<Transport[]> {
  const built: Transport[] = [];
  try {
    for (const factory of factories) built.push(await factory(context));
  } catch (error) {
    await Promise.allSettled(built.map(async (transport) => transport.close?.()));
    await Promise.allSettled(built.map(async (transport) => transport.release?.()));
    throw error;
  }
  return built;
}

/**
 * Mounts the HTTP handlers of every transport with `placement` on `app`, in list order, and logs
 * the self-mounted paths of each at debug (one line per transport: `transport`, `paths`; the
 * `listening on` line names the entrypoints, docs/decisions.md §4).
 */
export function mountTransports(
  app: Express,
  transports: readonly Transport[],
  placement: HttpPlacement,
  mounted: MountContext,
  logger: Logger,
): void {
  for (const transport of transports) {
    const http = transport.http;
    if (http?.placement !== placement) continue;
    http.mount(placement === 'versioned' ? app : withinDeclaredPaths(app, transport.name, http.paths), mounted);
    if (http.paths.length > 0)
      logger.debug(
        { transport: transport.name, paths: http.paths },
        `serving ${http.paths.join(', ')} (${transport.name}; neutral to API versions)`,
      );
  }
}

/** Express's methods that mount handlers, whose first argument is the path. */
const MOUNTING = new Set(['use', 'all', 'get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'route']);

/** Whether `path` is one of `declared` or below an entry ending in `/*`. */
function declares(declared: readonly string[], path: string): boolean {
  return declared.some(
    (entry) => entry === path || (entry.endsWith('/*') && (path === entry.slice(0, -2) || path.startsWith(entry.slice(0, -1)))),
  );
}

/**
 * `app` as a self-mounted transport's `mount` gets it: mounting a handler at a path its `paths` do
 * not declare, or without a path, throws at boot. The REST routes answered before the Express
 * chain (runtime/http/direct.ts) step aside only for the declared paths, so a handler elsewhere
 * (an allowlist mounted for every path, say) would be skipped by them.
 */
function withinDeclaredPaths(app: Express, transport: string, declared: readonly string[]): Express {
  return new Proxy(app, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !MOUNTING.has(property) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        // app.get(name) with one argument reads a setting.
        const setting = property === 'get' && args.length === 1;
        const [path] = args;
        if (!setting && (typeof path !== 'string' || !declares(declared, path))) {
          throw new Error(
            `the ${transport} transport mounts ${property}(${typeof path === 'string' ? JSON.stringify(path) : 'without a path'}), which its http.paths (${declared.join(', ') || 'none'}) do not declare: a self-mounted transport mounts only the paths it declares (runtime/transports/index.ts)`,
          );
        }
        return (value as (...parameters: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Registers the socket transports of every transport with `acceptor`. Throws when two claim one path. */
export function registerSockets(acceptor: SocketAcceptor, transports: readonly Transport[]): void {
  for (const transport of transports) for (const socket of transport.sockets ?? []) acceptor.register(socket);
}
