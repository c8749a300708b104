// Runs on: sqlite, postgresql
/**
 * Graceful shutdown (docs/decisions.md §4) on the provider under test: SIGTERM during a stream of writes
 * stops accepting, lets the writes in flight finish, closes WebSockets with 1001 (going away) and
 * the database, and exits 0 — and every write the server acknowledged is stored.
 */
import http from 'node:http';
import pg from 'pg';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import { testProvider } from '../support/database.js';
import { startTestServer } from '../support/server.js';

/** One POST /v2/posts on a keep-alive agent; resolves with the status and the id (when created). */
function createPost(url: string, token: string, title: string, agent: http.Agent): Promise<{ status: number; id?: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify({ title });
    const outgoing = http.request(
      `${url}/v2/posts`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            id: response.statusCode === 201 ? (JSON.parse(text) as { id: string }).id : undefined,
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/**
 * A POST /v2/posts whose body arrives in two halves: the request is in flight (headers received)
 * until `finish()` sends the rest. `response` settles with the status and id.
 */
function slowCreatePost(url: string, token: string, title: string): { finish(): void; response: Promise<{ status: number; id?: string }> } {
  const payload = JSON.stringify({ title });
  const half = Math.floor(payload.length / 2);
  let outgoing: http.ClientRequest | undefined;
  const response = new Promise<{ status: number; id?: string }>((resolve, reject) => {
    outgoing = http.request(
      `${url}/v2/posts`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            id: incoming.statusCode === 201 ? (JSON.parse(text) as { id: string }).id : undefined,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.flushHeaders();
    outgoing.write(payload.slice(0, half));
  });
  return { finish: () => outgoing?.end(payload.slice(half)), response };
}

/** The ids of every post stored in `databaseUrl`. */
async function storedPostIds(databaseUrl: string): Promise<Set<string>> {
  if (testProvider() === 'sqlite') {
    const sqlite = new Database(sqliteFilePath(databaseUrl), { readonly: true });
    try {
      return new Set((sqlite.prepare('SELECT id FROM "Post"').all() as { id: string }[]).map((row) => row.id));
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return new Set((await client.query<{ id: string }>('SELECT id FROM "Post"')).rows.map((row) => row.id));
  } finally {
    await client.end();
  }
}

/** Opens a WebSocket and resolves once it is open; `closed` settles with the close code. */
async function openSocket(url: string, protocol?: string): Promise<{ closed: Promise<number> }> {
  const socket = new WebSocket(url, protocol);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  if (protocol) socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  return { closed };
}

describe(`SIGTERM during a stream of writes (${testProvider()})`, () => {
  it('finishes the writes in flight, stores every acknowledged one, closes sockets with 1001 and exits 0', async () => {
    const server = await startTestServer({ env: { APP_HTTP__SHUTDOWN_TIMEOUT: '5000' } });
    const token = await server.token('member');
    const socketUrl = server.url.replace('http', 'ws');
    const gateway = await openSocket(`${socketUrl}/v1/ws?token=${encodeURIComponent(token)}`);
    const subscriptions = await openSocket(`${socketUrl}/graphql`, 'graphql-transport-ws');

    const acknowledged: string[] = [];
    const refused: unknown[] = [];
    // Four writers, each on its own keep-alive connection, writing until the server goes away.
    const writers = Array.from({ length: 4 }, async (_unused, writer) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let index = 0; ; index++) {
          const result = await createPost(server.url, token, `Writer ${writer} post ${index}`, agent).catch((error: unknown) => error);
          if (result instanceof Error) {
            refused.push(result);
            return;
          }
          const { status, id } = result as { status: number; id?: string };
          expect(status).toBe(201);
          if (id) acknowledged.push(id);
        }
      } finally {
        agent.destroy();
      }
    });

    const slow = slowCreatePost(server.url, token, 'Sent slowly across the shutdown');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const before = acknowledged.length;
    server.kill('SIGTERM');
    // The slow request was in flight when the signal came: it still gets its answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    slow.finish();
    const finished = await slow.response;
    expect(finished.status).toBe(201);
    acknowledged.push(finished.id ?? 'missing');
    const [exit] = await Promise.all([server.exited, ...writers]);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(before).toBeGreaterThan(0);
    // Writers stop because the server stopped accepting, not because a request failed half-way.
    expect(refused).toHaveLength(4);
    expect(await gateway.closed).toBe(1001);
    expect(await subscriptions.closed).toBe(1001);
    const stored = await storedPostIds(server.databaseUrl);
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(before);
  });
});

describe(`APP_HTTP__SHUTDOWN_TIMEOUT (${testProvider()})`, () => {
  it('bounds the wait for a request that never finishes, then closes it and exits 0', async () => {
    const server = await startTestServer({ env: { APP_HTTP__SHUTDOWN_TIMEOUT: '500' } });
    const stuck = slowCreatePost(server.url, await server.token('member'), 'Never finished');
    const outcome = stuck.response.then(
      (response) => response.status,
      (error: unknown) => (error as Error).message,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalled = Date.now();
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const waited = Date.now() - signalled;
    expect(waited).toBeGreaterThanOrEqual(450);
    expect(waited).toBeLessThan(5_000);
    expect(await outcome).toMatch(/socket hang up|ECONNRESET/);
    expect(server.logs.some((entry) => String(entry.msg).includes('shutdown timeout (500 ms) reached'))).toBe(true);
  });

  it('waits for handlers whose clients hung up before closing the database', async () => {
    const server = await startTestServer({ seed: { orgs: 2, users: 20, posts: 5 } });
    const token = await server.token('admin');
    const nested = JSON.stringify({
      query: '{ users(first: 100) { id org { id name } posts(first: 20) { edges { node { id title author { id name } } } } } }',
    });
    // Clients that give up after a few milliseconds, while their queries still run.
    const abandoned = Array.from({ length: 150 }, (_, index) =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: nested,
        signal: AbortSignal.timeout(20 + (index % 40)),
      }).catch(() => undefined),
    );
    // Every client has given up; most queries are still queued or running.
    await new Promise((resolve) => setTimeout(resolve, 80));
    server.kill('SIGTERM');
    await Promise.all(abandoned);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const errors = server.logs.filter((entry) => Number(entry.level) >= 50);
    expect(errors.map((entry) => entry.msg)).toEqual([]);
  });
});

describe(`APP_HTTP__DRAIN_DELAY (${testProvider()})`, () => {
  it('answers /health 503 draining and still serves requests for the delay after SIGTERM, then closes sockets with 1001 and exits 0', async () => {
    const server = await startTestServer({ env: { APP_HTTP__DRAIN_DELAY: '1500' } });
    const token = await server.token('member');
    const subscriptions = await openSocket(`${server.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const socketClosedAt = subscriptions.closed.then((code) => ({ code, at: Date.now() }));
    const before = await fetch(`${server.url}/health`);
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ status: 'ok' });

    const signalled = Date.now();
    server.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${server.url}/health`)).status, { timeout: 1_000, interval: 50 }).toBe(503);
    const draining = await fetch(`${server.url}/health`);
    expect(await draining.json()).toMatchObject({ status: 'draining', db: 'ok' });
    // New connections and requests are still served while the balancer takes the process out.
    const read = await fetch(`${server.url}/v2/posts?first=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
    const write = await createPost(server.url, token, 'Written while draining', new http.Agent());
    expect(write.status).toBe(201);
    expect(Date.now() - signalled).toBeLessThan(1_500);

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const closed = await socketClosedAt;
    expect(closed.code).toBe(1001);
    expect(closed.at - signalled).toBeGreaterThanOrEqual(1_400);
    expect(server.logs.some((entry) => String(entry.msg).startsWith('draining: /health answers 503 for 1500 ms'))).toBe(true);
    const stored = await storedPostIds(server.databaseUrl);
    expect(stored.has(write.id ?? 'missing')).toBe(true);
  });
});
