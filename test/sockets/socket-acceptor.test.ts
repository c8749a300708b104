/**
 * The socket acceptor in this process, on a bare HTTP server (docs/hostile-input.md §1): a transport that only
 * registers gets every guard without writing one; gateway replies outliving their client, replies
 * JSON cannot carry and transports that throw stay contained; shutdown closes every socket with
 * 1001 in one go. Unhandled errors or rejections would fail the run here, so "the process keeps
 * serving" is checked by vitest itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AbilityCache } from '../../runtime/auth/ability.js';
import { TokenVerifier } from '../../runtime/auth/authentication.js';
import { gatewayTransport, type GatewayDefinition, MAX_IN_FLIGHT } from '../../runtime/transports/gateways/index.js';
import { createLogger } from '../../runtime/server/logger.js';
import { fail, unwrap } from '../../runtime/failures/result.js';
import { CLIENT_FAULT_MESSAGE, closeSocket, messageText, SocketAcceptor, type SocketTransport } from '../../runtime/transports/sockets.js';
import { TEST_SECRET } from '../support/project.js';
import { rawBody, rawExchange, rawWebSocket, upgradeRequest } from '../support/raw-http.js';
import { closeCodeIn, encodeFrame } from '../support/ws-frames.js';

interface Harness {
  readonly url: string;
  readonly acceptor: SocketAcceptor;
  readonly logs: Record<string, unknown>[];
}

let harness: Harness;
let http: Server;

/** Starts a bare HTTP server whose upgrades go to a fresh acceptor. */
async function start(options: { keepAlive?: number } = {}): Promise<Harness> {
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger(
    { level: 'debug', format: 'json' },
    new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const acceptor = new SocketAcceptor({ logger, maxPayload: 1024, ...options });
  http = createServer((_request, response) => response.end('ok'));
  http.on('upgrade', (request, socket, head) => acceptor.accept(request, socket, head));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, acceptor, logs };
}

/** Opens a client on `path`; resolves once open. */
function open(path: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const client = new WebSocket(`${harness.url.replace('http', 'ws')}${path}`, options);
  return new Promise((resolve, reject) => {
    client.once('open', () => resolve(client));
    client.once('error', reject);
  });
}

const closed = (client: WebSocket): Promise<{ code: number; reason: string }> =>
  new Promise((resolve) => client.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

const next = (client: WebSocket): Promise<unknown> =>
  new Promise((resolve) => client.once('message', (data) => resolve(JSON.parse(messageText(data)))));

/** A transport written with no care for faults at all: it echoes, and listens for nothing else. */
const echo: SocketTransport = {
  name: 'echo',
  paths: ['/echo'],
  connect: (client) => client.on('message', (data) => client.send(messageText(data))),
};

beforeEach(async () => {
  harness = await start();
});
afterEach(async () => {
  await harness.acceptor.close(1001, 1_000);
  await new Promise((resolve) => http.close(resolve));
});

describe('a transport that only registers', () => {
  it('gets the close code, one warn line, the size limit and a server that keeps serving its other clients', async () => {
    harness.acceptor.register(echo);
    const other = await open('/echo');
    for (const [bytes, code] of [
      [encodeFrame({ opcode: 0x1, rsv: 0b100, payload: Buffer.from('x') }), 1002],
      [encodeFrame({ opcode: 0x1, payload: Buffer.alloc(1025, 0x61) }), 1009],
      [encodeFrame({ opcode: 0x1, payload: Buffer.from([0xff]) }), 1007],
    ] as const) {
      const raw = await rawWebSocket(harness.url, '/echo');
      raw.socket.write(bytes);
      expect(closeCodeIn(await raw.closed)).toBe(code);
      const reply = new Promise((resolve) => other.once('message', (data) => resolve(messageText(data))));
      other.send(`still there after ${code}`);
      expect(await reply).toBe(`still there after ${code}`);
    }
    const faults = harness.logs.filter((entry) => entry.msg === CLIENT_FAULT_MESSAGE);
    expect(faults.map((entry) => [entry.level, entry.transport, entry.path, entry.closeCode])).toEqual([
      [40, 'echo', '/echo', 1002],
      [40, 'echo', '/echo', 1009],
      [40, 'echo', '/echo', 1007],
    ]);
  });

  it('is told apart from a second transport claiming its path', () => {
    harness.acceptor.register(echo);
    expect(() => harness.acceptor.register({ ...echo, name: 'echo again' })).toThrow(
      'WebSocket path /echo is claimed by both echo and echo again',
    );
    expect(harness.acceptor.paths()).toEqual([{ path: '/echo', transport: 'echo', protocols: [] }]);
  });

  it('closes with 1011 when the transport throws while taking the socket, and logs it as a server fault', async () => {
    harness.acceptor.register({
      name: 'broken',
      paths: ['/broken'],
      connect: () => {
        throw new Error('broken transport');
      },
    });
    expect((await closed(await open('/broken'))).code).toBe(1011);
    expect(harness.logs).toContainEqual(
      expect.objectContaining({ level: 50, transport: 'broken', msg: 'a WebSocket transport failed to take a socket' }),
    );
  });

  it('answers 500 when admitting fails, and 503 once shutting down', async () => {
    harness.acceptor.register({
      name: 'refusing',
      paths: ['/refusing'],
      admit: () => Promise.reject(new Error('no')),
      connect: () => undefined,
    });
    const refused = (await rawExchange(harness.url, upgradeRequest('/refusing'))).toString();
    expect(refused).toMatch(/^HTTP\/1\.1 500 /);
    expect(rawBody(refused)).toMatchObject({ status: 500, code: 'INTERNAL_SERVER_ERROR', detail: 'internal error' });
    harness.acceptor.register(echo);
    await harness.acceptor.close();
    expect(rawBody((await rawExchange(harness.url, upgradeRequest('/echo'))).toString())).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});

describe('keep-alive and shutdown', () => {
  it('terminates a socket that stops answering pings, and keeps one that answers', async () => {
    await harness.acceptor.close();
    await new Promise((resolve) => http.close(resolve));
    harness = await start({ keepAlive: 100 });
    harness.acceptor.register(echo);
    const silent = await open('/echo', { autoPong: false });
    const answering = await open('/echo');
    const started = Date.now();
    expect((await closed(silent)).code).toBe(1006);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(answering.readyState).toBe(WebSocket.OPEN);
  });

  it('closes every socket of every transport with 1001 in one call', async () => {
    harness.acceptor.register(echo);
    harness.acceptor.register({ ...echo, name: 'echo 2', paths: ['/echo2', '/echo3'] });
    const clients = await Promise.all(['/echo', '/echo2', '/echo3'].map((path) => open(path)));
    const codes = Promise.all(clients.map(closed));
    await harness.acceptor.close(1001);
    expect((await codes).map((close) => close.code)).toEqual([1001, 1001, 1001]);
  });

  it('cuts a close reason to the 123 bytes a close frame carries, on a character boundary', async () => {
    harness.acceptor.register({
      ...echo,
      connect: (client) => closeSocket(client, 4409, `Subscriber for ${'é'.repeat(100)} already exists`),
    });
    const { code, reason } = await closed(await open('/echo'));
    expect(code).toBe(4409);
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
    expect(reason).toMatch(/^Subscriber for é+$/);
  });
});

describe('a gateway', () => {
  let release: () => void = () => undefined;
  /** Handlers of `held` running now, the most seen at once, and how to let them all finish. */
  const held = { running: 0, most: 0, waiting: [] as (() => void)[] };
  const gateway: GatewayDefinition = {
    name: 'TestGateway',
    path: '/v1/test',
    version: '1',
    handlers: [
      { event: 'slow', handle: () => new Promise((resolve) => (release = () => resolve('late'))) },
      {
        event: 'slowFailure',
        handle: () => new Promise((_resolve, reject) => (release = () => reject(new Error('failed after the client left')))),
      },
      { event: 'big', handle: () => 10n },
      { event: 'refused', handle: () => unwrap(fail('FORBIDDEN', 'not yours')) },
      {
        event: 'held',
        handle: (data) => {
          held.running += 1;
          held.most = Math.max(held.most, held.running);
          return new Promise((resolve) =>
            held.waiting.push(() => {
              held.running -= 1;
              resolve(data);
            }),
          );
        },
      },
    ],
  };

  beforeEach(() => {
    const logger = createLogger({ level: 'silent', format: 'json' });
    harness.acceptor.register(
      gatewayTransport(gateway, {
        verifier: new TokenVerifier({ secret: TEST_SECRET }),
        abilities: new AbilityCache({
          for: () => {
            throw new Error('no principal in these tests');
          },
        }),
        logger,
      }),
    );
  });

  it.each(['slow', 'slowFailure'])('drops the %s reply of a client that left, without an unhandled rejection', async (event) => {
    const client = await open('/v1/test');
    client.send(JSON.stringify({ event }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.terminate();
    await closed(client);
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await open('/v1/test');
    const reply = next(other);
    other.send(JSON.stringify({ event: 'refused' }));
    expect(await reply).toEqual({ event: 'refused', error: { code: 'FORBIDDEN', message: 'not yours' } });
    other.close();
  });

  it('answers a value JSON cannot carry with INTERNAL_SERVER_ERROR', async () => {
    const client = await open('/v1/test');
    const reply = next(client);
    client.send(JSON.stringify({ event: 'big' }));
    expect(await reply).toEqual({ event: 'big', error: { code: 'INTERNAL_SERVER_ERROR', message: expect.any(String) } });
    client.close();
  });

  it('answers a message that is not an event object with BAD_USER_INPUT', async () => {
    const client = await open('/v1/test');
    for (const message of ['null', '[]', '{"event":1}', 'not json']) {
      const reply = next(client);
      client.send(message);
      expect(await reply, message).toMatchObject({ event: 'error', error: { code: 'BAD_USER_INPUT' } });
    }
    client.close();
  });

  it(`runs at most ${MAX_IN_FLIGHT} handlers of one socket at once, and answers every message of a flood`, async () => {
    const client = await open('/v1/test');
    const replies: unknown[] = [];
    client.on('message', (data) => replies.push(JSON.parse(messageText(data))));
    const flood = 200;
    for (let index = 0; index < flood; index++) client.send(JSON.stringify({ event: 'held', data: index }));
    // Let handlers finish a few at a time, as a slow database would.
    while (replies.length < flood) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const finish of held.waiting.splice(0, 3)) finish();
    }
    expect(held.most).toBe(MAX_IN_FLIGHT);
    expect((replies as { data: number }[]).map((reply) => reply.data).sort((a, b) => a - b)).toEqual(
      Array.from({ length: flood }, (_, index) => index),
    );
    client.close();
  });
});
