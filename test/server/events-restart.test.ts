// Runs on: postgresql
/**
 * Subscription events across a PostgreSQL restart (docs/decisions.md §4, docs/behaviour.md §4.1):
 * two workers behind one port, subscribers on both, a publisher writing and publishing posts as fast
 * as it is answered, and the database restarted under it at generated moments for generated
 * downtimes. Every publish the server acknowledged reaches every subscriber, once: the event record
 * is caught up from after the listener reconnects, and a publisher that could not reach the
 * database records its events once it can. A process cut off longer than the replay window ends its
 * subscriptions with `EVENTS_MISSED`, its resume signal. Runs in the postgresql project only, on a
 * cluster of its own.
 */
import http from 'node:http';
import fc from 'fast-check';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase } from '../support/database.js';
import { PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { type PostgresCluster, startCluster } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

const eventually = async (check: () => boolean | Promise<boolean>, timeout: number): Promise<void> => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** One request on a connection of its own (the cluster's scheduler may hand it to either worker); the status, or 0 when the connection failed. */
function request(url: string, method: string, token: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          connection: 'close',
          authorization: `Bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    outgoing.on('error', () => resolve({ status: 0, body: undefined }));
    outgoing.end(payload);
  });
}

/** A subscriber to `postPublished` on a socket of its own: the ids it was sent, and the codes of the errors. */
interface Subscriber {
  readonly client: Client;
  readonly ids: string[];
  readonly codes: string[];
  completed: boolean;
  readonly ready: Promise<void>;
}

function subscriber(server: TestServer, token: string): Subscriber {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
  });
  let acknowledged = (): void => undefined;
  const ready = new Promise<void>((resolve) => (acknowledged = resolve));
  const each: Subscriber = { client, ids: [], codes: [], completed: false, ready };
  client.on('connected', () => setTimeout(acknowledged, 200));
  client.subscribe<{ postPublished: { id: string } }>(
    { query: 'subscription { postPublished { id } }' },
    {
      next: (value) => {
        if (value.data) each.ids.push(value.data.postPublished.id);
        for (const error of value.errors ?? []) each.codes.push(String(error.extensions?.code));
      },
      error: () => undefined,
      complete: () => (each.completed = true),
    },
  );
  return each;
}

/** Creates a draft and publishes it, each on a fresh connection; the id when the publish was acknowledged. */
async function createAndPublish(server: TestServer, token: string, title: string): Promise<string | undefined> {
  const created = await request(`${server.url}/v2/posts`, 'POST', token, { title });
  const id = (created.body as { id?: string } | undefined)?.id;
  if (created.status !== 201 || !id) return undefined;
  const published = await request(`${server.url}/v2/posts/${id}/publish`, 'POST', token);
  return published.status === 200 ? id : undefined;
}

describe('events across a PostgreSQL restart, two workers', () => {
  let cluster: PostgresCluster;
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    // A cluster of its own: restarting it must not disturb the suites sharing the test cluster.
    cluster = await startCluster();
    const databaseUrl = await createTestDatabase('postgresql', cluster.url);
    server = await startTestServer({ databaseUrl, seed: { orgs: 1, users: 3, posts: 2 }, env: { APP_HTTP__WORKERS: '2' } });
    admin = await server.token('admin');
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  it('delivers every acknowledged publish to every subscriber exactly once, whenever the database restarts (generated moments and downtimes)', async () => {
    const figures: { acknowledged: number; refused: number; downtime: number }[] = [];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1_500 }), fc.integer({ min: 0, max: 2_000 }), async (before, downtime) => {
        // Four sockets: the round-robin scheduler spreads them, and the publishes, over both workers.
        const subscribers = Array.from({ length: 4 }, () => subscriber(server, admin));
        try {
          await Promise.all(subscribers.map((each) => each.ready));
          const acknowledged: string[] = [];
          let refused = 0;
          let publishing = true;
          const publisher = (async () => {
            for (let index = 0; publishing; index++) {
              const id = await createAndPublish(server, admin, `Across a restart ${String(index)}`);
              if (id) acknowledged.push(id);
              else {
                refused += 1;
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            }
          })();
          await new Promise((resolve) => setTimeout(resolve, before));
          cluster.stop();
          await new Promise((resolve) => setTimeout(resolve, downtime));
          cluster.start();
          // Publishing on after the restart, until writes are acknowledged again for a while.
          const resumed = acknowledged.length;
          await eventually(() => acknowledged.length >= resumed + 10, 30_000);
          publishing = false;
          await publisher;
          await eventually(() => subscribers.every((each) => each.ids.length >= acknowledged.length), 20_000).catch(() => undefined);
          figures.push({ acknowledged: acknowledged.length, refused, downtime });
          for (const each of subscribers) {
            expect(each.codes).toEqual([]);
            expect(
              acknowledged.filter((id) => !each.ids.includes(id)),
              'acknowledged publishes a subscriber never got',
            ).toEqual([]);
            // Once each: no event delivered twice by a catch-up.
            expect(each.ids.length).toBe(new Set(each.ids).size);
          }
        } finally {
          await Promise.all(subscribers.map(async (each) => each.client.dispose()));
        }
      }),
      { numRuns: 3, seed: PROPERTY_SEED, endOnFailure: true },
    );
    reportFigures({ suite: 'events-restart', runs: figures });
  }, 240_000);
});

describe('a process cut off longer than the replay window', () => {
  let cluster: PostgresCluster;
  let server: TestServer;

  beforeAll(async () => {
    cluster = await startCluster();
    const databaseUrl = await createTestDatabase('postgresql', cluster.url);
    server = await startTestServer({
      databaseUrl,
      seed: { orgs: 1, users: 3, posts: 2 },
      env: { APP_GRAPHQL__EVENT_REPLAY_WINDOW: '1500' },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  it('ends its subscriptions with EVENTS_MISSED once it listens again, and a new subscription is sent events', async () => {
    const token = await server.token('admin');
    const cut = subscriber(server, token);
    await cut.ready;
    try {
      cluster.stop();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      cluster.start();
      await eventually(() => cut.completed, 30_000);
      expect(cut.codes).toEqual(['EVENTS_MISSED']);
      // The resume signal acted on: a new subscription hears what is published next.
      const again = subscriber(server, token);
      await again.ready;
      try {
        let id: string | undefined;
        await eventually(async () => (id ??= await createAndPublish(server, token, 'After the window')) !== undefined, 20_000);
        await eventually(() => again.ids.includes(id ?? ''), 10_000);
        expect(again.codes).toEqual([]);
      } finally {
        await again.client.dispose();
      }
    } finally {
      await cut.client.dispose();
    }
  }, 90_000);
});
