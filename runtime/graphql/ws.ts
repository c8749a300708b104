/**
 * Subscriptions over the graphql-ws protocol on the GraphQL path (spec §1, §4.1), on the same HTTP
 * server. The token comes in the `connection_init` payload (`Authorization: "Bearer …"` or
 * `authToken`); an invalid one closes the connection (4403). Each subscribe message is prepared like
 * an HTTP operation — cached validation, limits, guards — so the subscription is gated at subscribe
 * time, and every item is produced inside the subscriber's ambient context, filtered by their
 * ability and masked by the generated resolvers.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionArgs, type GraphQLSchema, subscribe } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Authentication, TokenVerifier } from '../auth.js';
import { asSubscriber, SlowConsumerError } from '../events.js';
import { type RequestContext, runInContext } from '../context.js';
import type { GraphQLContext } from './context.js';
import { createErrorFormatter } from './errors.js';
import { executeWithCodes } from './http.js';
import type { OperationPreparer } from './prepare.js';

/** Options of {@link SubscriptionServer}. */
export interface SubscriptionServerOptions {
  readonly schema: GraphQLSchema;
  readonly preparer: OperationPreparer;
  readonly verifier: TokenVerifier;
  readonly logger: Logger;
  /** Milliseconds a client has to send `connection_init` (protocol close 4408 after). */
  readonly connectionInitWaitTimeout?: number;
  /** Largest message accepted from a client, in bytes (close 1009 past it). */
  readonly maxPayload: number;
}

/** WebSocket close code for a subscriber that cannot keep up (RFC 6455 "try again later"). */
export const SLOW_CONSUMER_CLOSE_CODE = 1013;

/** What graphql-ws keeps per connection. */
interface ConnectionExtra extends Record<PropertyKey, unknown> {
  authentication?: Authentication;
  /** Set by graphql-ws's `ws` binding. */
  readonly socket: WebSocket;
}

/** The bearer value of a `connection_init` payload, if any. */
export function credentialsOf(payload: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!payload) return undefined;
  const header = payload.Authorization ?? payload.authorization;
  if (typeof header === 'string') return header;
  return typeof payload.authToken === 'string' ? `Bearer ${payload.authToken}` : undefined;
}

/**
 * An async iterator whose every step runs in `request`'s ambient context. A subscription dropped
 * as too slow ({@link SlowConsumerError}) simply ends: its connection is already being closed.
 */
function inContext<T>(source: AsyncIterableIterator<T> | AsyncGenerator<T>, request: RequestContext): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    next: async () => {
      try {
        return await runInContext(request, () => source.next());
      } catch (error) {
        if (error instanceof SlowConsumerError) return { done: true, value: undefined };
        throw error;
      }
    },
    return: async (value?: unknown) => (source.return ? source.return(value as never) : { done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * `ws` reports a client's framing faults (a frame past `maxPayload`, a bad opcode, invalid UTF-8)
 * as an `error` event after it has already closed the socket with the matching code (1009, 1002,
 * 1007); graphql-ws would print each one with a stack to stderr as if the server were broken.
 * Log them as what they are, one warning naming the fault.
 */
function logClientFaults(client: WebSocket, logger: Logger): void {
  const emit = client.emit.bind(client);
  client.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'error') return emit(event, ...args);
    const fault = args[0] as Error & { code?: string };
    logger.warn({ code: fault.code, reason: fault.message }, 'closed a WebSocket client that broke the framing rules');
    return true;
  }) as WebSocket['emit'];
}

/** The graphql-ws server of the GraphQL path. */
export class SubscriptionServer {
  private readonly server: WebSocketServer;
  private readonly disposable: { dispose(): void | Promise<void> };
  /** The socket each subscription's context belongs to (set at subscribe time). */
  private readonly sockets = new WeakMap<object, WebSocket>();

  private readonly logger: Logger;

  constructor(options: SubscriptionServerOptions) {
    this.logger = options.logger;
    this.server = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
    const formatError = createErrorFormatter(options.logger);
    this.disposable = useServer<Record<string, unknown>, ConnectionExtra>(
      {
        schema: options.schema,
        connectionInitWaitTimeout: options.connectionInitWaitTimeout ?? 10_000,
        execute: (args: ExecutionArgs) => runInContext((args.contextValue as GraphQLContext).request, () => executeWithCodes(args)),
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
          const result = await asSubscriber(onSlowConsumer, () => runInContext(request, () => subscribe(args)));
          return Symbol.asyncIterator in result ? inContext(result, request) : result;
        },
        onConnect: async (context) => {
          const authentication = await options.verifier.authenticate(credentialsOf(context.connectionParams));
          if (authentication.kind === 'rejected') return false;
          context.extra.authentication = authentication;
          return true;
        },
        onSubscribe: async (context, _id, payload) => {
          const prepared = await options.preparer.prepare(payload, context.extra.authentication ?? { kind: 'anonymous' }, 'graphql-ws');
          if (prepared.kind === 'refused') return prepared.errors;
          this.sockets.set(prepared.args.contextValue as object, context.extra.socket);
          return prepared.args;
        },
        onNext: (_context, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((error) => formatError(error).toJSON()) } : result),
        onError: (_context, _id, _payload, errors) => errors.map((error) => formatError(error).toJSON()),
      },
      this.server,
    );
  }

  /** Takes over an upgrade request of the GraphQL path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.server.handleUpgrade(request, socket, head, (client) => {
      logClientFaults(client, this.logger);
      this.server.emit('connection', client, request);
    });
  }

  /** Closes every connection (1001, going away) and stops accepting. */
  async close(): Promise<void> {
    await this.disposable.dispose();
    this.server.close();
  }
}
