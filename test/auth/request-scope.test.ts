// Runs on: sqlite, postgresql
/**
 * No request path can lift the row scope (docs/hostile-input.md §4; docs/behaviour.md §5.9):
 * `runUnscoped` throws inside a request's context — REST, GraphQL, whatever a guard seeded — and
 * keeps working where no request is being served (seeds, migrations, jobs).
 */
import { createClient, type FormattedExecutionResult as ExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ANONYMOUS,
  currentContext,
  type RequestContext,
  runInContext,
  runUnscoped,
  UnscopedInRequestError,
} from '../../runtime/auth/context.js';
import { createGateways } from '../../generated/gateways.js';
import { gateways } from '../../runtime/transports/gateways/index.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { type InProcessServer, startInProcessServer, withTransport } from '../support/server.js';

describe('runUnscoped', () => {
  it('lifts the scope where no request is served, and nests', () => {
    expect(runUnscoped(() => currentContext().unscoped)).toBe(true);
    expect(runUnscoped(() => runUnscoped(() => currentContext().unscoped))).toBe(true);
  });

  it('throws inside any request context, naming the rule, and does not run its function', () => {
    const contexts: RequestContext[] = [
      { ...ANONYMOUS, transport: 'http' },
      { ...ANONYMOUS, transport: 'graphql-ws' },
      // What a guard may seed in place of the transport's context: still a request.
      { principal: undefined, ability: undefined, unscoped: false },
    ];
    for (const context of contexts) {
      let ran = false;
      const call = (): unknown =>
        runInContext(context, () =>
          runUnscoped(() => {
            ran = true;
          }),
        );
      expect(call).toThrow(UnscopedInRequestError);
      expect(call).toThrow(/request transports may not lift the row scope \(docs\/behaviour\.md §5\.9\)/);
      expect(ran).toBe(false);
    }
  });

  it('follows the request into timers and promise chains it starts', async () => {
    const attempt = await runInContext(
      { ...ANONYMOUS, transport: 'http' },
      () => new Promise<unknown>((resolve) => setTimeout(() => resolve(catching(() => runUnscoped(() => 'lifted'))), 1)),
    );
    expect(attempt).toBeInstanceOf(UnscopedInRequestError);
  });
});

function catching(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (error) {
    return error;
  }
}

describe('a service calling runUnscoped while serving a request', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    // As if UserService.list read through runUnscoped: every transport serving it must refuse.
    server = await startInProcessServer({
      adjust: (definition) => ({
        ...definition,
        createContainer: (database, services) => {
          const container = definition.createContainer(database, services);
          const list = container.userService.list.bind(container.userService);
          container.userService.list = (args) => runUnscoped(() => list(args));
          return container;
        },
        // And as if a gateway's handler lifted the scope.
        transports: withTransport(
          definition.transports,
          gateways((container) =>
            createGateways(container).map((gateway) => ({
              ...gateway,
              handlers: gateway.handlers.map((handler) => ({
                ...handler,
                handle: (data: unknown, call: Parameters<typeof handler.handle>[1]) => runUnscoped(() => handler.handle(data, call)),
              })),
            })),
          ),
        ),
      }),
    });
  });
  afterAll(async () => server?.stop());

  it('answers GraphQL with an internal error and shows no row, logging the rule', async () => {
    const result = await server.graphql('{ users(first: 100) { id orgId } }', { token: await server.token('admin') });
    expect(result.data).toBeNull();
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: 'internal server error',
        path: ['users'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String) as unknown },
      }),
    ]);
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        level: 50,
        err: expect.objectContaining({
          type: 'UnscopedInRequestError',
          message: expect.stringContaining('while serving a request (transport: graphql)'),
        }),
      }),
    );
  });

  it('answers REST with 500 and shows no row', async () => {
    const response = await fetch(`${server.url}/users?first=100`, { headers: { authorization: `Bearer ${await server.token('admin')}` } });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 500, code: 'INTERNAL_SERVER_ERROR', detail: 'internal server error' });
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        level: 50,
        err: expect.objectContaining({
          type: 'UnscopedInRequestError',
          message: expect.stringContaining('while serving a request (transport: http)'),
        }),
      }),
    );
  });

  it('answers a query over graphql-ws with an internal error', async () => {
    const token = await server.token('admin');
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<ExecutionResult<Record<string, unknown>, unknown>>((resolve, reject) => {
        let last: ExecutionResult<Record<string, unknown>, unknown> | undefined;
        client.subscribe(
          { query: '{ users(first: 100) { id } }' },
          { next: (value) => (last = value), error: reject, complete: () => resolve(last ?? {}) },
        );
      });
      expect(result.data).toBeNull();
      expect(result.errors).toEqual([
        expect.objectContaining({
          message: 'internal server error',
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String) as unknown },
        }),
      ]);
    } finally {
      await client.dispose();
    }
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        level: 50,
        err: expect.objectContaining({ message: expect.stringContaining('while serving a request (transport: graphql-ws)') }),
      }),
    );
  });

  it('answers a gateway message with an internal error', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v1/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const reply = new Promise<Record<string, unknown>>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(messageText(data)) as Record<string, unknown>)),
    );
    socket.send(JSON.stringify({ event: 'ping', data: 1 }));
    expect(await reply).toEqual({ event: 'ping', error: { code: 'INTERNAL_SERVER_ERROR', message: 'internal server error' } });
    socket.close();
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        level: 50,
        err: expect.objectContaining({ message: expect.stringContaining('while serving a request (transport: gateway)') }),
      }),
    );
  });
});
