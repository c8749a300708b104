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
import { WebSocketServer } from 'ws';
import type { Authentication, TokenVerifier } from '../auth.js';
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
}

/** What graphql-ws keeps per connection. */
interface ConnectionExtra extends Record<PropertyKey, unknown> {
  authentication?: Authentication;
}

/** The bearer value of a `connection_init` payload, if any. */
export function credentialsOf(payload: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!payload) return undefined;
  const header = payload.Authorization ?? payload.authorization;
  if (typeof header === 'string') return header;
  return typeof payload.authToken === 'string' ? `Bearer ${payload.authToken}` : undefined;
}

/** An async iterator whose every step runs in `request`'s ambient context. */
function inContext<T>(source: AsyncIterableIterator<T> | AsyncGenerator<T>, request: RequestContext): AsyncIterableIterator<T> {
  const iterator: AsyncIterableIterator<T> = {
    next: () => runInContext(request, () => source.next()),
    return: async (value?: unknown) => (source.return ? source.return(value as never) : { done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** The graphql-ws server of the GraphQL path. */
export class SubscriptionServer {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly disposable: { dispose(): void | Promise<void> };

  constructor(options: SubscriptionServerOptions) {
    const formatError = createErrorFormatter(options.logger);
    this.disposable = useServer<Record<string, unknown>, ConnectionExtra>(
      {
        schema: options.schema,
        connectionInitWaitTimeout: options.connectionInitWaitTimeout ?? 10_000,
        execute: (args: ExecutionArgs) => runInContext((args.contextValue as GraphQLContext).request, () => executeWithCodes(args)),
        subscribe: async (args: ExecutionArgs) => {
          const request = (args.contextValue as GraphQLContext).request;
          const result = await runInContext(request, () => subscribe(args));
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
          return prepared.kind === 'refused' ? prepared.errors : prepared.args;
        },
        onNext: (_context, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((error) => formatError(error).toJSON()) } : result),
        onError: (_context, _id, _payload, errors) => errors.map((error) => formatError(error).toJSON()),
      },
      this.server,
    );
  }

  /** Takes over an upgrade request of the GraphQL path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.server.handleUpgrade(request, socket, head, (client) => this.server.emit('connection', client, request));
  }

  /** Closes every connection (1001, going away) and stops accepting. */
  async close(): Promise<void> {
    await this.disposable.dispose();
    this.server.close();
  }
}
