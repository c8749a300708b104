/**
 * Caps that cannot be used against others (docs/hostile-input.md §16): anonymous WebSockets — a
 * gateway opened without a token, graphql-ws after an empty `connection_init` — hold at most
 * `APP_HTTP__ANONYMOUS_SHARE` of their address's places, sockets that never say who they are wait
 * in a room the next one sends the longest waiting away from, and a signed-in member behind the same
 * address is refused only by its own cap or by other signed-in callers filling the address. Generated
 * sequences of anonymous, silent and member sockets from one loopback address, against a model of
 * the places; real server, raw `ws` clients.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PER_ADDRESS = 8;
const SHARE = 0.25;
const ANONYMOUS = Math.floor(PER_ADDRESS * SHARE);
const PER_CALLER = 3;
const MEMBERS = 3;

let server: TestServer;
let tokens: string[];
const figures = {
  cases: 0,
  sockets: 0,
  anonymousRefused: 0,
  memberRefused: 0,
  sentAway: 0,
  peakRssGrowthMb: 0,
  worstHealthMs: 0,
  controlHealthMs: 0,
};

beforeAll(async () => {
  server = await startTestServer({
    seed: { orgs: 1, users: MEMBERS, posts: 1 },
    env: {
      APP_HTTP__MAX_SOCKETS_PER_ADDRESS: String(PER_ADDRESS),
      APP_HTTP__MAX_SOCKETS_PER_CALLER: String(PER_CALLER),
      APP_HTTP__ANONYMOUS_SHARE: String(SHARE),
    },
  });
  tokens = await Promise.all(server.seeded.users.map((user) => server.tokenFor(user)));
}, 120_000);

afterAll(async () => {
  reportFigures({ suite: 'socket-places', ...figures });
  await server.stop();
});

/** One socket a case opens: anonymous or a member's, on a gateway or graphql-ws, or graphql-ws never initialised. */
type Opening =
  | { readonly kind: 'anonymous'; readonly path: '/v1/ws' | '/graphql' }
  | { readonly kind: 'member'; readonly member: number; readonly path: '/v1/ws' | '/graphql' }
  | { readonly kind: 'silent' };

/** An open socket and how it ended, if it did. */
interface Opened {
  readonly socket: WebSocket;
  code: number | undefined;
}

/**
 * Opens `opening` from `localAddress`; resolves once its fate at opening is known: a gateway answers
 * a ping or is closed, graphql-ws acknowledges `connection_init` or is closed; a silent one once open.
 */
async function open(opening: Opening, localAddress: string): Promise<Opened> {
  const path = opening.kind === 'silent' ? '/graphql' : opening.path;
  const token = opening.kind === 'member' ? tokens[opening.member] : undefined;
  const graphqlWs = path === '/graphql';
  const query = !graphqlWs && token ? `?token=${token}` : '';
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}${query}`, graphqlWs ? ['graphql-transport-ws'] : [], {
    localAddress,
  });
  const opened: Opened = { socket, code: undefined };
  const closed = new Promise<void>((resolve) =>
    socket.once('close', (code) => {
      opened.code = code;
      resolve();
    }),
  );
  const answered = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  if (opening.kind === 'silent') return opened;
  if (graphqlWs) socket.send(JSON.stringify({ type: 'connection_init', payload: token ? { Authorization: `Bearer ${token}` } : {} }));
  else socket.send(JSON.stringify({ event: 'ping', data: 1 }));
  await Promise.race([answered, closed]);
  return opened;
}

/** The model of one address's places: what each opening's socket ends as (undefined: open, else its close code). */
function model(openings: readonly Opening[]): (number | undefined)[] {
  const outcome: (number | undefined)[] = [];
  const waiting: number[] = [];
  let anonymous = 0;
  let total = 0;
  const members = new Map<number, number>();
  for (const [index, opening] of openings.entries()) {
    // Every graphql-ws socket waits until its connection_init; one more than the address's places
    // sends the longest waiting away.
    const path = opening.kind === 'silent' ? '/graphql' : opening.path;
    if (path === '/graphql') {
      if (waiting.length >= PER_ADDRESS) outcome[waiting.shift() ?? 0] = 1008;
      waiting.push(index);
    }
    outcome[index] = undefined;
    if (opening.kind === 'silent') continue;
    if (path === '/graphql') waiting.pop();
    if (opening.kind === 'anonymous') {
      if (anonymous >= ANONYMOUS || total >= PER_ADDRESS) outcome[index] = 1008;
      else {
        anonymous++;
        total++;
      }
    } else {
      const held = members.get(opening.member) ?? 0;
      if (held >= PER_CALLER || total >= PER_ADDRESS) outcome[index] = 1008;
      else {
        members.set(opening.member, held + 1);
        total++;
      }
    }
  }
  return outcome;
}

const openingArbitrary: fc.Arbitrary<Opening> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('/v1/ws' as const, '/graphql' as const).map((path) => ({ kind: 'anonymous' as const, path })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ member: fc.integer({ min: 0, max: MEMBERS - 1 }), path: fc.constantFrom('/v1/ws' as const, '/graphql' as const) })
      .map(({ member, path }) => ({ kind: 'member' as const, member, path })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'silent' as const }) },
);

/** Milliseconds `/health` takes to answer (from 127.0.0.1, an address no case uses). */
async function healthTime(): Promise<number> {
  const started = performance.now();
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  return performance.now() - started;
}

describe('anonymous sockets beside members on one address (docs/hostile-input.md §16)', () => {
  it('keeps anonymous sockets to their share, so a member under its cap always gets a place (generated)', async () => {
    const control: number[] = [];
    for (let probe = 0; probe < 10; probe++) control.push(await healthTime());
    figures.controlHealthMs = Math.round(Math.max(...control));
    const before = server.rss();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(openingArbitrary, { minLength: 1, maxLength: 40, size: 'medium' }), async (openings) => {
        run++;
        const address = `127.0.5.${String(run)}`;
        const sockets: Opened[] = [];
        try {
          for (const opening of openings) sockets.push(await open(opening, address));
          figures.worstHealthMs = Math.max(figures.worstHealthMs, Math.round(await healthTime()));
          figures.peakRssGrowthMb = Math.max(figures.peakRssGrowthMb, Math.round((server.rss() - before) / (1024 * 1024)));
          await new Promise((resolve) => setTimeout(resolve, 200));
          const expected = model(openings);
          expect(sockets.map((socket) => socket.code)).toEqual(expected);
          // The guarantee itself: a member refused while it held fewer than PER_CALLER found members
          // holding all the places anonymous sockets cannot take.
          const members = new Map<number, number>();
          for (const [index, opening] of openings.entries()) {
            if (opening.kind !== 'member') continue;
            const held = members.get(opening.member) ?? 0;
            if (expected[index] === undefined) members.set(opening.member, held + 1);
            else if (held < PER_CALLER)
              expect([...members.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(PER_ADDRESS - ANONYMOUS);
          }
          figures.cases++;
          figures.sockets += openings.length;
          for (const [index, opening] of openings.entries()) {
            if (expected[index] !== 1008) continue;
            if (opening.kind === 'anonymous') figures.anonymousRefused++;
            else if (opening.kind === 'member') figures.memberRefused++;
            else figures.sentAway++;
          }
        } finally {
          for (const socket of sockets) socket.socket.terminate();
          await Promise.all(
            sockets.map((socket) =>
              socket.socket.readyState === WebSocket.CLOSED
                ? Promise.resolve()
                : new Promise<void>((resolve) => socket.socket.once('close', () => resolve())),
            ),
          );
        }
      }),
      {
        numRuns: 25,
        seed: PROPERTY_SEED,
        examples: [
          // The flood: the address filled with anonymous sockets, then a member on both paths.
          [
            [
              ...Array.from({ length: PER_ADDRESS - 1 }, (): Opening => ({ kind: 'anonymous', path: '/v1/ws' })),
              { kind: 'member', member: 0, path: '/graphql' },
              { kind: 'member', member: 0, path: '/v1/ws' },
            ],
          ],
          // Graphql-ws sockets that never initialise, past the waiting room, then a member.
          [
            [
              ...Array.from({ length: PER_ADDRESS + 2 }, (): Opening => ({ kind: 'silent' })),
              { kind: 'member', member: 1, path: '/graphql' },
            ],
          ],
        ],
      },
    );
  }, 300_000);

  it('places a graphql-ws socket in its caller’s share at connection_init: anonymous ones full, a member still opens', async () => {
    const address = '127.0.5.250';
    const anonymous = [];
    for (let index = 0; index < ANONYMOUS; index++) anonymous.push(await open({ kind: 'anonymous', path: '/graphql' }, address));
    const refused = await open({ kind: 'anonymous', path: '/graphql' }, address);
    await expect.poll(() => refused.code).toBe(1008);
    const member = await open({ kind: 'member', member: 0, path: '/graphql' }, address);
    expect(member.code).toBeUndefined();
    for (const socket of [...anonymous, member]) expect(socket.code).toBeUndefined();
    for (const socket of [...anonymous, member]) socket.socket.close();
  });
});
