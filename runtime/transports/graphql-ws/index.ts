/**
 * Subscriptions over the graphql-ws protocol on the GraphQL path (docs/behaviour.md §1, §4.1), on the same HTTP
 * server. The token comes in the `connection_init` payload (`Authorization: "Bearer …"` or
 * `authToken`); an invalid one closes the connection (4403), and the connection is closed with
 * 4401 when the token expires (docs/hostile-input.md §9). Each subscribe message is prepared like
 * an HTTP operation — cached validation, limits, guards — so the subscription is gated at subscribe
 * time, and every item is produced inside the subscriber's ambient context, filtered by their
 * ability and masked by the generated resolvers.
 *
 * The protocol runs on graphql-ws's `makeServer` over sockets the server's {@link SocketAcceptor}
 * accepted (docs/hostile-input.md §1): the acceptor does the handshake (subprotocol `graphql-transport-ws`),
 * limits message size, answers framing faults, keeps sockets alive and closes them at shutdown.
 * graphql-ws's own `ws` binding (`useServer`) is not used because it wants a `WebSocketServer` of
 * its own and treats every socket `error` — which `ws` only raises for a client's framing fault —
 * as a server bug: a stack trace on stderr and close 4500.
 *
 * Each connection has the request id of its upgrade (docs/behaviour.md §12.1): its operations' log
 * lines and errors carry it. Running subscriptions are counted, and refused connections and
 * operations (an invalid token, `SUBSCRIPTION_LIMIT`, the limits of docs/hostile-input.md) are
 * counted as refusals (docs/behaviour.md §12.2); each operation runs in its span (§12.3).
 */
import type { IncomingMessage } from 'node:http';
import {
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import { GRAPHQL_TRANSPORT_WS_PROTOCOL, makeServer, type Server } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocket } from 'ws';
import { type Authentication, tokenExpired, type TokenVerifier } from '../../auth/authentication.js';
import { type RequestContext, runInContext } from '../../auth/context.js';
import { asSubscriber, EventsMissedError, SlowConsumerError } from '../../events/bus.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { createErrorFormatter, errorCode } from '../../graphql/errors.js';
import { executeWithCodes } from '../../graphql/execution.js';
import { subscribeSharing } from '../../graphql/subscriptions.js';
import type { OperationPreparer } from '../../graphql/prepare.js';
import { type AnswerBudget, answerBudget, answerTooLarge, jsonBytesWithin, jsonWithin } from '../../http/answer.js';
import type { RateLimit } from '../../http/rate-limit.js';
import type { Observability } from '../../observability/index.js';
import { operationLabel, RequestObservation } from '../../observability/observation.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';
import type { SocketQuotas } from '../socket-quotas.js';
import {
  closeAtTokenExpiry,
  closeSocket,
  messageText,
  POLICY_CLOSE_CODE,
  SLOW_CLIENT_CLOSE_CODE,
  socketRequestId,
  type SocketTransport,
  TOKEN_EXPIRED_CLOSE_CODE,
} from '../sockets.js';

/** Options of {@link SubscriptionServer}. */
interface SubscriptionServerOptions {
  readonly schema: GraphQLSchema;
  readonly preparer: OperationPreparer;
  readonly verifier: TokenVerifier;
  readonly logger: Logger;
  /** Milliseconds a client has to send `connection_init` (protocol close 4408 after). */
  readonly connectionInitWaitTimeout?: number;
  /** Operations one connection may have running at once (`APP_GRAPHQL__MAX_SUBSCRIPTIONS`); past it `SUBSCRIPTION_LIMIT`. */
  readonly maxSubscriptions: number;
  readonly observability: Observability;
  /** The rate limit every transport shares, when configured: each operation counts (docs/hostile-input.md §12). */
  readonly rateLimit: RateLimit | undefined;
  /** Sockets per address and caller (placed at `connection_init`), subscriptions per caller, and the bytes a socket may have waiting (docs/hostile-input.md §16). */
  readonly quotas: SocketQuotas;
  /** The bytes of JSON each message's answer may write (`APP_GRAPHQL__MAX_RESPONSE_BYTES`, docs/hostile-input.md §14). */
  readonly answers: AnswerBudget;
}

/** WebSocket close code for a subscriber that cannot keep up (RFC 6455 "try again later"). */
const SLOW_CONSUMER_CLOSE_CODE = 1013;

/** What graphql-ws keeps per connection. */
interface ConnectionExtra extends Record<PropertyKey, unknown> {
  authentication?: Authentication;
  /** The connection's socket. */
  readonly socket: WebSocket;
  /** The upgrade request. */
  readonly request: IncomingMessage;
  /** The connection's request id (its upgrade's) and the statements its operations send. */
  readonly observation: RequestObservation;
}

/** The bearer value of a `connection_init` payload, if any. */
function credentialsOf(payload: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!payload) return undefined;
  const header = payload.Authorization ?? payload.authorization;
  if (typeof header === 'string') return header;
  return typeof payload.authToken === 'string' ? `Bearer ${payload.authToken}` : undefined;
}

/**
 * An async iterator whose every step runs in `request`'s ambient context, each event with the whole
 * row budget (`APP_GRAPHQL__MAX_ROWS`). A subscription dropped as too slow
 * ({@link SlowConsumerError}) simply ends: its connection is already being closed. One whose events
 * may have been missed ({@link EventsMissedError}) is sent a last answer with the error
 * `EVENTS_MISSED`, then completes. `ended` runs once, when the subscription ends (it runs out,
 * fails, or is returned).
 */
function inContext(
  source: AsyncIterableIterator<ExecutionResult> | AsyncGenerator<ExecutionResult>,
  request: RequestContext,
  ended: () => void,
): AsyncIterableIterator<ExecutionResult> {
  let running = true;
  const end = (): void => {
    if (!running) return;
    running = false;
    ended();
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: async () => {
      if (!running) return { done: true, value: undefined };
      request.rows?.reset();
      try {
        const step = await runInContext(request, () => source.next());
        if (step.done === true) end();
        return step;
      } catch (error) {
        end();
        if (error instanceof SlowConsumerError) return { done: true, value: undefined };
        // The resume signal (docs/behaviour.md §4.1): one last message naming EVENTS_MISSED, then complete.
        if (error instanceof EventsMissedError)
          return { done: false, value: { errors: [new GraphQLError(error.message, { extensions: { code: 'EVENTS_MISSED' } })] } };
        throw error;
      }
    },
    return: async (value?: unknown) => {
      end();
      return source.return ? source.return(value) : { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * An event's answer serialised once for every subscription sent it (docs/hostile-input.md §16):
 * by the result object, which the subscriptions of one shape share (subscribeSharing).
 */
const serialised = new WeakMap<object, Buffer>();

/** The stand-in payload `onNext` hands graphql-ws for a shared answer (an object, as graphql-ws checks), as it reads at the end of the message graphql-ws writes. */
const SHARED_KEY = 'rs-shared-answer';
const SHARED_TAIL = /"payload":\{"rs-shared-answer":(\d+)\}\}$/;

/** The shared answers handed to graphql-ws and not yet sent, by the number in their stand-in. */
const pendingShared = new Map<number, Buffer>();
let nextShared = 0;

/**
 * A message graphql-ws wrote, split around the stand-in of a shared answer when it has one (which
 * is then no longer pending, whether it is sent or not): the message's head up to `"payload":`,
 * and the answer's JSON serialised once for every subscription.
 */
function sharedParts(data: string): { readonly head: string; readonly body: Buffer } | undefined {
  const tail = data.endsWith('}}') ? SHARED_TAIL.exec(data) : null;
  if (!tail) return undefined;
  const key = Number(tail[1]);
  const body = pendingShared.get(key);
  pendingShared.delete(key);
  return body ? { head: data.slice(0, tail.index + '"payload":'.length), body } : undefined;
}

/**
 * Sends `data`, a message graphql-ws wrote, on `client` (`shared`: its parts when it stands in for
 * a shared answer): a shared answer goes as one WebSocket message in three fragments — its head,
 * the answer's JSON (never copied per subscriber), and `}` — written at once, so no other message
 * comes between them. Calls `sent` once the last is handed to the network.
 */
function sendMessage(client: WebSocket, data: string, shared: ReturnType<typeof sharedParts>, sent: () => void): void {
  if (!shared) {
    client.send(data, () => sent());
    return;
  }
  client.send(shared.head, { fin: false });
  client.send(shared.body, { fin: false });
  client.send('}', { fin: true }, () => sent());
}

/** The graphql-ws server of the GraphQL path. */
class SubscriptionServer {
  private readonly server: Server<ConnectionExtra>;
  /** The socket each subscription's context belongs to (set at subscribe time). */
  private readonly sockets = new WeakMap<object, WebSocket>();

  private readonly logger: Logger;
  private readonly quotas: SocketQuotas;

  constructor(options: SubscriptionServerOptions) {
    this.logger = options.logger;
    this.quotas = options.quotas;
    const { observability } = options;
    const formatError = createErrorFormatter(options.logger);
    /** Runs `run` in the span of the operation `args` asks for. */
    const inOperationSpan = <T>(args: ExecutionArgs, run: () => T): T => {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return run();
      return observability.inOperationSpan(operationLabel(operation), run);
    };
    this.server = makeServer<Record<string, unknown>, ConnectionExtra>({
      schema: options.schema,
      connectionInitWaitTimeout: options.connectionInitWaitTimeout ?? 10_000,
      execute: (args: ExecutionArgs) =>
        inOperationSpan(args, () => runInContext((args.contextValue as GraphQLContext).request, () => executeWithCodes(args))),
      subscribe: async (args: ExecutionArgs) => {
        const request = (args.contextValue as GraphQLContext).request;
        const socket = this.sockets.get(args.contextValue as object);
        // A client that stops reading blocks its sends; once one of its subscriptions is a full
        // queue behind, the connection is closed (1013) and its memory released.
        const onSlowConsumer = (error: SlowConsumerError): void => {
          if (!socket || socket.readyState !== socket.OPEN) return;
          options.logger.warn({ topic: error.topic, queued: error.limit }, 'closing a subscriber too slow to keep up');
          socket.close(SLOW_CONSUMER_CLOSE_CODE, 'subscriber too slow');
        };
        // Subscriptions per caller across all its connections (docs/hostile-input.md §16), taken
        // before subscribing so that a refused one costs no subscription work.
        const release = options.quotas.startSubscription(request.principal);
        if (!release) {
          const limit = options.quotas.limits.subscriptionsPerCaller;
          return {
            errors: [
              new GraphQLError(`you already run ${limit} subscriptions (APP_GRAPHQL__MAX_SUBSCRIPTIONS_PER_CALLER); complete one first`, {
                extensions: { code: 'SUBSCRIPTION_LIMIT', limit },
              }),
            ],
          };
        }
        // Each event executed once per shape (caller, document, variables): docs/hostile-input.md §16.
        const result = await asSubscriber(onSlowConsumer, () =>
          inOperationSpan(args, () => runInContext(request, () => subscribeSharing(args, request.principal, executeWithCodes))),
        ).catch((error: unknown) => {
          release();
          throw error;
        });
        if (!(Symbol.asyncIterator in result)) {
          release();
          return result;
        }
        observability.metrics?.subscription(1);
        return inContext(result, request, () => {
          release();
          observability.metrics?.subscription(-1);
        });
      },
      onConnect: async (context) => {
        const authentication = await options.verifier.authenticate(credentialsOf(context.connectionParams));
        if (authentication.kind === 'rejected') {
          observability.refused('UNAUTHENTICATED');
          return false;
        }
        context.extra.authentication = authentication;
        // Now the caller is known: the socket leaves its address's waiting room for the caller's
        // share of the address's places, or the anonymous share (docs/hostile-input.md §16).
        const refusal = options.quotas.place(
          context.extra.socket,
          context.extra.request,
          authentication.kind === 'authenticated' ? authentication.principal : undefined,
        );
        if (refusal !== undefined) {
          observability.refused('TOO_MANY_REQUESTS');
          closeSocket(context.extra.socket, POLICY_CLOSE_CODE, refusal);
          return false;
        }
        // The connection ends with its token (4401): no operation and no event after `exp`.
        closeAtTokenExpiry(context.extra.socket, authentication);
        return true;
      },
      onSubscribe: async (context, _id, payload) => {
        const started = performance.now();
        if (tokenExpired(context.extra.authentication)) {
          observability.operationRefused(undefined, undefined, payload.operationName, ['UNAUTHENTICATED'], started, false);
          closeSocket(context.extra.socket, TOKEN_EXPIRED_CLOSE_CODE, 'the token has expired');
          return [new GraphQLError('the token has expired', { extensions: { code: 'UNAUTHENTICATED' } })];
        }
        if (options.rateLimit && !(await options.rateLimit.take(context.extra.request))) {
          observability.operationRefused(
            undefined,
            undefined,
            payload.operationName,
            ['TOO_MANY_REQUESTS'],
            started,
            context.extra.authentication?.kind === 'authenticated',
          );
          return [new GraphQLError(options.rateLimit.message, { extensions: { code: 'TOO_MANY_REQUESTS' } })];
        }
        // graphql-ws has recorded this one already: it counts itself.
        if (Object.keys(context.subscriptions).length > options.maxSubscriptions) {
          observability.operationRefused(
            undefined,
            undefined,
            payload.operationName,
            ['SUBSCRIPTION_LIMIT'],
            started,
            context.extra.authentication?.kind === 'authenticated',
          );
          return [
            new GraphQLError(
              `this connection already runs ${options.maxSubscriptions} operations (APP_GRAPHQL__MAX_SUBSCRIPTIONS); complete one first`,
              { extensions: { code: 'SUBSCRIPTION_LIMIT', limit: options.maxSubscriptions } },
            ),
          ];
        }
        const prepared = await options.preparer.prepare(
          payload,
          context.extra.authentication ?? { kind: 'anonymous' },
          'graphql-ws',
          context.extra.observation,
        );
        if (prepared.kind === 'refused') {
          observability.operationRefused(
            undefined,
            prepared.operation && operationLabel(prepared.operation),
            payload.operationName,
            prepared.errors.map(errorCode),
            started,
            context.extra.authentication?.kind === 'authenticated',
          );
          return prepared.errors;
        }
        this.sockets.set(prepared.args.contextValue, context.extra.socket);
        return prepared.args;
      },
      onNext: (context, _id, _payload, args, result) => {
        // A client already not taking its messages is closed before another one is serialised for
        // it, and nothing is serialised for a closed one (docs/hostile-input.md §16): what is sent
        // instead is never read.
        const { socket } = context.extra;
        if (socket.readyState !== WebSocket.OPEN) return { data: null };
        if (this.quotas.overBuffered(socket)) {
          closeSocket(socket, SLOW_CLIENT_CLOSE_CODE, 'the client does not take its messages');
          return { data: null };
        }
        // Errors reported beside the data (a has_many without batch context, docs/behaviour.md §5.10).
        const errors = [...(result.errors ?? []), ...(args.contextValue as GraphQLContext).loaders.drainReported()];
        const { maxBytes } = options.answers;
        // The byte budget counts what each message writes (docs/hostile-input.md §14): an answer past
        // it is never built — counting stops at the budget — and this event is answered RESPONSE_TOO_LARGE.
        const tooLarge = (): FormattedExecutionResult => {
          void options.answers.refused(context.extra.request);
          const refusal = new GraphQLError(answerTooLarge(maxBytes, 'APP_GRAPHQL__MAX_RESPONSE_BYTES').message, {
            extensions: { code: 'RESPONSE_TOO_LARGE' },
          });
          return { data: null, errors: [formatError(refusal, context.extra.observation.requestId).toJSON()] };
        };
        if (errors.length > 0) {
          const answered = { ...result, errors: errors.map((error) => formatError(error, context.extra.observation.requestId).toJSON()) };
          return jsonBytesWithin(answered, maxBytes) === undefined ? tooLarge() : answered;
        }
        // An answer without errors is the same for every subscription of its shape: serialised
        // once, and sent by a stand-in graphql-ws writes cheaply (sendMessage).
        let body = serialised.get(result);
        if (!body) {
          const text = jsonWithin(result, maxBytes);
          if (text === undefined) return tooLarge();
          body = Buffer.from(text);
          serialised.set(result, body);
        }
        const shared = nextShared++;
        pendingShared.set(shared, body);
        return { [SHARED_KEY]: shared } as ExecutionResult;
      },
      onError: (context, _id, _payload, errors) => errors.map((error) => formatError(error, context.extra.observation.requestId).toJSON()),
    });
  }

  /**
   * The socket transport of the GraphQL path `path`, to register with the server's
   * {@link SocketAcceptor}; it speaks `graphql-transport-ws` only (a client asking for nothing
   * else is closed with 4406).
   */
  transport(path: string): SocketTransport {
    return {
      name: 'graphql-ws',
      paths: [path],
      protocols: [GRAPHQL_TRANSPORT_WS_PROTOCOL],
      connect: (client, request) => this.connect(client, request),
    };
  }

  /** Runs the protocol on one accepted socket until it closes. */
  private connect(client: WebSocket, request: IncomingMessage): void {
    const closed = this.server.opened(
      {
        protocol: client.protocol,
        // Resolves once the frame is handed to the kernel, so a client that stops reading holds
        // its subscriptions back (they queue, boundedly); a socket gone meanwhile is no error.
        send: (data) =>
          new Promise<void>((resolve) => {
            const shared = sharedParts(data);
            if (client.readyState !== WebSocket.OPEN) return resolve();
            // A client that does not take its messages is closed, not sent more (docs/hostile-input.md §16).
            if (this.quotas.overBuffered(client)) {
              closeSocket(client, SLOW_CLIENT_CLOSE_CODE, 'the client does not take its messages');
              return resolve();
            }
            sendMessage(client, data, shared, resolve);
          }),
        close: (code, reason) => closeSocket(client, code ?? 1000, reason),
        onMessage: (handle) =>
          client.on('message', (data) => {
            handle(messageText(data)).catch((error: unknown) => {
              this.logger.error({ err: error }, 'graphql-ws failed to handle a message');
              closeSocket(client, 4500, 'internal server error');
            });
          }),
      },
      { socket: client, request, observation: new RequestObservation(socketRequestId(request)) },
    );
    client.once('close', (code, reason) => {
      closed(code, String(reason)).catch((error: unknown) => this.logger.error({ err: error }, 'graphql-ws failed to end a connection'));
    });
  }
}

/**
 * The graphql-ws transport: subscriptions (and queries, mutations) over WebSockets on
 * `APP_GRAPHQL__PATH`, through the server's GraphQL engine, with `APP_GRAPHQL__CONNECTION_INIT_TIMEOUT`
 * and `APP_GRAPHQL__MAX_SUBSCRIPTIONS`. Its socket path is registered with the server's acceptor.
 */
export function graphqlWs<Container>(): TransportFactory<Container> {
  return defineTransport('graphql-ws', ({ config, logger, verifier, graphql, observability, rateLimit, socketQuotas }): Transport => {
    const server = new SubscriptionServer({
      schema: graphql.schema,
      preparer: graphql.preparer,
      verifier,
      logger,
      connectionInitWaitTimeout: config.graphql.connectionInitTimeout,
      maxSubscriptions: config.graphql.maxSubscriptions,
      observability,
      rateLimit,
      quotas: socketQuotas,
      answers: answerBudget(config.graphql.maxResponseBytes, rateLimit),
    });
    return {
      name: 'graphql-ws',
      sockets: [server.transport(config.graphql.path)],
      entrypoints: [
        {
          name: 'subscriptions',
          path: config.graphql.path,
          description: 'GraphQL subscriptions (WebSocket, graphql-transport-ws)',
          scheme: 'websocket',
        },
      ],
    };
  });
}
