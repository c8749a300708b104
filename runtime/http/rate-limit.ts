/**
 * The rate limit (docs/hostile-input.md §12): at most `APP_HTTP__RATE_LIMIT` operations per client
 * address in each `APP_HTTP__RATE_LIMIT_WINDOW` ms, counted in one store across every way in — each
 * HTTP request (express-rate-limit's middleware, with its `RateLimit-*` headers and a 429 problem
 * document), each WebSocket upgrade, each graphql-ws operation, each gateway message, and each
 * JSON-RPC message of an MCP batch beyond the one its request counted — so a client refused over REST is refused over the
 * sockets too. Off (undefined) when the limit is 0.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { type ClientRateLimitInfo, type Options, rateLimit, type Store } from 'express-rate-limit';
import type { AppConfig } from '../server/config.js';
import { type AddressReading, clientGroup } from './client-address.js';
import { problem, sendProblem } from './problem.js';

/**
 * express-rate-limit's store of one process: a fixed window per key, counted synchronously. Its
 * own `MemoryStore` answers an increment with the client's live record, so operations counted in
 * one burst (a socket's pipelined messages) all read the burst's final count and all but the first
 * were refused; here each count answers the number it reached.
 */
class WindowStore implements Store {
  readonly localKeys = true;
  private windowMs = 60_000;
  private readonly clients = new Map<string, { hits: number; resetTime: Date }>();
  private sweeper: NodeJS.Timeout | undefined;

  init(options: Options): void {
    this.windowMs = options.windowMs;
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => this.sweep(), this.windowMs).unref();
  }

  /** Counts one more hit of `key`; the hits of its window so far and when the window ends. */
  hit(key: string): ClientRateLimitInfo {
    const now = Date.now();
    let client = this.clients.get(key);
    if (!client || client.resetTime.getTime() <= now) {
      client = { hits: 0, resetTime: new Date(now + this.windowMs) };
      this.clients.set(key, client);
    }
    client.hits += 1;
    return { totalHits: client.hits, resetTime: client.resetTime };
  }

  increment(key: string): ClientRateLimitInfo {
    return this.hit(key);
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const client = this.clients.get(key);
    return client && client.resetTime.getTime() > Date.now() ? { totalHits: client.hits, resetTime: client.resetTime } : undefined;
  }

  decrement(key: string): void {
    const client = this.clients.get(key);
    if (client && client.hits > 0) client.hits -= 1;
  }

  resetKey(key: string): void {
    this.clients.delete(key);
  }

  shutdown(): void {
    clearInterval(this.sweeper);
  }

  /** Forgets the keys whose window ended: what the map holds is bounded by the clients of one window. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, client] of this.clients) if (client.resetTime.getTime() <= now) this.clients.delete(key);
  }
}

/** The limit of one process (module docstring). */
export class RateLimit {
  private readonly store = new WindowStore();
  /** The HTTP middleware: counts each request, answers 429 past the limit. */
  readonly middleware: RequestHandler;
  /** What a client past the limit is told. */
  readonly message: string;
  private readonly limit: number;
  private readonly reading: AddressReading;

  private constructor(config: AppConfig) {
    this.limit = config.http.rateLimit;
    this.reading = { trustProxy: config.http.trustProxy, ipv6Prefix: config.http.ipv6Prefix };
    this.message = `more than ${config.http.rateLimit} requests in ${config.http.rateLimitWindow / 1000} s from this address; retry after the Retry-After delay`;
    this.middleware = rateLimit({
      windowMs: config.http.rateLimitWindow,
      limit: config.http.rateLimit,
      store: this.store,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      keyGenerator: (request) => this.keyOf(request),
      handler: (_request, response) => {
        sendProblem(response, problem(429, 'TOO_MANY_REQUESTS', this.message));
      },
    });
  }

  /** The limit `config` asks for, or undefined when it is off (`APP_HTTP__RATE_LIMIT=0`). */
  static of(config: AppConfig): RateLimit | undefined {
    return config.http.rateLimit > 0 ? new RateLimit(config) : undefined;
  }

  /** The store's key of a request: its client as every per-address count groups it (./client-address.ts). */
  private keyOf(request: IncomingMessage): string {
    return clientGroup(request, this.reading);
  }

  /**
   * Counts `count` operations of the client of `request` (a socket's upgrade, an MCP request);
   * resolves false when that takes it past the limit — the operations are then refused with
   * `TOO_MANY_REQUESTS` and {@link message}.
   */
  take(request: IncomingMessage, count = 1): Promise<boolean> {
    const key = this.keyOf(request);
    let hits = 0;
    for (let taken = 0; taken < count; taken++) hits = this.store.hit(key).totalHits;
    return Promise.resolve(hits <= this.limit);
  }
  /**
   * Counts one operation of the client of `request` — a WebSocket upgrade, refused 429 before the
   * handshake (docs/hostile-input.md §12) — and resolves whether it stays within the limit, and the
   * whole seconds (at least 1) until the client's window ends, which a refusal's `Retry-After` says.
   */
  tryTake(request: IncomingMessage): Promise<{ readonly allowed: boolean; readonly retryAfter: number }> {
    const { totalHits, resetTime } = this.store.hit(this.keyOf(request));
    const retryAfter = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now()) - Date.now()) / 1000));
    return Promise.resolve({ allowed: totalHits <= this.limit, retryAfter });
  }
}
