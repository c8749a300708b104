/**
 * What HTTP connections may make the server hold (docs/hostile-input.md §15): connections answering
 * at once per client address and per caller, each answer released when its client does not take it
 * within `APP_HTTP__WRITE_TIMEOUT`, and memory returned once the connections close. Generated floods
 * of connections that ask for 6 MB REST pages and read nothing, from one address, by generated
 * mixes of callers: exactly the connections past the caps are refused (429 with `Retry-After`), the
 * others cut off at the write timeout, `/health` answers meanwhile, and the server's memory stays
 * within what the caps allow. Raw TCP over loopback, each flood from its own loopback address.
 */
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../support/database.js';
import { collectGarbage, INSPECTABLE } from '../support/heap.js';
import { PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PER_ADDRESS = 12;
const PER_CALLER = 5;
const WRITE_TIMEOUT = 4_000;
/** Characters of each post's body: 100 of them make a page of about 6 MB, more than loopback's buffers take unread. */
const BODY = 60_000;
const CALLERS = 4;

let server: TestServer;
let tokens: string[];
/** The figures of every flood, reported at the end. */
const figures = {
  floods: 0,
  connections: 0,
  refused: 0,
  peakRssGrowthMb: 0,
  worstHealthMs: 0,
  controlHealthMs: 0,
  /** RSS above the collected baseline once every flood has closed, before and after a full collection. */
  rssAfterCloseMb: 0,
  rssAfterCollectionMb: 0,
  heapAfterCollectionMb: 0,
};

beforeAll(async () => {
  server = await startTestServer({
    seed: { orgs: 1, users: CALLERS, posts: 100 },
    env: {
      APP_HTTP__WRITE_TIMEOUT: String(WRITE_TIMEOUT),
      APP_HTTP__MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
      APP_HTTP__MAX_CONNECTIONS_PER_CALLER: String(PER_CALLER),
      ...INSPECTABLE,
    },
    prepare: async (databaseUrl) => {
      await runSql(databaseUrl, `UPDATE "Post" SET "body" = '${'b'.repeat(BODY)}', "status" = 'published'`);
    },
  });
  tokens = await Promise.all(server.seeded.users.map((user) => server.tokenFor(user)));
}, 120_000);

afterAll(async () => {
  reportFigures({ suite: 'connection-caps', ...figures });
  await server.stop();
});

/** A raw connection from `localAddress` that reads nothing until resumed; resolves once connected. */
function rawConnection(localAddress: string): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<void> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () =>
      resolve({ socket, received: () => Buffer.concat(chunks), closed }),
    );
    const closed = new Promise<void>((settle) => socket.once('close', () => settle()));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
  });
}

/** A request for a page of 100 posts with their bodies, as the caller of `token`. */
function pageRequest(token: string): string {
  return `GET /v2/posts?first=100 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`;
}

/** Milliseconds `/health` takes to answer (from 127.0.0.1, an address no flood uses). */
async function healthTime(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/health`);
  expect(response.status).toBe(200);
  return performance.now() - started;
}

/** Runs `during` while sampling the server's RSS every 50 ms; resolves with its result and the highest RSS seen. */
async function sampling<T>(during: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = server.rss();
  const timer = setInterval(() => (peak = Math.max(peak, server.rss())), 50);
  try {
    const result = await during();
    return { result, peak: Math.max(peak, server.rss()) };
  } finally {
    clearInterval(timer);
  }
}

const MB = 1024 * 1024;

describe('HTTP connections that do not read (docs/hostile-input.md §15)', () => {
  it('answers /health promptly with nothing else going on (the control run)', async () => {
    const times: number[] = [];
    for (let probe = 0; probe < 20; probe++) times.push(await healthTime());
    figures.controlHealthMs = Math.round(Math.max(...times));
  });

  it('refuses exactly the connections past the caps, releases the others at the write timeout, and stays bounded (generated)', async () => {
    // One 6 MB page, read: how long a whole answer is.
    const whole = await server.fetch('/v2/posts?first=100', { token: tokens[0] });
    expect(whole.status).toBe(200);
    const pageBytes = (await whole.arrayBuffer()).byteLength;
    expect(pageBytes).toBeGreaterThan(5 * MB);
    const baseline = await collectGarbage(server);
    const baselineRss = server.rss();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: CALLERS - 1 }), { minLength: 1, maxLength: 64 }), async (callers) => {
        run++;
        const address = `127.0.4.${String(run)}`;
        const before = server.rss();
        const connections = await Promise.all(callers.map(() => rawConnection(address)));
        const { result: healthTimes, peak } = await sampling(async () => {
          connections.forEach((connection, index) => {
            connection.socket.pause();
            connection.socket.write(pageRequest(tokens[callers[index] ?? 0] ?? ''));
          });
          // Until past the write timeout, while the flood reads nothing.
          const times: number[] = [];
          const until = performance.now() + WRITE_TIMEOUT + 1_000;
          while (performance.now() < until) {
            times.push(await healthTime());
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return times;
        });
        for (const connection of connections) connection.socket.resume();
        await Promise.all(connections.map((connection) => connection.closed));
        const statuses = connections.map((connection) => /^HTTP\/1\.1 (\d{3})/.exec(connection.received().toString('latin1', 0, 64))?.[1]);
        // The model: a connection is answered while its caller holds fewer than PER_CALLER and the
        // address fewer than PER_ADDRESS; whatever the order they arrive in, that many are answered.
        const perCaller = new Map<number, number>();
        for (const caller of callers) perCaller.set(caller, (perCaller.get(caller) ?? 0) + 1);
        const answered = Math.min(
          PER_ADDRESS,
          [...perCaller.values()].reduce((sum, count) => sum + Math.min(count, PER_CALLER), 0),
        );
        expect({
          answered: statuses.filter((status) => status === '200').length,
          refused: statuses.filter((status) => status === '429').length,
        }).toEqual({
          answered,
          refused: callers.length - answered,
        });
        for (const connection of connections) {
          const head = connection.received().toString('latin1', 0, 2_000);
          if (head.startsWith('HTTP/1.1 429')) expect(head).toMatch(/\r\nRetry-After: \d+\r\n/i);
          // Answered ones were cut off: the client took nothing within the write timeout.
          else expect(connection.received().length).toBeLessThan(pageBytes);
        }
        expect(Math.max(...healthTimes)).toBeLessThan(1_000);
        // Each answered connection holds its page (the rows, the JSON text and the bytes written,
        // about 3 × 6 MB); the refused ones hold nothing.
        expect(peak - before).toBeLessThan(PER_ADDRESS * 3 * pageBytes + 150 * MB);
        figures.floods++;
        figures.connections += callers.length;
        figures.refused += callers.length - answered;
        figures.peakRssGrowthMb = Math.max(figures.peakRssGrowthMb, Math.round((peak - before) / MB));
        figures.worstHealthMs = Math.max(figures.worstHealthMs, Math.round(Math.max(...healthTimes)));
      }),
      {
        numRuns: 6,
        seed: PROPERTY_SEED,
        // Always among the cases: the flood (one caller), and one of every caller past the address's cap.
        examples: [[Array.from({ length: 64 }, () => 0)], [Array.from({ length: 40 }, (_, index) => index % CALLERS)]],
      },
    );
    // Once the floods have closed the server holds none of their answers: what RSS still shows is
    // garbage V8 collects when its heap next grows (an idle server's does not), and a full
    // collection hands it back.
    figures.rssAfterCloseMb = Math.round((server.rss() - baselineRss) / MB);
    const collected = await collectGarbage(server);
    figures.heapAfterCollectionMb = Math.round((collected.heapUsed - baseline.heapUsed) / MB);
    figures.rssAfterCollectionMb = Math.round((server.rss() - baselineRss) / MB);
    expect(collected.heapUsed - baseline.heapUsed).toBeLessThan(20 * MB);
    expect(collected.external - baseline.external).toBeLessThan(10 * MB);
    expect(server.rss() - baselineRss).toBeLessThan(100 * MB);
  }, 300_000);
});
