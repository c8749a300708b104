/**
 * What WebSocket clients may make the server hold (docs/hostile-input.md §16): sockets per caller
 * (graphql-ws and gateways together) and per address, subscriptions per caller across its
 * connections, and the bytes a socket may have waiting — a subscriber that stops reading while
 * heavy events (about 1 MB each) are published is closed with 1013 and the memory released, and
 * `/health` keeps answering; and, for generated counts of readers and paused sockets, shapes and
 * publishes, every reader served, every paused socket cut off or served, memory bounded. Real
 * server, raw `ws` clients over loopback.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { messageText } from '../../runtime/transports/sockets.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { runSql } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const PER_CALLER = 6;
const PER_ADDRESS = 10;
const SUBSCRIPTIONS = 5;

beforeAll(async () => {
  server = await startTestServer({
    seed: { orgs: 1, users: 3, posts: 100 },
    env: {
      APP_HTTP__MAX_SOCKETS_PER_CALLER: String(PER_CALLER),
      APP_HTTP__MAX_SOCKETS_PER_ADDRESS: String(PER_ADDRESS),
      APP_GRAPHQL__MAX_SUBSCRIPTIONS_PER_CALLER: String(SUBSCRIPTIONS),
      APP_HTTP__SOCKET_BUFFER_BYTES: String(256 * 1024),
    },
    prepare: async (databaseUrl) => {
      await runSql(databaseUrl, `UPDATE "Post" SET "body" = '${'b'.repeat(9_000)}'`);
    },
  });
}, 120_000);

afterAll(async () => {
  await server.stop();
});

/** An open socket and what it saw. */
interface Client {
  readonly socket: WebSocket;
  readonly messages: Record<string, unknown>[];
  readonly closed: Promise<number>;
}

/** Opens `path` from `localAddress` (graphql-ws: initialised with `token`); resolves once open (and acknowledged). */
async function open(path: string, options: { token?: string; localAddress?: string } = {}): Promise<Client> {
  const graphqlWs = path === '/graphql';
  const query = !graphqlWs && options.token ? `?token=${options.token}` : '';
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}${query}`, graphqlWs ? ['graphql-transport-ws'] : [], {
    localAddress: options.localAddress ?? '127.0.0.1',
  });
  const messages: Record<string, unknown>[] = [];
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('message', (data) => messages.push(JSON.parse(messageText(data)) as Record<string, unknown>));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  if (graphqlWs)
    socket.send(JSON.stringify({ type: 'connection_init', payload: options.token ? { Authorization: `Bearer ${options.token}` } : {} }));
  return { socket, messages, closed };
}

/** Resolves true once `client` closes within `ms`, false when it stays open. */
async function closesWithin(client: Client, ms: number): Promise<number | undefined> {
  return Promise.race([client.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
}

describe('what WebSocket clients may hold (docs/hostile-input.md §16)', () => {
  it('caps the sockets of one caller across graphql-ws and gateways, and of one address', async () => {
    const token = await server.token('member');
    const clients: Client[] = [];
    for (let index = 0; index < PER_CALLER; index++)
      clients.push(await open(index % 2 === 0 ? '/graphql' : '/v1/ws', { token, localAddress: '127.0.0.2' }));
    for (const client of clients) expect(await closesWithin(client, 200)).toBeUndefined();
    // One more, on either path, is closed with 1008 (policy).
    expect(await closesWithin(await open('/graphql', { token, localAddress: '127.0.0.3' }), 3_000)).toBe(1008);
    expect(await closesWithin(await open('/v1/ws', { token, localAddress: '127.0.0.3' }), 3_000)).toBe(1008);
    for (const client of clients) client.socket.close();
    await Promise.all(clients.map((client) => client.closed));
    // Closed ones free their places.
    const again = await open('/graphql', { token, localAddress: '127.0.0.2' });
    expect(await closesWithin(again, 200)).toBeUndefined();
    again.socket.close();
    // Anonymous sockets of one address hold their share of its places (APP_HTTP__ANONYMOUS_SHARE,
    // a quarter); signed-in callers of the address hold up to all of them.
    const anonymous: Client[] = [];
    for (let index = 0; index < Math.floor(PER_ADDRESS / 4); index++) anonymous.push(await open('/v1/ws', { localAddress: '127.0.0.4' }));
    expect(await closesWithin(await open('/v1/ws', { localAddress: '127.0.0.4' }), 3_000)).toBe(1008);
    const members: Client[] = [];
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const token = await server.token(role);
      for (let index = 0; index < PER_CALLER; index++) members.push(await open('/v1/ws', { token, localAddress: '127.0.0.4' }));
    }
    // 2 anonymous and 8 signed in fill the 10 places: the last 10 signed-in sockets are refused.
    const codes = await Promise.all(members.map((client) => closesWithin(client, 500)));
    expect(codes.filter((code) => code === undefined)).toHaveLength(PER_ADDRESS - anonymous.length);
    expect(codes.filter((code) => code === 1008)).toHaveLength(members.length - (PER_ADDRESS - anonymous.length));
    for (const client of [...anonymous, ...members]) client.socket.close();
  });

  it("caps one caller's subscriptions across its connections", async () => {
    const token = await server.token('admin');
    const [first, second] = [await open('/graphql', { token }), await open('/graphql', { token })];
    await expect.poll(() => first.messages.length + second.messages.length).toBe(2);
    for (let index = 0; index < SUBSCRIPTIONS + 1; index++) {
      (index % 2 === 0 ? first : second).socket.send(
        JSON.stringify({ id: String(index), type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }),
      );
    }
    // The one past the limit is answered with SUBSCRIPTION_LIMIT; the others run.
    const refusals = (): number =>
      [...first.messages, ...second.messages].filter((message) => JSON.stringify(message).includes('SUBSCRIPTION_LIMIT')).length;
    await expect.poll(refusals).toBe(1);
    // Refused ones hold no place: another is refused too, and completing a running one frees its place.
    first.socket.send(JSON.stringify({ id: 'past', type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }));
    await expect.poll(refusals).toBe(2);
    first.socket.send(JSON.stringify({ id: '0', type: 'complete' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    first.socket.send(JSON.stringify({ id: 'freed', type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(refusals()).toBe(2);
    first.socket.close();
    second.socket.close();
    await Promise.all([first.closed, second.closed]);
    // A closed connection frees all of its places.
    const third = await open('/graphql', { token });
    await expect.poll(() => third.messages.length).toBe(1);
    for (let index = 0; index < SUBSCRIPTIONS; index++)
      third.socket.send(
        JSON.stringify({ id: String(index), type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }),
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(third.messages.filter((message) => JSON.stringify(message).includes('SUBSCRIPTION_LIMIT'))).toEqual([]);
    third.socket.close();
  });

  it('closes a subscriber that stops reading heavy events with 1013, releasing its memory, while /health answers', async () => {
    const admin = await server.token('admin');
    const author = server.user('admin');
    const drafts = server.seeded.posts.filter((post) => post.authorId === author.id && post.status === 'draft').map((post) => post.id);
    expect(drafts.length).toBeGreaterThanOrEqual(20);
    const before = server.rss();
    const subscriber = await open('/graphql', { token: admin, localAddress: '127.0.0.5' });
    await expect.poll(() => subscriber.messages.length).toBe(1);
    // About 1 MB an event: the author's 100 posts with their bodies; several subscriptions, whose
    // messages wait on the socket side by side (each one's own are sent one after another).
    for (let index = 0; index < SUBSCRIPTIONS; index++) {
      subscriber.socket.send(
        JSON.stringify({
          id: `heavy${String(index)}`,
          type: 'subscribe',
          payload: { query: 'subscription { postPublished { author { posts(first: 100) { edges { node { body } } } } } }' },
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    subscriber.socket.pause();
    const healthTimes: number[] = [];
    for (const id of drafts.slice(0, 20)) {
      expect(
        (await server.graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', { token: admin, variables: { id } })).errors,
      ).toBeUndefined();
      const started = performance.now();
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      healthTimes.push(performance.now() - started);
    }
    // The subscriber is cut off once more than APP_HTTP__SOCKET_BUFFER_BYTES wait for it.
    subscriber.socket.resume();
    expect(await closesWithin(subscriber, 10_000)).toBe(1013);
    expect(Math.max(...healthTimes)).toBeLessThan(1_000);
    expect(server.rss() - before).toBeLessThan(300 * 1024 * 1024);
  }, 60_000);
});

const LIGHT = 'subscription { postPublished { id } }';
const HEAVY = 'subscription { postPublished { id author { posts(first: 100) { edges { node { body } } } } } }';

describe('subscription fan-out, generated (docs/hostile-input.md §16)', () => {
  it('delivers every publish to readers, cuts off or serves non-readers, refuses past the cap, and stays bounded', async () => {
    const admin = await server.token('admin');
    let run = 0;
    const outcomes = { closed: 0, served: 0 };
    await fc.assert(
      fc.asyncProperty(
        // Sockets (within the caller's cap), each reading or paused, with 1–3 subscriptions of
        // either shape; then 1–6 publishes.
        fc.array(fc.record({ reads: fc.boolean(), shapes: fc.array(fc.constantFrom(LIGHT, HEAVY), { minLength: 1, maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 1, max: 6 }),
        async (sockets, publishes) => {
          run++;
          const before = server.rss();
          const clients = await Promise.all(sockets.map(() => open('/graphql', { token: admin, localAddress: `127.0.1.${String(run)}` })));
          await Promise.all(clients.map((client) => expect.poll(() => client.messages.length).toBe(1)));
          sockets.forEach((socket, index) =>
            socket.shapes.forEach((query, id) =>
              clients[index]?.socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } })),
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 300));
          // Past the caller's cap, whichever socket they came on, the rest are refused.
          const refused = clients.map(
            (client) =>
              new Set(
                client.messages
                  .filter((message) => JSON.stringify(message).includes('SUBSCRIPTION_LIMIT'))
                  .map((message) => String(message.id)),
              ),
          );
          const total = sockets.reduce((sum, socket) => sum + socket.shapes.length, 0);
          expect(refused.reduce((sum, ids) => sum + ids.size, 0)).toBe(Math.max(0, total - SUBSCRIPTIONS));
          clients.forEach((client, index) => sockets[index]?.reads === false && client.socket.pause());
          const published: string[] = [];
          for (let index = 0; index < publishes; index++) {
            const created = await server.graphql<{ createPost: { id: string } }>(
              'mutation { createPost(input: { title: "fan-out" }) { id } }',
              { token: admin },
            );
            const id = created.data?.createPost.id ?? '';
            expect(
              (await server.graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', { token: admin, variables: { id } })).errors,
            ).toBeUndefined();
            published.push(id);
            const started = performance.now();
            expect((await fetch(`${server.url}/health`)).status).toBe(200);
            expect(performance.now() - started).toBeLessThan(1_000);
          }
          // A reader gets each publish once per running subscription, in order.
          const delivered = (client: Client, id: string): string[] =>
            client.messages
              .filter((message) => message.type === 'next' && message.id === id)
              .map((message) => String((message.payload as { data?: { postPublished?: { id?: string } } }).data?.postPublished?.id));
          for (const [index, client] of clients.entries()) {
            if (sockets[index]?.reads !== true) continue;
            for (const id of sockets[index].shapes.keys()) {
              if (refused[index]?.has(String(id)) === true) continue;
              await expect.poll(() => delivered(client, String(id))).toEqual(published);
            }
          }
          // A paused one, once it reads again, is either closed (more than its bytes waited) or served.
          for (const [index, client] of clients.entries()) {
            if (sockets[index]?.reads !== false) continue;
            let closed: number | undefined;
            void client.closed.then((code) => (closed = code));
            client.socket.resume();
            const running = [...sockets[index].shapes.keys()].map(String).filter((id) => refused[index]?.has(id) !== true);
            const served = (): boolean => running.every((id) => JSON.stringify(delivered(client, id)) === JSON.stringify(published));
            await expect.poll(() => closed !== undefined || served(), { timeout: 5_000 }).toBe(true);
            if (closed !== undefined) expect(closed).toBe(1013);
            outcomes[closed === undefined ? 'served' : 'closed']++;
          }
          expect(server.rss() - before).toBeLessThan(300 * 1024 * 1024);
          for (const client of clients) client.socket.close();
          await Promise.all(clients.map((client) => client.closed));
        },
      ),
      {
        numRuns: 8,
        seed: PROPERTY_SEED,
        // Always among the cases: a paused socket far behind (cut off) and one barely behind (served).
        examples: [
          [
            [
              { reads: false, shapes: [HEAVY, HEAVY, HEAVY] },
              { reads: true, shapes: [LIGHT] },
            ],
            6,
          ],
          [[{ reads: false, shapes: [LIGHT] }], 1],
        ],
      },
    );
    // Both ends of a paused socket's fate were exercised.
    expect(outcomes.closed).toBeGreaterThan(0);
    expect(outcomes.served).toBeGreaterThan(0);
  }, 120_000);
});

describe('each event executed once per shape (docs/hostile-input.md §16)', () => {
  it('runs one execution of an event for a caller’s identical subscriptions, and one per distinct shape', async () => {
    const metered = await startTestServer({
      seed: { orgs: 1, users: 3, posts: 4 },
      env: { APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0' },
    });
    try {
      const metricsUrl = metered.logs.map((entry) => entry.metrics).find((url): url is string => typeof url === 'string') ?? '';
      /** How many loader batches `Post.author` has run: one per execution of an event selecting it. */
      const authorBatches = async (): Promise<number> =>
        Number(/graphql_loader_batch_size_count\{relation="Post\.author"\} (\d+)/.exec(await (await fetch(metricsUrl)).text())?.[1] ?? 0);
      const token = await metered.token('admin');
      const socket = new WebSocket(`${metered.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws']);
      const messages: Record<string, unknown>[] = [];
      socket.on('message', (data) => messages.push(JSON.parse(messageText(data)) as Record<string, unknown>));
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }));
      await expect.poll(() => messages.length).toBe(1);
      // Five of one shape, and two more of two other shapes (other documents).
      const same = 'subscription { postPublished { id author { id } } }';
      for (let index = 0; index < 5; index++)
        socket.send(JSON.stringify({ id: `same${String(index)}`, type: 'subscribe', payload: { query: same } }));
      for (const name of ['A', 'B'])
        socket.send(
          JSON.stringify({
            id: `other${name}`,
            type: 'subscribe',
            payload: { query: `subscription ${name} { postPublished { id author { id } } }` },
          }),
        );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await authorBatches();
      const draft = metered.seeded.posts.find((post) => post.authorId === metered.user('admin').id && post.status === 'draft');
      expect(
        (await metered.graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', { token, variables: { id: draft?.id } })).errors,
      ).toBeUndefined();
      await expect.poll(() => messages.filter((message) => message.type === 'next').length).toBe(7);
      // One execution for the five, one for each of the other two.
      await expect.poll(authorBatches).toBe(before + 3);
      socket.close();
    } finally {
      await metered.stop();
    }
  });
});
