/**
 * Deeply nested JSON in socket messages (docs/hostile-input.md §1): a message well under the body
 * limit can nest thousands of levels, which writing it back as JSON would exhaust the stack on. A
 * gateway refuses `data` nested past MAX_DATA_DEPTH with BAD_USER_INPUT before its handler runs;
 * graphql-ws ignores variables the operation does not declare, however deep. Either way the socket
 * stays open, its other subscriptions keep running, and nothing is logged at error level.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_DATA_DEPTH } from '../../runtime/transports/gateways/index.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  // Messages up to 100 kB (the default body limit): 10 000 levels of `{"a":…}` are 60 kB.
  server = await startTestServer({ env: { APP_HTTP__BODY_LIMIT: '100kb' } });
});

afterAll(async () => server?.stop());

/**
 * `depth` levels of arrays and objects, alternating as `shape` says, around `1`, as JSON text: built
 * as text, since JSON.stringify itself runs out of stack a few thousand levels down.
 */
function nestedText(depth: number, shape: readonly ('array' | 'object')[]): string {
  const levels = Array.from({ length: depth }, (_, level) => shape[level % shape.length]);
  return `${levels.map((kind) => (kind === 'array' ? '[' : '{"a":')).join('')}1${levels
    .reverse()
    .map((kind) => (kind === 'array' ? ']' : '}'))
    .join('')}`;
}

/** Opens a socket at `path` with `protocol`; resolves once open. */
function open(path: string, protocol?: string): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}`, protocol);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `message` and resolves with the next message parsed. */
function exchange(socket: WebSocket, message: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 5_000);
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve(JSON.parse(messageText(data)) as Record<string, unknown>);
    });
    socket.send(message);
  });
}

/** Server log lines at error level or above, from `from` on. */
const errorsLoggedSince = (from: number): unknown[] => server.logs.slice(from).filter((entry) => Number(entry.level) >= 50);

const shape = fc.array(fc.constantFrom<'array' | 'object'>('array', 'object'), { minLength: 1, maxLength: 3 });

describe('a gateway message nested past the limit (docs/hostile-input.md §1)', () => {
  it('is refused with BAD_USER_INPUT, and anything up to the limit is answered, on a socket that stays open', async () => {
    const socket = await open('/v1/ws');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), shape, async (depth, levels) => {
        const logged = server.logs.length;
        const data = nestedText(depth, levels);
        const reply = await exchange(socket, `{"event":"ping","data":${data}}`);
        if (depth > MAX_DATA_DEPTH) {
          expect(reply).toEqual({
            event: 'ping',
            error: { code: 'BAD_USER_INPUT', message: `data nests deeper than ${MAX_DATA_DEPTH} levels` },
          });
        } else {
          expect(reply).toEqual({ event: 'ping', data: { pong: JSON.parse(data) as unknown } });
        }
        expect(errorsLoggedSince(logged)).toEqual([]);
        expect(socket.readyState).toBe(WebSocket.OPEN);
      }),
      {
        numRuns: 30,
        seed: PROPERTY_SEED,
        examples: [
          [MAX_DATA_DEPTH, ['array']],
          [MAX_DATA_DEPTH + 1, ['object']],
          [5_000, ['array']],
        ],
      },
    );
    socket.close();
  });
});

describe('graphql-ws variables the operation does not declare (docs/hostile-input.md §1)', () => {
  it('are ignored however deep: the subscription starts and the connection and its other subscriptions stay up', async () => {
    const socket = await open('/graphql', 'graphql-transport-ws');
    const token = await server.token('viewer');
    expect(await exchange(socket, JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }))).toEqual({
      type: 'connection_ack',
    });
    const query = 'subscription { postPublished { id } }';
    socket.send(JSON.stringify({ id: 'healthy', type: 'subscribe', payload: { query } }));
    let closed: number | undefined;
    socket.once('close', (code) => (closed = code));
    let next = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), shape, async (depth, levels) => {
        const logged = server.logs.length;
        const id = `deep-${String(next++)}`;
        socket.send(
          `{"id":"${id}","type":"subscribe","payload":{"query":${JSON.stringify(query)},"variables":{"x":${nestedText(depth, levels)}}}}`,
        );
        // A ping answered after the subscribe, and a moment more, for the server to have started it.
        expect(await exchange(socket, JSON.stringify({ type: 'ping' }))).toEqual({ type: 'pong' });
        await new Promise((resolve) => setTimeout(resolve, 30));
        socket.send(JSON.stringify({ id, type: 'complete' }));
        expect(closed).toBeUndefined();
        expect(errorsLoggedSince(logged)).toEqual([]);
      }),
      { numRuns: 20, seed: PROPERTY_SEED, examples: [[5_000, ['array']]] },
    );
    // The first subscription still runs: a publish reaches it.
    const admin = await server.token('admin');
    const draft = await server.graphql<{ createPost: { id: string } }>('mutation { createPost(input: { title: "Deep" }) { id } }', {
      token: admin,
    });
    const delivered = new Promise<Record<string, unknown>>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(messageText(data)) as Record<string, unknown>;
        if (message.id === 'healthy') resolve(message);
      }),
    );
    await server.graphql(`mutation { publishPost(id: "${draft.data?.createPost.id ?? ''}") { id } }`, { token: admin });
    expect(await delivered).toMatchObject({ id: 'healthy', type: 'next' });
    socket.close();
  });
});
