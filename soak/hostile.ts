/**
 * The hostile part of the soak (docs/hostile-input.md; docs/hostile-input.md): what a client built to stop,
 * freeze or starve the server costs it.
 *
 * - {@link refusalFigures}: the time to refuse the worst document of each hostile shape at the
 *   body limit (target: under 25 ms each).
 * - {@link healthUnderHostile}: `/health` latency while 32 connections send those documents
 *   back to back (target: p99 under 50 ms).
 * - {@link startHostileMix}: amplified documents, floods (oversized bodies, oversized headers,
 *   requests that never finish arriving) and WebSocket framing faults, at a steady rate beside
 *   normal load; the soak compares normal traffic's p99 with and without it.
 */
import { connect, type Socket } from 'node:net';
import { type LoadRequest, type LoadResult, runLoad } from '../bench/load.js';
import { hostileShapes } from '../test/support/documents.js';
import { closePayload, encodeFrame, type FrameSpec } from '../test/support/ws-frames.js';

/** Refusal time of one shape, milliseconds as the client sees them over loopback. */
export interface RefusalFigure {
  readonly shape: string;
  readonly code: string;
  /** Size of the request body, bytes. */
  readonly bytes: number;
  readonly medianMs: number;
  readonly p99Ms: number;
}

/** Percentile `p` (0..1) of `values`, which it sorts. */
function percentile(values: number[], p: number): number {
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
}

const round = (value: number): number => Math.round(value * 100) / 100;

/**
 * Sends the worst document of each shape `runs` times, one at a time, after as many warm-up
 * requests; returns the median and p99 time to the whole answer, and the code it carried.
 */
export async function refusalFigures(url: string, token: string, runs = 50): Promise<RefusalFigure[]> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const figures: RefusalFigure[] = [];
  for (const { shape, query } of hostileShapes()) {
    const body = JSON.stringify({ query });
    const times: number[] = [];
    let code = '';
    for (let run = 0; run < runs * 2; run += 1) {
      const started = performance.now();
      const answer = (await (await fetch(`${url}/graphql`, { method: 'POST', headers, body })).json()) as {
        errors?: { extensions?: { code?: string } }[];
      };
      if (run >= runs) times.push(performance.now() - started);
      code = answer.errors?.[0]?.extensions?.code ?? 'none';
    }
    figures.push({
      shape,
      code,
      bytes: Buffer.byteLength(body),
      medianMs: round(percentile(times, 0.5)),
      p99Ms: round(percentile(times, 0.99)),
    });
  }
  return figures;
}

/** `/health` latency while hostile documents keep `connections` connections busy. */
export interface HealthFigures {
  readonly connections: number;
  readonly seconds: number;
  readonly hostileRequests: number;
  readonly hostileRequestsPerSecond: number;
  readonly healthProbes: number;
  readonly healthFailures: number;
  readonly healthP50Ms: number;
  readonly healthP99Ms: number;
}

/**
 * Every hostile shape as a request autocannon cycles through, each one a new text (a numbered
 * comment is prepended), so no answer comes from the document cache: every request is parsed and
 * measured again, as an attacker varying their documents would make it.
 */
function hostileRequests(token: string): LoadRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  let sequence = 0;
  return hostileShapes().map(({ query }) => ({
    method: 'POST',
    path: '/graphql',
    headers,
    body: JSON.stringify({ query }),
    makeBody: () => JSON.stringify({ query: `# ${(sequence += 1)}\n${query}` }),
  }));
}

/** Probes `/health` every `intervalMs` until `until` settles; returns each probe's latency (NaN: failed). */
async function probeHealth(url: string, until: Promise<unknown>, intervalMs = 20): Promise<number[]> {
  // Set by the callback: `as boolean` keeps TypeScript from narrowing it to `false`.
  let done = false as boolean;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      latencies.push(response.ok ? performance.now() - started : Number.NaN);
    } catch {
      latencies.push(Number.NaN);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return latencies;
}

/** `/health` latency while a burst of hostile documents is in flight, over many bursts. */
export interface BurstFigures {
  /** Hostile requests sent at once per burst. */
  readonly concurrent: number;
  readonly bursts: number;
  readonly healthP50Ms: number;
  readonly healthP99Ms: number;
  readonly healthMaxMs: number;
}

/**
 * `bursts` times: sends `concurrent` worst documents (every shape, in turn) at once and, right
 * behind them, one `/health`; returns how long `/health` took, as percentiles over the bursts.
 */
export async function healthBesideBursts(url: string, token: string, bursts = 200, concurrent = 32): Promise<BurstFigures> {
  const requests = hostileRequests(token);
  const latencies: number[] = [];
  let sequence = 0;
  for (let burst = 0; burst < bursts; burst += 1) {
    const inFlight = Array.from({ length: concurrent }, () => {
      const request = requests[(sequence += 1) % requests.length]!;
      return fetch(`${url}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.makeBody?.() ?? request.body,
      }).then((response) => response.arrayBuffer());
    });
    const started = performance.now();
    const health = fetch(`${url}/health`).then(async (response) => {
      await response.arrayBuffer();
      return performance.now() - started;
    });
    const [latency] = await Promise.all([health, ...inFlight]);
    latencies.push(latency);
  }
  return {
    concurrent,
    bursts,
    healthP50Ms: round(percentile([...latencies], 0.5)),
    healthP99Ms: round(percentile([...latencies], 0.99)),
    healthMaxMs: round(Math.max(...latencies)),
  };
}

/** Runs the hostile documents on `connections` connections for `seconds` while probing `/health`. */
export async function healthUnderHostile(url: string, token: string, seconds: number, connections = 32): Promise<HealthFigures> {
  const load = runLoad(url, hostileRequests(token), seconds, connections);
  const [result, latencies] = await Promise.all([load, probeHealth(url, load)]);
  const answered = latencies.filter((latency) => !Number.isNaN(latency));
  return {
    connections,
    seconds,
    hostileRequests: result.requests,
    hostileRequestsPerSecond: Math.round(result.requestsPerSecond),
    healthProbes: latencies.length,
    healthFailures: latencies.length - answered.length,
    healthP50Ms: round(percentile([...answered], 0.5)),
    healthP99Ms: round(percentile([...answered], 0.99)),
  };
}

/** What the hostile mix sent while it ran. */
export interface HostileMixFigures {
  readonly amplifiedDocuments: number;
  readonly oversizedBodies: number;
  readonly oversizedHeaders: number;
  readonly stalledRequests: number;
  readonly framingFaults: number;
  /** Framing faults answered with a close frame (the rest: connection cut, or cut by the client mid-frame). */
  readonly framingFaultsClosed: number;
}

/** Options of {@link startHostileMix}. */
export interface HostileMixOptions {
  readonly token: string;
  /** Socket paths to send framing faults to (`/graphql`, gateways). */
  readonly socketPaths: readonly string[];
  /** Requests per second of each hostile HTTP stream. */
  readonly rate: number;
  /** Framing faults per second. */
  readonly faultsPerSecond: number;
}

/** A running hostile mix. */
export interface HostileMix {
  /** Stops it and reports what it sent. */
  stop(): Promise<HostileMixFigures>;
}

/** Frames a server must refuse, one per class of fault (docs/hostile-input.md §1). */
function faultyFrames(sequence: number): Buffer {
  const specs: FrameSpec[] = [
    { opcode: 0x1, rsv: 4, payload: Buffer.from('{"type":"ping"}') },
    { opcode: 0x3, payload: Buffer.from('reserved opcode') },
    { opcode: 0x1, mask: null, payload: Buffer.from('unmasked') },
    { opcode: 0x1, payload: Buffer.from([0xc3, 0x28, 0xff]) },
    { opcode: 0x8, payload: closePayload(999) },
    { opcode: 0x2, declaredLength: 64 * 1024 * 1024, payload: Buffer.alloc(16) },
  ];
  return encodeFrame(specs[sequence % specs.length]!);
}

/** One WebSocket upgrade on `path`, then one faulty frame (or half of one); resolves when the socket ends. */
function framingFault(url: string, path: string, sequence: number, onClosed: () => void): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    let upgraded = false;
    let received = Buffer.alloc(0);
    const done = (): void => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(5_000, done);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!upgraded && received.includes('\r\n\r\n')) {
        upgraded = received.subarray(0, 12).toString() === 'HTTP/1.1 101';
        if (!upgraded) return done();
        received = received.subarray(received.indexOf('\r\n\r\n') + 4);
        const frame = faultyFrames(sequence);
        // Every seventh connection is cut mid-frame instead.
        if (sequence % 7 === 6) socket.end(frame.subarray(0, Math.ceil(frame.length / 2)));
        else socket.write(frame);
        return;
      }
      if (upgraded && received.length >= 2 && ((received[0] ?? 0) & 0x0f) === 0x8) {
        onClosed();
        done();
      }
    });
    const protocol = path.endsWith('graphql') ? 'Sec-WebSocket-Protocol: graphql-transport-ws\r\n' : '';
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${protocol}\r\n`,
    );
  });
}

/** A request that sends its headers and part of its body, then nothing: held until the server times it out. */
function stalledRequest(url: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(`POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":`);
  return socket;
}

/**
 * Starts the hostile mix against `url`: amplified documents and two HTTP floods (bodies past the
 * body limit, headers past 16 KiB), each at `rate` requests per second; a request that never
 * finishes arriving every 100 ms (held open until the request timeout); and `faultsPerSecond`
 * framing faults spread over `socketPaths`.
 */
export function startHostileMix(url: string, options: HostileMixOptions): HostileMix {
  const seconds = 24 * 3600;
  const controller = new AbortController();
  const streams: Promise<LoadResult>[] = [];
  const stream = (requests: LoadRequest[]): void => {
    streams.push(runLoad(url, requests, seconds, 4, { rate: options.rate, signal: controller.signal }));
  };
  stream(hostileRequests(options.token));
  stream([
    {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ me { id } } #${'x'.repeat(150 * 1024)}` }),
    },
  ]);
  stream([{ method: 'GET', path: '/v2/posts', headers: { 'x-flood': 'x'.repeat(20 * 1024) } }]);

  const stalled: Socket[] = [];
  const staller = setInterval(() => stalled.push(stalledRequest(url)), 100);
  let faults = 0;
  let closed = 0;
  const pending = new Set<Promise<void>>();
  const faulter = setInterval(() => {
    if (options.socketPaths.length === 0) return;
    const sequence = faults++;
    const fault = framingFault(url, options.socketPaths[sequence % options.socketPaths.length]!, sequence, () => (closed += 1));
    pending.add(fault);
    void fault.finally(() => pending.delete(fault));
  }, 1000 / options.faultsPerSecond);

  return {
    stop: async () => {
      clearInterval(staller);
      clearInterval(faulter);
      controller.abort();
      const [amplified, bodies, headers] = await Promise.all(streams);
      await Promise.all(pending);
      for (const socket of stalled) socket.destroy();
      return {
        amplifiedDocuments: amplified?.requests ?? 0,
        oversizedBodies: bodies?.requests ?? 0,
        oversizedHeaders: headers?.requests ?? 0,
        stalledRequests: stalled.length,
        framingFaults: faults,
        framingFaultsClosed: closed,
      };
    },
  };
}
