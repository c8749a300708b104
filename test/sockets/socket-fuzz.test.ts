// Runs on: sqlite, postgresql
/**
 * Random and mutated WebSocket frames over raw TCP (docs/hostile-input.md §1), with fast-check, against every
 * socket path the server accepts (read from its boot log, so a transport added later is fuzzed
 * too). Each case opens a socket with a valid handshake, then sends a few chunks — valid frames,
 * valid frames with bit flips, cuts, insertions or overwritten bytes, frames with random bits,
 * opcodes, masks and declared lengths, plain random bytes — and ends by closing, resetting or
 * waiting. Properties after every case: the process is alive, `/health` answers 200, another client
 * of the path is still served, at most one client fault was logged for the connection, nothing was
 * logged at error level and nothing was written to stderr.
 *
 * Seed and case count come from `FUZZ_SEED` / `FUZZ_RUNS` (test/support/properties.ts); the figures
 * go to `FUZZ_REPORT` when set.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_FAULT_MESSAGE } from '../../runtime/transports/sockets.js';
import { testProvider } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { rawWebSocket } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { openProbe, type Probe, type SocketPath, socketPaths } from '../support/sockets.js';
import { closeCodeIn, closePayload, encodeFrame, type FrameSpec } from '../support/ws-frames.js';

const SEED = PROPERTY_SEED;
const RUNS = PROPERTY_RUNS;
/** APP_HTTP__BODY_LIMIT of the server under test (small, so frames past it are cheap to make). */
const LIMIT = 2 * 1024;
/** How long a case waits for the server to close a connection it has not ended itself. */
const LINGER = 150;

/** Payloads: mostly short and arbitrary, sometimes around the size limit. */
const payload = fc.oneof(
  { weight: 5, arbitrary: fc.uint8Array({ maxLength: 160 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.integer({ min: LIMIT - 16, max: LIMIT + 64 }).map((length) => Buffer.alloc(length, 0x61)) },
);

/** Messages each transport understands, so valid frames reach its message handling too. */
const message = fc.oneof(
  fc.json({ maxDepth: 2 }),
  fc.constantFrom(
    '{"type":"connection_init","payload":{}}',
    '{"type":"ping"}',
    '{"type":"pong"}',
    '{"id":"1","type":"complete"}',
    '{"event":"ping","data":1}',
    '{"event":"whoami"}',
  ),
);

/** Frames a conforming client could send (masked, well-formed). */
const validFrame: fc.Arbitrary<FrameSpec[]> = fc.oneof(
  message.map((text) => [{ opcode: 0x1, payload: Buffer.from(text) }]),
  // The same text split in two fragments.
  fc.tuple(message, fc.nat()).map(([text, at]) => {
    const bytes = Buffer.from(text);
    const cut = bytes.length === 0 ? 0 : at % bytes.length;
    return [
      { fin: false, opcode: 0x1, payload: bytes.subarray(0, cut) },
      { opcode: 0x0, payload: bytes.subarray(cut) },
    ];
  }),
  payload.map((bytes) => [{ opcode: 0x2, payload: bytes }]),
  fc
    .tuple(fc.constantFrom(0x9, 0xa), fc.uint8Array({ maxLength: 125 }))
    .map(([opcode, bytes]) => [{ opcode, payload: Buffer.from(bytes) }]),
  fc
    .tuple(fc.constantFrom(1000, 1001, 1003, 1008, 1011, 3000, 4000, 4999), fc.string({ maxLength: 30 }))
    .map(([code, reason]) => [{ opcode: 0x8, payload: closePayload(code, Buffer.from(reason).subarray(0, 123)) }]),
);

/** Frames with every header field random: FIN, RSV bits, opcode, mask or none, declared length. */
const randomFrame: fc.Arbitrary<FrameSpec> = fc.record({
  fin: fc.boolean(),
  rsv: fc.integer({ min: 0, max: 7 }),
  opcode: fc.integer({ min: 0, max: 15 }),
  mask: fc.option(
    fc.uint8Array({ minLength: 4, maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
    { nil: null, freq: 4 },
  ),
  payload,
  declaredLength: fc.option(fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })), {
    nil: undefined,
    freq: 2,
  }),
});

/** An edit of encoded bytes. */
type Mutation =
  | { kind: 'flip'; index: number; bit: number }
  | { kind: 'set'; index: number; byte: number }
  | { kind: 'insert'; index: number; bytes: Uint8Array }
  | { kind: 'cut'; index: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), index: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('set' as const), index: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('insert' as const), index: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), index: fc.nat() }) },
);

/** Applies `edits` in order; indexes wrap around the bytes they edit (header bits are hit often). */
function mutate(bytes: Buffer, edits: readonly Mutation[]): Buffer {
  let result = Buffer.from(bytes);
  for (const edit of edits) {
    if (result.length === 0) break;
    const index = edit.index % Math.min(result.length, edit.kind === 'flip' ? 16 : result.length);
    if (edit.kind === 'flip') result[index] = (result[index] ?? 0) ^ (1 << edit.bit);
    else if (edit.kind === 'set') result[index] = edit.byte;
    else if (edit.kind === 'insert') result = Buffer.concat([result.subarray(0, index), Buffer.from(edit.bytes), result.subarray(index)]);
    else result = result.subarray(0, index);
  }
  return result;
}

const encodeAll = (specs: readonly FrameSpec[]): Buffer => Buffer.concat(specs.map(encodeFrame));

/** One chunk of a case: what the client writes at once. */
const chunk: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 2, arbitrary: validFrame.map(encodeAll) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(validFrame, fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([specs, edits]) => mutate(encodeAll(specs), edits)),
  },
  { weight: 3, arbitrary: randomFrame.map(encodeFrame) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
);

/** A case: chunks written one after another, then how the client leaves. */
const scenario = fc.record({
  chunks: fc.array(chunk, { minLength: 1, maxLength: 5 }),
  ending: fc.constantFrom('end' as const, 'reset' as const, 'linger' as const),
});

describe(`random and mutated frames on every socket path (docs/hostile-input.md §1, ${testProvider()})`, () => {
  let server: TestServer;
  let paths: SocketPath[];
  const probes = new Map<string, Probe>();
  let exited = false;
  const figures = { cases: 0, bytes: 0, faultsLogged: 0, serverClosed: 0, closeCodes: {} as Record<string, number>, milliseconds: 0 };

  beforeAll(async () => {
    server = await startTestServer({ env: { APP_HTTP__BODY_LIMIT: `${LIMIT}b`, APP_GRAPHQL__CONNECTION_INIT_TIMEOUT: '60000' } });
    void server.exited.then(() => (exited = true));
    paths = socketPaths(server);
    for (const socket of paths) probes.set(socket.path, await openProbe(server, socket));
  });
  afterAll(async () => {
    for (const probe of probes.values()) probe.close();
    await server?.stop();
    reportFigures({
      suite: `socket frames (${testProvider()})`,
      seed: SEED,
      runs: RUNS,
      paths: paths?.map((socket) => socket.path),
      ...figures,
    });
  });

  /** Runs one case on `socket` and checks the properties. */
  async function run(socket: SocketPath, { chunks, ending }: { chunks: Buffer[]; ending: 'end' | 'reset' | 'linger' }): Promise<void> {
    const faultsBefore = server.logs.filter((entry) => entry.msg === CLIENT_FAULT_MESSAGE).length;
    const raw = await rawWebSocket(server.url, socket.path, { protocols: socket.protocols });
    let closedByServer = false;
    void raw.closed.then(() => (closedByServer = true));
    for (const bytes of chunks) {
      if (raw.socket.destroyed) break;
      await new Promise<void>((resolve) => raw.socket.write(bytes, () => resolve()));
      figures.bytes += bytes.length;
    }
    if (ending === 'linger') await Promise.race([raw.closed, new Promise((resolve) => setTimeout(resolve, LINGER))]);
    if (ending === 'reset') raw.socket.resetAndDestroy();
    else raw.socket.end();
    const received = await Promise.race([raw.closed, new Promise<Buffer>((resolve) => setTimeout(() => resolve(raw.received()), 2_000))]);
    raw.socket.destroy();
    const code = closeCodeIn(received);
    if (code !== undefined) figures.closeCodes[code] = (figures.closeCodes[code] ?? 0) + 1;
    if (closedByServer && ending === 'linger') figures.serverClosed += 1;

    const health = await server.fetch('/health').then(
      (response) => response.status,
      async () =>
        `no answer: ${JSON.stringify(await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 1_000))]))}\n${server.stderr()}`,
    );
    expect(health).toBe(200);
    expect(exited).toBe(false);
    await probes.get(socket.path)?.check();
    const faults = server.logs.filter((entry) => entry.msg === CLIENT_FAULT_MESSAGE).length - faultsBefore;
    expect(faults).toBeLessThanOrEqual(1);
    figures.faultsLogged += faults;
    expect(server.logs.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
    expect(server.stderr()).toBe('');
    figures.cases += 1;
  }

  it(
    'keeps the process alive and every path serving',
    async () => {
      expect(paths.map((socket) => socket.path)).toEqual(expect.arrayContaining(['/graphql', '/v1/ws']));
      const started = Date.now();
      for (const socket of paths) {
        await fc.assert(
          fc.asyncProperty(scenario, (example) => run(socket, example)),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
      figures.milliseconds = Date.now() - started;
      // The generators reach the faults this property is about, not only well-formed traffic.
      expect(figures.faultsLogged).toBeGreaterThan(RUNS / 4);
      expect(Object.keys(figures.closeCodes)).toEqual(expect.arrayContaining(['1002']));
    },
    60_000 + RUNS * 2 * 1_500,
  );
});
