/**
 * The one place the server accepts WebSockets (docs/hostile-input.md §1; docs/decisions.md §7 "Hostile input";
 * docs/guide/sockets.md). Every socket transport — the gateways, graphql-ws, and any transport added later —
 * registers its paths with a {@link SocketAcceptor} and is handed sockets that are already guarded;
 * none of them calls `handleUpgrade` itself, so none can forget a guard:
 *
 * - the raw TCP socket gets an `error` listener the moment the upgrade request arrives, so a reset
 *   while a transport is still admitting the request (verifying its token) ends that connection,
 *   not the process;
 * - an upgrade no transport owns is answered 404 (400 when its target is not a URL, 503 while
 *   shutting down) as a problem document, like every other refused request;
 * - an upgrade counts against the rate limit, when there is one, and past it is answered 429 with
 *   `Retry-After` before any transport admits it (docs/hostile-input.md §12);
 * - handshakes `ws` refuses (a bad key or version, a method other than GET) are problem documents too;
 * - every socket holds a place of its address and of its caller, anonymous ones in a smaller share
 *   of the address's (./socket-quotas.ts; docs/hostile-input.md §16), or is closed with 1008;
 * - every socket is limited to `maxPayload` bytes per message (1009 past it);
 * - a frame `ws` refuses — over the size limit, invalid UTF-8, reserved bits, an unknown opcode, an
 *   unmasked client frame, a bad close code — has already been answered by `ws` with the
 *   protocol's close code (1009, 1007, 1002) when it is reported as the socket's `error` event;
 *   the acceptor owns that event and logs it once, at warn, as the client's fault;
 * - every socket is pinged every `keepAlive` ms and terminated when it did not answer the last ping;
 * - shutdown closes every socket of every transport with 1001 in one loop;
 * - every upgrade has a request id (docs/behaviour.md §12.1), answered in `X-Request-Id` on the
 *   handshake or the refusal and read by transports with {@link socketRequestId}; open sockets are
 *   counted by transport, and messages refused for their size as refusals (docs/behaviour.md §12.2).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { Principal } from '../auth/ability.js';
import { type Authentication, tokenExpired } from '../auth/authentication.js';
import { type SocketQuotas, WAITED_TOO_LONG } from './socket-quotas.js';
import { FailureError } from '../failures/result.js';
import { failureProblem, problem, writeRawProblem } from '../http/problem.js';
import type { RateLimit } from '../http/rate-limit.js';
import type { Observability } from '../observability/index.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../observability/request-id.js';

/**
 * A transport served over WebSockets, as it registers with {@link SocketAcceptor.register}. The
 * acceptor performs the handshake; the transport only serves the sockets it is handed.
 */
export interface SocketTransport<State = unknown> {
  /** What logs call it (`graphql-ws`, `gateway EchoGateway`). */
  readonly name: string;
  /** The request paths it owns, exactly (`/graphql`, `/v1/ws`); the query string is not part of a path. */
  readonly paths: readonly string[];
  /**
   * The subprotocols it speaks, preferred first. The handshake selects the first one the client
   * offers; when the client offers none of them the socket opens without a subprotocol and the
   * transport decides (graphql-ws closes it with 4406).
   */
  readonly protocols?: readonly string[];
  /**
   * Work to finish before the handshake is answered, such as verifying the upgrade's token; what
   * it resolves with reaches {@link connect}. The raw socket is guarded meanwhile: if the client
   * leaves first, the upgrade is dropped. A {@link FailureError} refuses the upgrade as REST would
   * answer it (a rejected token: 401 `UNAUTHENTICATED`); any other rejection is a server fault:
   * logged at error, answered 500.
   */
  admit?(request: IncomingMessage): Promise<State>;
  /**
   * The caller a socket is opened by, when its upgrade says (a gateway's token; undefined: an
   * anonymous caller). The acceptor then places the socket in that caller's share of its address's
   * places, or in the anonymous share, before {@link connect}, and closes it with 1008 when there is
   * no place (docs/hostile-input.md §16). Absent, the caller is not known at the handshake: the socket
   * waits unplaced until the transport calls {@link SocketQuotas.place} (graphql-ws, at
   * `connection_init`), and the longest waiting socket of an address is sent away when more wait
   * than the address has places.
   */
  principalOf?(state: State): Principal | undefined;
  /**
   * Serves one accepted socket. It never needs an `error` listener: a framing fault has been
   * answered and logged by the acceptor and is followed by `close`. Throwing closes the socket with 1011.
   */
  connect(client: WebSocket, request: IncomingMessage, state: State): void;
}

/** Options of {@link SocketAcceptor}. */
export interface SocketAcceptorOptions {
  readonly logger: Logger;
  /** Largest message a client may send, in bytes (`APP_HTTP__BODY_LIMIT`); larger closes the socket with 1009. */
  readonly maxPayload: number;
  /** Milliseconds between pings; a socket that has not answered the previous ping is terminated (default 12 000, graphql-ws's). */
  readonly keepAlive?: number;
  /** Counts open sockets and refusals, when metrics are on. */
  readonly observability?: Observability;
  /** What clients may hold (./socket-quotas.ts): a socket with no place among its address's and caller's is closed with 1008. */
  readonly quotas?: SocketQuotas;
  /** The rate limit every transport shares, when configured: each upgrade counts, refused 429 past it (docs/hostile-input.md §12). */
  readonly rateLimit?: RateLimit | undefined;
}

/** A registered path: its transport and the `ws` server doing its handshakes. */
interface Route {
  readonly transport: SocketTransport;
  readonly server: WebSocketServer;
}

/** What the acceptor knows of one open socket. */
interface Accepted {
  readonly transport: SocketTransport;
  readonly path: string;
  /** Whether it answered the last ping. */
  alive: boolean;
}

/**
 * The close code `ws` sends for each frame fault it reports (`ws/lib/receiver.js`; RFC 6455
 * §7.4.1): 1002 protocol error, 1007 invalid payload data, 1008 policy, 1009 message too big.
 */
const FAULT_CLOSE_CODES: Readonly<Record<string, number>> = {
  WS_ERR_EXPECTED_FIN: 1002,
  WS_ERR_EXPECTED_MASK: 1002,
  WS_ERR_INVALID_CLOSE_CODE: 1002,
  WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH: 1002,
  WS_ERR_INVALID_OPCODE: 1002,
  WS_ERR_UNEXPECTED_MASK: 1002,
  WS_ERR_UNEXPECTED_RSV_1: 1002,
  WS_ERR_UNEXPECTED_RSV_2_3: 1002,
  WS_ERR_INVALID_UTF8: 1007,
  WS_ERR_TOO_MANY_BUFFERED_PARTS: 1008,
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 1009,
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
};

/** The log message of a client's framing fault (tests and dashboards look for it). */
export const CLIENT_FAULT_MESSAGE = 'closed a WebSocket client that broke the framing rules';

/**
 * A received message as text. `ws` hands a Buffer unless the socket's `binaryType` asks for an
 * ArrayBuffer or the list of fragments; all three are read the same way.
 */
export function messageText(raw: WebSocket.RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString();
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString();
}

/** The longest close reason RFC 6455 §5.5 allows (a control frame carries at most 125 bytes, 2 of them the code). */
const MAX_CLOSE_REASON = 123;

/**
 * Closes `client` with `code` and `reason`, cutting the reason to the 123 bytes a close frame can
 * carry (on a character boundary) instead of letting `ws` throw. Takes any socket state.
 */
export function closeSocket(client: WebSocket, code: number, reason = ''): void {
  let bytes = Buffer.from(reason);
  if (bytes.length > MAX_CLOSE_REASON) {
    let end = MAX_CLOSE_REASON;
    while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  client.close(code, bytes);
}

/** The close code of a socket refused by a quota (RFC 6455 "policy violation", docs/hostile-input.md §16). */
export const POLICY_CLOSE_CODE = 1008;

/** The close code of a socket whose client does not take its messages (RFC 6455 "try again later", docs/hostile-input.md §16). */
export const SLOW_CLIENT_CLOSE_CODE = 1013;

/** The close code of a socket whose token expired (graphql-ws's "Unauthorized", docs/hostile-input.md §9). */
export const TOKEN_EXPIRED_CLOSE_CODE = 4401;

/** The longest delay a timer takes (`setTimeout` fires at once past 2^31 - 1 ms). */
const MAX_TIMER_DELAY = 2 ** 31 - 1;

/**
 * Closes `client` with {@link TOKEN_EXPIRED_CLOSE_CODE} when the token of `authentication` expires
 * (docs/hostile-input.md §9): a socket never outlives the token it was opened or initialised with.
 * At once when it has already expired; nothing for an anonymous caller or a token without `exp`.
 */
export function closeAtTokenExpiry(client: WebSocket, authentication: Authentication): void {
  if (authentication.kind !== 'authenticated' || authentication.expiresAt === undefined) return;
  const expiresAt = authentication.expiresAt;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    if (client.readyState !== WebSocket.OPEN && client.readyState !== WebSocket.CONNECTING) return;
    const left = expiresAt - Date.now();
    if (left <= 0 || tokenExpired(authentication)) {
      closeSocket(client, TOKEN_EXPIRED_CLOSE_CODE, 'the token has expired');
      return;
    }
    timer = setTimeout(check, Math.min(left, MAX_TIMER_DELAY)).unref();
  };
  client.once('close', () => clearTimeout(timer));
  check();
}

/** The id of each upgrade request, taken or made once (docs/behaviour.md §12.1). */
const requestIds = new WeakMap<IncomingMessage, string>();

/**
 * The request id of an upgrade request: its well-formed `X-Request-Id`, or one generated for it;
 * the same for every caller (the acceptor answers it in the handshake, transports log and report it).
 */
export function socketRequestId(request: IncomingMessage): string {
  let id = requestIds.get(request);
  if (id === undefined) {
    id = requestIdOf(request.headers);
    requestIds.set(request, id);
  }
  return id;
}

/** Answers an upgrade request that is not upgraded with a problem document, and closes it. */
function refuse(
  request: IncomingMessage,
  socket: Duplex,
  status: number,
  code: string,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  writeRawProblem(socket, problem(status, code, detail), socketRequestId(request), headers);
}

/** The path of an upgrade request, or undefined when its target is not a URL. */
function pathOf(request: IncomingMessage): string | undefined {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/**
 * Accepts every WebSocket of the server: transports register their paths, the HTTP server hands
 * every `upgrade` to {@link accept}, and {@link close} ends every socket at shutdown.
 */
export class SocketAcceptor {
  private readonly routes = new Map<string, Route>();
  private readonly clients = new Map<WebSocket, Accepted>();
  private readonly logger: Logger;
  private readonly maxPayload: number;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly observability: Observability | undefined;
  private readonly quotas: SocketQuotas | undefined;
  private readonly rateLimit: RateLimit | undefined;
  private closing = false;

  constructor(options: SocketAcceptorOptions) {
    this.logger = options.logger;
    this.observability = options.observability;
    this.quotas = options.quotas;
    this.rateLimit = options.rateLimit;
    this.maxPayload = options.maxPayload;
    this.heartbeat = setInterval(() => this.ping(), options.keepAlive ?? 12_000).unref();
  }

  /**
   * Registers `transport` for its paths and logs one line per path (`socket`, `transport`,
   * `protocols`). Throws when a path is already owned by another transport.
   */
  register<State>(transport: SocketTransport<State>): void {
    for (const path of transport.paths) {
      const owner = this.routes.get(path);
      if (owner) throw new Error(`WebSocket path ${path} is claimed by both ${owner.transport.name} and ${transport.name}`);
    }
    const protocols = transport.protocols ?? [];
    const server = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      maxPayload: this.maxPayload,
      handleProtocols: (offered) => protocols.find((protocol) => offered.has(protocol)) ?? false,
    });
    // Handshakes `ws` refuses, answered as problem documents (without a listener ws writes text/html).
    server.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
      const version = Number(request.headers['sec-websocket-version']);
      if (request.method !== 'GET')
        refuse(request, socket, 405, 'METHOD_NOT_ALLOWED', `a WebSocket handshake is a GET request (got ${request.method})`, {
          Allow: 'GET',
        });
      else
        refuse(
          request,
          socket,
          400,
          'BAD_REQUEST',
          `not a valid WebSocket handshake: ${error.message}`,
          version === 13 || version === 8 ? {} : { 'Sec-WebSocket-Version': '13, 8' },
        );
    });
    // The handshake's answer (101) carries the upgrade's request id.
    server.on('headers', (headers: string[], request: IncomingMessage) =>
      headers.push(`${REQUEST_ID_HEADER}: ${socketRequestId(request)}`),
    );
    // With noServer, ws emits nothing here today; a listener keeps a future 'error' from ending the process.
    server.on('error', (error: Error) => this.logger.error({ err: error, transport: transport.name }, 'WebSocket server error'));
    const route: Route = { transport, server };
    for (const path of transport.paths) {
      this.routes.set(path, route);
      this.logger.info({ socket: path, transport: transport.name, protocols }, `accepting WebSockets on ${path} (${transport.name})`);
    }
  }

  /** Every registered path with its transport's name and subprotocols, in registration order. */
  paths(): { path: string; transport: string; protocols: readonly string[] }[] {
    return [...this.routes].map(([path, { transport }]) => ({ path, transport: transport.name, protocols: transport.protocols ?? [] }));
  }

  /**
   * Takes an HTTP `upgrade` (the arguments of Node's event) to the transport owning its path.
   * Never throws: whatever the client sent, the outcome is an open socket or a closed connection.
   */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', (error: Error & { code?: string }) => {
      this.logger.debug({ code: error.code, reason: error.message }, 'a WebSocket connection failed');
      socket.destroy();
    });
    try {
      const path = pathOf(request);
      if (path === undefined) return refuse(request, socket, 400, 'BAD_REQUEST', 'the request target is not a valid URL');
      const route = this.routes.get(path);
      if (!route) return refuse(request, socket, 404, 'NOT_FOUND', `no WebSocket is served at ${path}`);
      if (this.closing) return refuse(request, socket, 503, 'SERVICE_UNAVAILABLE', 'the server is shutting down');
      const { rateLimit } = this;
      if (!rateLimit) return this.admit(route, path, request, socket, head);
      // An upgrade is an operation of its client, counted before its token is verified or the
      // handshake answered: past the limit nothing opens (docs/hostile-input.md §12).
      rateLimit.tryTake(request).then(
        ({ allowed, retryAfter }) => {
          if (socket.destroyed) return;
          if (this.closing) return refuse(request, socket, 503, 'SERVICE_UNAVAILABLE', 'the server is shutting down');
          if (allowed) return this.admit(route, path, request, socket, head);
          this.observability?.refused('TOO_MANY_REQUESTS');
          refuse(request, socket, 429, 'TOO_MANY_REQUESTS', rateLimit.message, { 'Retry-After': String(retryAfter) });
        },
        (error: unknown) => {
          this.logger.error({ err: error }, 'counting a WebSocket upgrade failed');
          refuse(request, socket, 500, 'INTERNAL_SERVER_ERROR', 'internal error');
        },
      );
    } catch (error) {
      this.logger.error({ err: error }, 'accepting a WebSocket failed');
      socket.destroy();
    }
  }

  /** Runs the transport's admission of an upgrade the acceptor took (its token), then the handshake; never throws. */
  private admit(route: Route, path: string, request: IncomingMessage, socket: Duplex, head: Buffer): void {
    try {
      const { transport } = route;
      if (!transport.admit) return this.upgrade(route, path, request, socket, head, undefined);
      transport.admit(request).then(
        (state) => {
          if (socket.destroyed) return;
          if (this.closing) return refuse(request, socket, 503, 'SERVICE_UNAVAILABLE', 'the server is shutting down');
          this.upgrade(route, path, request, socket, head, state);
        },
        (error: unknown) => {
          if (error instanceof FailureError) {
            const refusal = failureProblem(error.failure);
            this.observability?.refused(refusal.code);
            writeRawProblem(socket, refusal, socketRequestId(request), refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
            return;
          }
          this.logger.error({ err: error, transport: transport.name }, 'admitting a WebSocket failed');
          refuse(request, socket, 500, 'INTERNAL_SERVER_ERROR', 'internal error');
        },
      );
    } catch (error) {
      this.logger.error({ err: error }, 'accepting a WebSocket failed');
      socket.destroy();
    }
  }

  private upgrade(route: Route, path: string, request: IncomingMessage, socket: Duplex, head: Buffer, state: unknown): void {
    try {
      route.server.handleUpgrade(request, socket, head, (client) => this.serve(route.transport, path, client, request, state));
    } catch (error) {
      this.logger.error({ err: error, transport: route.transport.name }, 'accepting a WebSocket failed');
      socket.destroy();
    }
  }

  private serve(transport: SocketTransport, path: string, client: WebSocket, request: IncomingMessage, state: unknown): void {
    if (!this.hold(transport, client, request, state)) return;
    const accepted: Accepted = { transport, path, alive: true };
    this.clients.set(client, accepted);
    const metrics = this.observability?.metrics;
    metrics?.socket(transport.name, 1);
    // ws emits 'error' at most once per socket, and only for a frame it refused after sending the close frame.
    client.on('error', (fault: Error & { code?: string }) => {
      const closeCode = fault.code === undefined ? undefined : FAULT_CLOSE_CODES[fault.code];
      this.logger.warn(
        {
          transport: transport.name,
          path,
          remote: request.socket.remoteAddress,
          requestId: socketRequestId(request),
          code: fault.code,
          closeCode,
          reason: fault.message,
        },
        CLIENT_FAULT_MESSAGE,
      );
      if (closeCode === 1009) this.observability?.refused('MESSAGE_TOO_LARGE');
    });
    client.on('pong', () => (accepted.alive = true));
    client.once('close', () => {
      this.clients.delete(client);
      metrics?.socket(transport.name, -1);
    });
    try {
      transport.connect(client, request, state);
    } catch (error) {
      this.logger.error({ err: error, transport: transport.name }, 'a WebSocket transport failed to take a socket');
      closeSocket(client, 1011, 'internal error');
    }
  }

  /**
   * Counts `client` against its address's and caller's places (./socket-quotas.ts): placed at once
   * when its transport knows the caller from the upgrade, else waiting until the transport places
   * it — closing with 1008 the longest waiting socket of the address when more wait than it has
   * places. Returns false, having closed `client` with 1008, when it gets no place.
   */
  private hold(transport: SocketTransport, client: WebSocket, request: IncomingMessage, state: unknown): boolean {
    const quotas = this.quotas;
    if (!quotas) return true;
    if (!transport.principalOf) {
      const away = quotas.wait(client, request);
      if (away) {
        this.observability?.refused('TOO_MANY_REQUESTS');
        closeSocket(away, POLICY_CLOSE_CODE, WAITED_TOO_LONG);
      }
      return true;
    }
    const refusal = quotas.place(client, request, transport.principalOf(state));
    if (refusal === undefined) return true;
    this.observability?.refused('TOO_MANY_REQUESTS');
    closeSocket(client, POLICY_CLOSE_CODE, refusal);
    return false;
  }

  /** Terminates the sockets that did not answer the previous ping, and pings the others. */
  private ping(): void {
    for (const [client, accepted] of this.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (!accepted.alive) {
        this.logger.debug(
          { transport: accepted.transport.name, path: accepted.path },
          'terminated a WebSocket that stopped answering pings',
        );
        client.terminate();
        continue;
      }
      accepted.alive = false;
      client.ping();
    }
  }

  /**
   * Stops accepting (later upgrades are answered 503), closes every socket of every transport
   * with `code` (1001, going away) and resolves once all of them are closed, terminating those
   * still open after `timeout` ms.
   */
  async close(code = 1001, timeout = 10_000): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    const open = [...this.clients.keys()];
    const closed = open.map((client) =>
      client.readyState === WebSocket.CLOSED ? Promise.resolve() : new Promise<void>((resolve) => client.once('close', () => resolve())),
    );
    for (const client of open) closeSocket(client, code, 'server shutting down');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeout).unref()));
    await Promise.race([Promise.all(closed), late]);
    clearTimeout(timer);
    for (const client of this.clients.keys()) client.terminate();
    for (const server of new Set([...this.routes.values()].map((route) => route.server))) server.close();
  }
}
