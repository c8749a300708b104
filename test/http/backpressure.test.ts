/**
 * Connections that do not read (docs/hostile-input.md §15): a connection answers one request at a
 * time, so pipelined requests wait unrendered, and one with more than 16 waiting is closed; an
 * answer its client does not take within `APP_HTTP__WRITE_TIMEOUT` closes the connection.
 * Meanwhile `/health` answers. Raw TCP over loopback; generated pipeline lengths, and generated
 * counts of readers and stalled connections asking for answers of generated sizes.
 */
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../support/database.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Pipelined requests a connection may have waiting (runtime/http/listener.ts `MAX_PIPELINED`). */
const MAX_PIPELINED = 16;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    seed: { orgs: 1, users: 20, posts: 100 },
    env: { APP_HTTP__WRITE_TIMEOUT: '1000', APP_GRAPHQL__MAX_RESPONSE_BYTES: String(64 * 1024 * 1024) },
    prepare: async (databaseUrl) => {
      // 2 000 posts of 9 000 characters: an answer of about 18 MB, more than loopback's buffers take unread.
      await runSql(databaseUrl, `UPDATE "Post" SET "body" = '${'b'.repeat(9_000)}', "status" = 'published'`);
    },
  });
}, 120_000);

afterAll(async () => {
  await server.stop();
});

/** A raw connection to the server that reads nothing until told; resolves once connected. */
function rawConnection(): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<number> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const started = Date.now();
    const socket = connect(Number(port), hostname, () => resolve({ socket, received: () => Buffer.concat(chunks), closed }));
    const closed = new Promise<number>((settle) => socket.once('close', () => settle(Date.now() - started)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
  });
}

/** Milliseconds `/health` takes to answer. */
async function healthTime(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/health`);
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe('connections that do not read (docs/hostile-input.md §15)', () => {
  it('answers up to 17 pipelined requests and closes a connection that pipelines more (generated lengths)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (count) => {
        const { socket, received, closed } = await rawConnection();
        socket.end('GET /api-json HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(count));
        await closed;
        const answers = received().toString('latin1').split('HTTP/1.1 200 OK').length - 1;
        if (count <= MAX_PIPELINED + 1) expect(answers).toBe(count);
        else expect(answers).toBeLessThanOrEqual(MAX_PIPELINED + 1);
      }),
      { numRuns: 25, seed: PROPERTY_SEED },
    );
  }, 120_000);

  it('closes connections that pipeline thousands of requests and read nothing, while /health answers', async () => {
    const flooding = await Promise.all(Array.from({ length: 16 }, rawConnection));
    for (const { socket } of flooding) {
      socket.pause();
      socket.write('GET /api-json HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(3_000));
    }
    const times: number[] = [];
    for (let probe = 0; probe < 10; probe++) times.push(await healthTime());
    // Answering the 48 000 requests would keep the process busy for tens of seconds; 2 s leaves a
    // loaded 2-core machine room (a 1 s bound failed at 1 010 ms in one fresh-clone run).
    expect(Math.max(...times)).toBeLessThan(2_000);
    // Each is closed: past the pipeline bound at once, or after the write timeout with nothing taken.
    const lifetimes = await Promise.all(flooding.map(({ closed }) => closed));
    expect(Math.max(...lifetimes)).toBeLessThan(10_000);
  }, 60_000);

  it('gives readers their whole answer and holds no stalled one past APP_HTTP__WRITE_TIMEOUT, for generated sizes and counts', async () => {
    const token = await server.token('admin');
    const request = (users: number): string => {
      const body = JSON.stringify({ query: `{ users(first: ${String(users)}) { id posts(first: 100) { edges { node { body } } } } }` });
      return `POST /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\n\r\n${body}`;
    };
    const bodyOf = (answer: Buffer): Buffer => answer.subarray(answer.indexOf('\r\n\r\n') + 4);
    const fullLength = new Map<number, number>();
    const outcomes = { cut: 0, whole: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ reads: fc.boolean(), users: fc.integer({ min: 1, max: 20 }) }), { minLength: 1, maxLength: 6 }),
        async (clients) => {
          for (const { users } of clients) {
            if (!fullLength.has(users)) {
              const answer = await fetch(`${server.url}/graphql`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                body: request(users).split('\r\n\r\n')[1],
              });
              fullLength.set(users, (await answer.arrayBuffer()).byteLength);
            }
          }
          const before = server.rss();
          const connections = await Promise.all(clients.map(() => rawConnection()));
          connections.forEach((connection, index) => {
            if (clients[index]?.reads === false) connection.socket.pause();
            connection.socket.write(request(clients[index]?.users ?? 1));
          });
          // Past the timeout, while the stalled ones still read nothing.
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          expect(await healthTime()).toBeLessThan(1_000);
          expect(server.rss() - before).toBeLessThan(300 * 1024 * 1024);
          for (const connection of connections) connection.socket.resume();
          await Promise.all(connections.map((connection) => connection.closed));
          for (const [index, connection] of connections.entries()) {
            const { reads, users } = clients[index] ?? { reads: true, users: 1 };
            const body = bodyOf(connection.received());
            if (reads) {
              // A reader's answer is whole: every user asked for, each with their posts.
              expect(body.length).toBe(fullLength.get(users));
              expect((JSON.parse(body.toString('utf8')) as { data: { users: unknown[] } }).data.users).toHaveLength(users);
            } else {
              // A stalled one got what its buffers took (the whole answer when small), the rest released.
              expect(body.length).toBeLessThanOrEqual(fullLength.get(users) ?? 0);
              outcomes[body.length === fullLength.get(users) ? 'whole' : 'cut']++;
            }
          }
        },
      ),
      {
        numRuns: 4,
        seed: PROPERTY_SEED,
        // Always among the cases: a stalled large answer (cut) and a stalled small one (whole), beside readers.
        examples: [
          [
            [
              { reads: false, users: 20 },
              { reads: true, users: 20 },
              { reads: false, users: 1 },
            ],
          ],
        ],
      },
    );
    expect(outcomes.cut).toBeGreaterThan(0);
    expect(outcomes.whole).toBeGreaterThan(0);
  }, 120_000);

  it('closes a connection that does not take its answer within APP_HTTP__WRITE_TIMEOUT, and answers one that reads in time', async () => {
    const token = await server.token('admin');
    const body = JSON.stringify({ query: '{ users(first: 20) { id posts(first: 100) { edges { node { body } } } } }' });
    const request = `POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const stalled = await rawConnection();
    stalled.socket.pause();
    stalled.socket.write(request);
    // Past the timeout the server gives up the answer; reading then finds it cut short and the connection gone.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await healthTime()).toBeLessThan(1_000);
    stalled.socket.resume();
    await stalled.closed;
    const cut = stalled.received().toString('latin1');
    expect(cut.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(cut.length).toBeLessThan(18_000_000);
    // Read with a pause every chunk, but within the timeout: the whole answer arrives.
    const slow = await rawConnection();
    slow.socket.on('data', () => {
      slow.socket.pause();
      setTimeout(() => slow.socket.resume(), 2);
    });
    slow.socket.write(request.replace('Host: localhost', 'Host: localhost\r\nConnection: close'));
    await slow.closed;
    const answer = slow.received().toString('latin1');
    expect(answer.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(answer.length).toBeGreaterThan(18_000_000);
  }, 60_000);
});
