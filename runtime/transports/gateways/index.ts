/**
 * WebSocket gateways (docs/behaviour.md §4.4, §9.5): a gateway owns its socket path, versioned by the URL
 * (`/v1/ws`) and neutral to header / media-type version selection. The bearer token comes with the
 * upgrade request (`Authorization` header, or `?token=` for browsers), and one that does not verify
 * refuses the upgrade with 401 (docs/behaviour.md §5.1); each message
 * `{ "event", "data" }` runs its handler in the caller's ambient context and is answered with
 * `{ "event", "data" }` or `{ "event", "error": { "code", "message" } }`; `data` nested too deep or
 * holding a NUL character in any text is refused before any handler runs (docs/hostile-input.md §1, §17).
 *
 * Each gateway is a {@link SocketTransport}: the server's {@link SocketAcceptor} does the handshake,
 * limits message size and answers framing faults (docs/hostile-input.md §1); a gateway only serves messages.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { WebSocket } from 'ws';
import { type AbilityCache, answerable } from '../../auth/ability.js';
import { type AnswerBudget, answerBudget, answerTooLarge, jsonWithin } from '../../http/answer.js';
import { type Authentication, tokenExpired, type TokenVerifier } from '../../auth/authentication.js';
import { type RequestContext, runInContext } from '../../auth/context.js';
import { classifyError, INTERNAL_ERROR_MESSAGE } from '../../failures/errors.js';
import { nulIssues } from '../../data/text-input.js';
import { FailureError, issueSummary } from '../../failures/result.js';
import { RequestObservation } from '../../observability/observation.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';
import type { RateLimit } from '../../http/rate-limit.js';
import type { SocketQuotas } from '../socket-quotas.js';
import {
  closeAtTokenExpiry,
  closeSocket,
  messageText,
  SLOW_CLIENT_CLOSE_CODE,
  socketRequestId,
  type SocketTransport,
  TOKEN_EXPIRED_CLOSE_CODE,
} from '../sockets.js';

/** What a gateway handler runs with. */
export interface GatewayCall {
  readonly request: RequestContext;
  readonly authentication: Authentication;
}

/**
 * One message handler, as generated.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface GatewayHandler {
  readonly event: string;
  /** Runs the handler (posture gate included); the value is sent back as `data`. */
  readonly handle: (data: unknown, call: GatewayCall) => unknown;
}

/** One gateway, as generated. */
export interface GatewayDefinition {
  readonly name: string;
  /** The socket path clients connect to, version included (`/v1/ws`). */
  readonly path: string;
  readonly version: string | undefined;
  readonly handlers: readonly GatewayHandler[];
}

/** Everything gateways need from the server. */
export interface GatewayServices {
  readonly verifier: TokenVerifier;
  readonly abilities: AbilityCache;
  readonly logger: Logger;
  /** The rate limit every transport shares, when configured: each message counts (docs/hostile-input.md §12). */
  readonly rateLimit?: RateLimit | undefined;
  /** The bytes a socket may have waiting (docs/hostile-input.md §16; its places are the acceptor's); absent: unbounded (tests). */
  readonly quotas?: SocketQuotas | undefined;
  /** The bytes of JSON one reply may write (`APP_HTTP__MAX_RESPONSE_BYTES`, docs/hostile-input.md §14); absent: unbounded (tests). */
  readonly answers?: AnswerBudget | undefined;
}

/** The token of an upgrade request: `Authorization: Bearer …`, or `?token=…` (browsers cannot set headers). */
function credentialsOf(request: IncomingMessage): string | undefined {
  if (request.headers.authorization) return request.headers.authorization;
  const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  return token ? `Bearer ${token}` : undefined;
}

/** Messages of one gateway socket whose handlers may run at once; past it the socket is not read (docs/hostile-input.md §1). */
export const MAX_IN_FLIGHT = 16;

/**
 * How deep a message's `data` may nest (arrays and objects), as GraphQL bounds a document's nesting
 * (docs/hostile-input.md §1): deeper data is refused before any handler runs, since writing a reply
 * that carries it back would exhaust the stack.
 */
export const MAX_DATA_DEPTH = 64;

/** Whether `value` (parsed JSON) nests arrays and objects deeper than `limit`; iterative, so any depth is measured. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

/** A reply to one message: its value, or the error it ended with. */
type GatewayReply =
  { readonly event: string; readonly data?: unknown } | { readonly event: string; readonly error: { code: string; message: string } };

/**
 * The gateways transport: one {@link SocketTransport} per gateway of `createGateways(container)`
 * (the generated `gateways.ts`) at its versioned path (docs/behaviour.md §9.5), registered with the server's
 * acceptor. The upgrade's token is verified before the handshake is answered.
 */
export function gateways<Container>(createGateways: (container: Container) => readonly GatewayDefinition[]): TransportFactory<Container> {
  return defineTransport('gateways', ({ config, container, verifier, abilities, logger, rateLimit, socketQuotas }): Transport => {
    const answers = answerBudget(config.http.maxResponseBytes, rateLimit);
    return {
      name: 'gateways',
      sockets: createGateways(container).map((gateway) =>
        gatewayTransport(gateway, { verifier, abilities, logger, rateLimit, quotas: socketQuotas, answers }),
      ),
    };
  });
}

/** The socket transport of one gateway: admits with the upgrade's token, then answers messages. */
export function gatewayTransport(gateway: GatewayDefinition, services: GatewayServices): SocketTransport<GatewayCall> {
  const handlers = new Map(gateway.handlers.map((handler) => [handler.event, handler]));
  const events = gateway.handlers.map((handler) => handler.event).join(', ');

  /** The error reply of a handler that threw: failures as they are, anything else logged and said generically. */
  const describe = (error: unknown): { code: string; message: string } => {
    const classified = classifyError(error);
    if (classified.kind === 'failure') return { code: classified.failure.code, message: classified.failure.message };
    services.logger.error({ err: error, gateway: gateway.name }, 'gateway handler failed');
    return { code: 'INTERNAL_SERVER_ERROR', message: classified.kind === 'database' ? classified.message : INTERNAL_ERROR_MESSAGE };
  };

  /**
   * Sends `reply` to `request`'s client if it is still there: a value JSON cannot carry is a server
   * fault, answered as one; a reply past the byte budget is never built, and is answered
   * `RESPONSE_TOO_LARGE` (docs/hostile-input.md §14).
   */
  const send = (client: WebSocket, reply: GatewayReply, request?: IncomingMessage): void => {
    if (client.readyState !== WebSocket.OPEN) return;
    // A client that does not take its messages is closed, not sent more (docs/hostile-input.md §16).
    if (services.quotas?.overBuffered(client) === true) {
      closeSocket(client, SLOW_CLIENT_CLOSE_CODE, 'the client does not take its messages');
      return;
    }
    let text: string;
    try {
      const maxBytes = services.answers?.maxBytes ?? Number.POSITIVE_INFINITY;
      const within = jsonWithin(reply, maxBytes);
      if (within === undefined) {
        if (request) void services.answers?.refused(request);
        const refusal = answerTooLarge(maxBytes, 'APP_HTTP__MAX_RESPONSE_BYTES');
        text = JSON.stringify({ event: reply.event, error: { code: refusal.failure.code, message: refusal.failure.message } });
      } else text = within;
    } catch (error) {
      services.logger.error({ err: error, gateway: gateway.name, event: reply.event }, 'gateway reply is not serializable');
      text = JSON.stringify({ event: reply.event, error: { code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE } });
    }
    client.send(text);
  };

  /** Runs the handler in the caller's ambient context, unless the client is past the rate limit; never rejects. */
  const answer = async (
    client: WebSocket,
    request: IncomingMessage,
    handler: GatewayHandler,
    data: unknown,
    call: GatewayCall,
  ): Promise<void> => {
    const { rateLimit } = services;
    if (rateLimit && !(await rateLimit.take(request))) {
      send(client, { event: handler.event, error: { code: 'TOO_MANY_REQUESTS', message: rateLimit.message } });
      return;
    }
    let reply: GatewayReply;
    try {
      reply = { event: handler.event, data: answerable(await runInContext(call.request, () => handler.handle(data, call))) };
    } catch (error) {
      reply = { event: handler.event, error: describe(error) };
    }
    send(client, reply, request);
  };

  return {
    name: `gateway ${gateway.name}`,
    paths: [gateway.path],
    admit: async (request) => {
      const authentication = await services.verifier.authenticate(credentialsOf(request));
      // A token that does not verify (expired, forged, malformed) opens nothing, as the global
      // authentication guard refuses it on every REST and GraphQL operation; no token is anonymous.
      if (authentication.kind === 'rejected')
        throw new FailureError({ code: 'UNAUTHENTICATED', message: `authentication failed: ${authentication.reason}` });
      const principal = authentication.kind === 'authenticated' ? authentication.principal : undefined;
      // The socket's handlers run with its upgrade's request id (docs/behaviour.md §12.1).
      const observation = new RequestObservation(socketRequestId(request));
      return {
        request: {
          principal,
          ability: principal ? services.abilities.for(principal) : undefined,
          unscoped: false,
          transport: 'gateway',
          observation,
        },
        authentication,
      };
    },
    // The upgrade's token says who the caller is: the acceptor places the socket in its share, or the
    // anonymous share, of its address's places (docs/hostile-input.md §16).
    principalOf: (call) => call.request.principal,
    connect: (client, request, call) => {
      // The socket ends with its token (4401, docs/hostile-input.md §9).
      closeAtTokenExpiry(client, call.authentication);
      // Backpressure: at most MAX_IN_FLIGHT handlers of this socket run at once. Messages past
      // that wait in arrival order and the socket stops being read, so what waits is bounded by
      // what the socket had already received, and TCP slows the client down.
      let inFlight = 0;
      const waiting: WebSocket.RawData[] = [];
      const handle = (raw: WebSocket.RawData): void => {
        if (tokenExpired(call.authentication)) {
          closeSocket(client, TOKEN_EXPIRED_CLOSE_CODE, 'the token has expired');
          return;
        }
        let event: string;
        let data: unknown;
        try {
          const message = JSON.parse(messageText(raw)) as { event?: unknown; data?: unknown } | null;
          if (typeof message?.event !== 'string') throw new Error('no event');
          event = message.event;
          data = message.data;
        } catch {
          // Counted too (docs/hostile-input.md §12), though the answer is cheap.
          void services.rateLimit?.take(request);
          send(client, {
            event: 'error',
            error: { code: 'BAD_USER_INPUT', message: 'messages are JSON objects { "event": string, "data": any }' },
          });
          return;
        }
        if (nestsDeeperThan(data, MAX_DATA_DEPTH)) {
          void services.rateLimit?.take(request);
          send(client, { event, error: { code: 'BAD_USER_INPUT', message: `data nests deeper than ${MAX_DATA_DEPTH} levels` } });
          return;
        }
        // A NUL in any text of `data`, before a handler could hand it to a query (docs/hostile-input.md §17).
        const nul = nulIssues(data, 'data');
        if (nul.length > 0) {
          void services.rateLimit?.take(request);
          send(client, { event, error: { code: 'BAD_USER_INPUT', message: `invalid data: ${issueSummary(nul)}` } });
          return;
        }
        const handler = handlers.get(event);
        if (!handler) {
          void services.rateLimit?.take(request);
          send(client, { event, error: { code: 'NOT_FOUND', message: `${gateway.name} answers ${events}` } });
          return;
        }
        inFlight += 1;
        void answer(client, request, handler, data, call).finally(() => {
          inFlight -= 1;
          while (inFlight < MAX_IN_FLIGHT) {
            const next = waiting.shift();
            if (next === undefined) break;
            handle(next);
          }
          if (waiting.length === 0 && client.isPaused) client.resume();
        });
      };
      client.on('message', (raw) => {
        if (inFlight < MAX_IN_FLIGHT && waiting.length === 0) return handle(raw);
        waiting.push(raw);
        client.pause();
      });
    },
  };
}
