/**
 * Protocol abuse on the subscription socket (RELIABILITY.md §6): every graphql-ws violation is answered
 * with the protocol's close code, an oversized frame with 1009, and a client that stops reading
 * is cut off (1013) once its subscription's bounded queue is full, instead of growing the
 * server's memory. Raw `ws` clients over real loopback sockets, so each violation is exact.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { messageText } from '../../runtime/transports/sockets.js';
import { rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PROTOCOL = 'graphql-transport-ws';

interface Closed {
  readonly code: number;
  readonly reason: string;
}

/** Opens a socket on the GraphQL path; resolves once open. */
function open(server: TestServer, protocol: string | string[] = PROTOCOL): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, protocol);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function closed(socket: WebSocket, within = 10_000): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not close the socket')), within);
    socket.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
}

function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(messageText(data)) as Record<string, unknown>)));
}

async function acknowledged(server: TestServer, token?: string): Promise<WebSocket> {
  const socket = await open(server);
  const ack = nextMessage(socket);
  socket.send(JSON.stringify({ type: 'connection_init', payload: token ? { Authorization: `Bearer ${token}` } : {} }));
  expect(await ack).toEqual({ type: 'connection_ack' });
  return socket;
}

const SUBSCRIPTION = 'subscription { postPublished { id title body } }';

describe('graphql-ws protocol violations', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { APP_GRAPHQL__CONNECTION_INIT_TIMEOUT: '500', APP_HTTP__BODY_LIMIT: '4kb' } });
  });
  afterAll(async () => server?.stop());

  it('closes 4406 when no subprotocol is asked for', async () => {
    const socket = await open(server, []);
    expect((await closed(socket)).code).toBe(4406);
  });

  it('closes 4406 on the legacy graphql-ws subprotocol (raw handshake, no client checks)', async () => {
    const handshake = [
      'GET /graphql HTTP/1.1',
      'Host: localhost',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Protocol: graphql-ws',
      '',
      '',
    ].join('\r\n');
    // Enough once the 101 and the first 4 bytes of a frame (header + close code) have arrived.
    const received = await rawExchange(server.url, handshake, {
      enough: (sofar) => sofar.indexOf('\r\n\r\n') >= 0 && sofar.length >= sofar.indexOf('\r\n\r\n') + 8,
    });
    const headerEnd = received.indexOf('\r\n\r\n');
    expect(received.subarray(0, headerEnd).toString()).toMatch(/^HTTP\/1\.1 101 /);
    const frame = received.subarray(headerEnd + 4);
    expect(frame[0]).toBe(0x88); // FIN + close opcode
    expect(frame.readUInt16BE(2)).toBe(4406);
  });

  it('closes 4400 on a message that is not a protocol message', async () => {
    for (const message of [
      'not json',
      JSON.stringify({ type: 'bogus' }),
      JSON.stringify({ type: 'subscribe' }),
      JSON.stringify([1, 2, 3]),
      '{"type":"connection_init","payload":"text"}',
    ]) {
      const socket = await open(server);
      const done = closed(socket);
      socket.send(message);
      expect((await done).code, message).toBe(4400);
    }
  });

  it('closes 4401 on subscribe before connection_ack', async () => {
    const socket = await open(server);
    const done = closed(socket);
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    expect((await done).code).toBe(4401);
  });

  it('closes 4408 when connection_init does not come in time', async () => {
    const socket = await open(server);
    const started = Date.now();
    expect((await closed(socket)).code).toBe(4408);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('closes 4409 on a second subscribe with an id in use', async () => {
    const socket = await acknowledged(server, await server.token('admin'));
    const done = closed(socket);
    socket.send(JSON.stringify({ id: 'same', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    socket.send(JSON.stringify({ id: 'same', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    expect((await done).code).toBe(4409);
  });

  it('closes 4409 on a reused id too long to quote in a close reason (the reason is cut, not thrown)', async () => {
    const socket = await acknowledged(server, await server.token('admin'));
    const done = closed(socket);
    const id = 'x'.repeat(200);
    socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    const { code, reason } = await done;
    expect(code).toBe(4409);
    expect(reason).toMatch(/^Subscriber for x+$/);
    expect(Buffer.byteLength(reason)).toBe(123);
  });

  it('closes 4429 on a second connection_init', async () => {
    const socket = await acknowledged(server);
    const done = closed(socket);
    socket.send(JSON.stringify({ type: 'connection_init' }));
    expect((await done).code).toBe(4429);
  });

  it('closes 1009 on a frame past APP_HTTP__BODY_LIMIT', async () => {
    const socket = await acknowledged(server, await server.token('admin'));
    const done = closed(socket);
    socket.send(JSON.stringify({ id: 'big', type: 'subscribe', payload: { query: `${SUBSCRIPTION}${' '.repeat(8192)}` } }));
    expect((await done).code).toBe(1009);
  });

  it('refuses @skip or @include at the root of a subscription as a validation error, keeping the socket (generated placements)', async () => {
    const socket = await acknowledged(server);
    const placements = [
      'subscription { postPublished @skip(if: true) { id } }',
      'subscription ($on: Boolean!) { postPublished @include(if: $on) { id } }',
      'subscription { ... @skip(if: true) { postPublished { id } } }',
      'subscription { ...Published } fragment Published on Subscription { postPublished @include(if: false) { id } }',
    ];
    for (const [index, query] of placements.entries()) {
      const answer = nextMessage(socket);
      socket.send(JSON.stringify({ id: String(index), type: 'subscribe', payload: { query, variables: { on: false } } }));
      const message = await answer;
      expect(message.type, query).toBe('error');
      expect(JSON.stringify(message.payload), query).toContain('may not be used at its root');
    }
    const pong = nextMessage(socket);
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await pong).toEqual({ type: 'pong' });
    socket.close();
    expect(server.logs.filter((entry) => entry.level === 50)).toEqual([]);
  });

  it('keeps answering HTTP and new sockets after all of that', async () => {
    expect((await server.fetch('/health')).status).toBe(200);
    const socket = await acknowledged(server, await server.token('admin'));
    socket.close(1000);
    expect(server.stderr()).toBe('');
    expect(server.logs.find((entry) => entry.msg === 'closed a WebSocket client that broke the framing rules')).toMatchObject({
      code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    });
  });
});

describe('a subscriber that stops reading', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { APP_GRAPHQL__SUBSCRIPTION_QUEUE: '8' } });
  });
  afterAll(async () => server?.stop());

  it('is closed with 1013 once its queue is full, while a reading subscriber gets every item', async () => {
    const token = await server.token('admin');
    const subscriptions = 40;
    const subscribe = (socket: WebSocket, id: string): void =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION } }));

    const stalled = await acknowledged(server, token);
    for (let index = 0; index < subscriptions; index += 1) subscribe(stalled, `s${index}`);
    const reader = await acknowledged(server, token);
    const received: string[] = [];
    reader.on('message', (data) => {
      const message = JSON.parse(messageText(data)) as { type: string; payload?: { data?: { postPublished?: { id: string } } } };
      if (message.type === 'next' && message.payload?.data?.postPublished) received.push(message.payload.data.postPublished.id);
    });
    subscribe(reader, 'r');
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Stop reading: the kernel buffers fill, sends stop completing, events queue up server-side.
    const stalledSocket = (stalled as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    stalledSocket.pause();
    let stalledReceived = 0;
    stalled.on('message', () => (stalledReceived += 1));
    const stalledClosed = closed(stalled, 60_000);

    // 10 000 three-byte characters per post: ~30 kB per item, × 40 subscriptions per publish.
    const published: string[] = [];
    const body = '€'.repeat(10_000);
    for (let index = 0; index < 60; index += 1) {
      const created = await server.fetch('/v2/posts', {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `flood ${index}`, body }),
      });
      const { id } = (await created.json()) as { id: string };
      expect((await server.fetch(`/v2/posts/${id}/publish`, { method: 'POST', token })).status).toBe(200);
      published.push(id);
      if (server.logs.some((entry) => entry.msg === 'closing a subscriber too slow to keep up')) break;
    }
    const warning = server.logs.find((entry) => entry.msg === 'closing a subscriber too slow to keep up');
    expect(warning, 'the server never gave up on the stalled subscriber').toMatchObject({ queued: 8, topic: 'postPublished' });

    stalledSocket.resume();
    expect((await stalledClosed).code).toBe(1013);
    expect(stalledReceived).toBeLessThan(published.length * subscriptions);

    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(published.length);
    expect(received).toEqual(published);
    reader.close(1000);
    expect((await server.fetch('/health')).status).toBe(200);
  }, 90_000);
});

describe('operations per graphql-ws connection (APP_GRAPHQL__MAX_SUBSCRIPTIONS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { APP_GRAPHQL__MAX_SUBSCRIPTIONS: '3' } });
  });
  afterAll(async () => server?.stop());

  it('refuses an operation past the bound with SUBSCRIPTION_LIMIT, keeps the others, and takes a new one once one completes', async () => {
    const socket = await acknowledged(server, await server.token('member'));
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(messageText(data)) as Record<string, unknown>));
    for (const id of ['1', '2', '3', '4']) socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    await expect
      .poll(() => messages.filter((message) => message.type === 'error'))
      .toEqual([
        {
          id: '4',
          type: 'error',
          payload: [
            expect.objectContaining({ extensions: { code: 'SUBSCRIPTION_LIMIT', limit: 3, requestId: expect.any(String) as unknown } }),
          ],
        },
      ]);
    socket.send(JSON.stringify({ id: '2', type: 'complete' }));
    socket.send(JSON.stringify({ id: '5', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
    // The three running subscriptions (1, 3, 5) each receive the next publish.
    const post = server.seeded.posts.find((candidate) => candidate.status === 'draft' && candidate.authorId === server.user('member').id);
    const published = await server.graphql<{ publishPost: { id: string } }>(`mutation { publishPost(id: "${post?.id}") { id } }`, {
      token: await server.token('member'),
    });
    expect(published.errors).toBeUndefined();
    await expect
      .poll(() =>
        messages
          .filter((message) => message.type === 'next')
          .map((message) => message.id)
          .sort(),
      )
      .toEqual(['1', '3', '5']);
    expect(messages.filter((message) => message.type === 'error')).toHaveLength(1);
    socket.close();
  });
});
