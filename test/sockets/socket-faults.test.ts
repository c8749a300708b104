// Runs on: sqlite, postgresql
/**
 * Every socket survives every framing fault (docs/hostile-input.md §1, docs/decisions.md §7 "Hostile input"): on every
 * WebSocket path the server accepts — read from its boot log, so a transport added later is covered
 * without being named here — each frame fault is answered with the protocol's close code (1009,
 * 1007, 1002), logged once at warn as the client's fault, and leaves the process serving: `/health`
 * answers and another client of the same path is still served. Raw TCP, so every fault is exact.
 * Also: upgrades nobody serves are problem documents, and a client resetting its connection while
 * the gateway verifies its token does not end the process.
 */
import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_FAULT_MESSAGE } from '../../runtime/transports/sockets.js';
import { testProvider } from '../support/database.js';
import { rawBody, rawExchange, rawWebSocket, upgradeRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { openProbe, type Probe, type SocketPath, socketPaths } from '../support/sockets.js';
import { closeCodeIn, closePayload, encodeFrame } from '../support/ws-frames.js';

/** APP_HTTP__BODY_LIMIT of the server under test, which is also its WebSocket message limit. */
const LIMIT = 4 * 1024;

/** One frame fault, the close code RFC 6455 gives it and the code `ws` reports it with. */
interface Fault {
  readonly name: string;
  readonly bytes: Buffer;
  readonly closeCode: number;
  readonly code: string;
}

const text = (payload: Buffer | string, fin = true): Buffer => encodeFrame({ fin, opcode: 0x1, payload: Buffer.from(payload) });

const FAULTS: readonly Fault[] = [
  { name: 'a message past the size limit', bytes: text('a'.repeat(LIMIT + 1)), closeCode: 1009, code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' },
  {
    name: 'fragments adding up past the size limit',
    bytes: Buffer.concat([
      text('a'.repeat(LIMIT / 2), false),
      encodeFrame({ fin: false, opcode: 0x0, payload: Buffer.alloc(LIMIT / 2 + 1, 0x61) }),
    ]),
    closeCode: 1009,
    code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
  },
  {
    name: 'a declared length past 2^53 - 1',
    bytes: encodeFrame({ opcode: 0x2, declaredLength: 2n ** 63n }),
    closeCode: 1009,
    code: 'WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH',
  },
  {
    name: 'invalid UTF-8 in a text frame',
    bytes: text(Buffer.from([0x7b, 0xc3, 0x28, 0x7d])),
    closeCode: 1007,
    code: 'WS_ERR_INVALID_UTF8',
  },
  {
    name: 'invalid UTF-8 in a close reason',
    bytes: encodeFrame({ opcode: 0x8, payload: closePayload(1000, Buffer.from([0xff, 0xfe])) }),
    closeCode: 1007,
    code: 'WS_ERR_INVALID_UTF8',
  },
  {
    name: 'RSV1 set (no extension was negotiated)',
    bytes: encodeFrame({ opcode: 0x1, rsv: 0b100, payload: Buffer.from('{}') }),
    closeCode: 1002,
    code: 'WS_ERR_UNEXPECTED_RSV_1',
  },
  {
    name: 'RSV2 and RSV3 set',
    bytes: encodeFrame({ opcode: 0x1, rsv: 0b011, payload: Buffer.from('{}') }),
    closeCode: 1002,
    code: 'WS_ERR_UNEXPECTED_RSV_2_3',
  },
  {
    name: 'an unknown data opcode',
    bytes: encodeFrame({ opcode: 0x3, payload: Buffer.from('x') }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_OPCODE',
  },
  { name: 'an unknown control opcode', bytes: encodeFrame({ opcode: 0xb }), closeCode: 1002, code: 'WS_ERR_INVALID_OPCODE' },
  {
    name: 'a continuation with no message to continue',
    bytes: encodeFrame({ opcode: 0x0, payload: Buffer.from('x') }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_OPCODE',
  },
  {
    name: 'a new message inside a fragmented one',
    bytes: Buffer.concat([text('{', false), text('}')]),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_OPCODE',
  },
  {
    name: 'an unmasked client frame',
    bytes: encodeFrame({ opcode: 0x1, mask: null, payload: Buffer.from('{}') }),
    closeCode: 1002,
    code: 'WS_ERR_EXPECTED_MASK',
  },
  { name: 'a fragmented control frame', bytes: encodeFrame({ fin: false, opcode: 0x9 }), closeCode: 1002, code: 'WS_ERR_EXPECTED_FIN' },
  {
    name: 'a control frame longer than 125 bytes',
    bytes: encodeFrame({ opcode: 0x9, payload: Buffer.alloc(126) }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH',
  },
  {
    name: 'a close frame with a one-byte payload',
    bytes: encodeFrame({ opcode: 0x8, payload: Buffer.from([0x03]) }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH',
  },
  {
    name: 'a close frame with code 999',
    bytes: encodeFrame({ opcode: 0x8, payload: closePayload(999) }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_CLOSE_CODE',
  },
  {
    name: 'a close frame with the reserved code 1005',
    bytes: encodeFrame({ opcode: 0x8, payload: closePayload(1005) }),
    closeCode: 1002,
    code: 'WS_ERR_INVALID_CLOSE_CODE',
  },
];

/** Connections cut in the middle of a frame: no close code to expect, and no fault to log. */
const CUTS: readonly { name: string; bytes: Buffer; reset: boolean }[] = [
  { name: 'ended after half a header', bytes: Buffer.from([0x81]), reset: false },
  {
    name: 'ended in the middle of a payload',
    bytes: encodeFrame({ opcode: 0x1, payload: Buffer.from('{"event":"ping","data":1}') }).subarray(0, 12),
    reset: false,
  },
  {
    name: 'reset in the middle of a payload',
    bytes: encodeFrame({ opcode: 0x1, payload: Buffer.from('{"event":"ping","data":1}') }).subarray(0, 12),
    reset: true,
  },
  {
    name: 'reset in the middle of a 64-bit length',
    bytes: encodeFrame({ opcode: 0x2, payload: Buffer.alloc(70_000) }).subarray(0, 6),
    reset: true,
  },
];

/** The client-fault lines the server logged for `path`. */
const faultLines = (server: TestServer, path: string): Record<string, unknown>[] =>
  server.logs.filter((entry) => entry.msg === CLIENT_FAULT_MESSAGE && entry.path === path);

describe(`every socket path survives every framing fault (docs/hostile-input.md §1, ${testProvider()})`, () => {
  let server: TestServer;
  let paths: SocketPath[];
  const probes = new Map<string, Probe>();
  let exited = false;

  beforeAll(async () => {
    server = await startTestServer({ env: { APP_HTTP__BODY_LIMIT: `${LIMIT}b` } });
    void server.exited.then(() => (exited = true));
    paths = socketPaths(server);
    for (const socket of paths) probes.set(socket.path, await openProbe(server, socket));
  });
  afterAll(async () => {
    for (const probe of probes.values()) probe.close();
    await server?.stop();
  });

  it('finds every socket path in the boot log: graphql-ws and the gateway at least', () => {
    expect(paths.map((socket) => socket.path)).toEqual(expect.arrayContaining(['/graphql', '/v1/ws']));
    expect(paths.find((socket) => socket.path === '/graphql')?.protocols).toEqual(['graphql-transport-ws']);
  });

  /** What holds after every fault or cut: alive, healthy, the path's other client still served. */
  async function stillServing(socket: SocketPath): Promise<void> {
    const health = await server.fetch('/health').then(
      (response) => response.status,
      async () =>
        `no answer: ${JSON.stringify(await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 1_000))]))}\n${server.stderr()}`,
    );
    expect(health).toBe(200);
    expect(exited).toBe(false);
    await probes.get(socket.path)?.check();
  }

  it.each(FAULTS)('answers $name with $closeCode on every path, logs it once at warn, and keeps serving', async (fault) => {
    for (const socket of paths) {
      const before = faultLines(server, socket.path).length;
      const raw = await rawWebSocket(server.url, socket.path, { protocols: socket.protocols });
      raw.socket.write(fault.bytes);
      const received = await raw.closed;
      expect(closeCodeIn(received), `${fault.name} on ${socket.path}`).toBe(fault.closeCode);
      await stillServing(socket);
      await expect.poll(() => faultLines(server, socket.path).length, { timeout: 5_000 }).toBe(before + 1);
      expect(faultLines(server, socket.path).at(-1)).toMatchObject({
        level: 40,
        transport: socket.transport,
        code: fault.code,
        closeCode: fault.closeCode,
      });
    }
    expect(server.stderr()).toBe('');
  });

  it('answers a fault sent in the same packet as the handshake, before the 101 is out', async () => {
    for (const socket of paths) {
      const before = faultLines(server, socket.path).length;
      const request = Buffer.concat([
        Buffer.from(upgradeRequest(socket.path, socket.protocols)),
        encodeFrame({ opcode: 0x1, rsv: 0b100, payload: Buffer.from('{}') }),
      ]);
      const received = await rawExchange(server.url, request);
      const headEnd = received.indexOf('\r\n\r\n');
      expect(received.subarray(0, headEnd).toString(), socket.path).toMatch(/^HTTP\/1\.1 101 /);
      expect(closeCodeIn(received.subarray(headEnd + 4)), socket.path).toBe(1002);
      await stillServing(socket);
      await expect.poll(() => faultLines(server, socket.path).length, { timeout: 5_000 }).toBe(before + 1);
    }
  });

  it.each(CUTS)('survives a connection $name on every path, logging no fault', async (cut) => {
    for (const socket of paths) {
      const before = faultLines(server, socket.path).length;
      const raw = await rawWebSocket(server.url, socket.path, { protocols: socket.protocols });
      raw.socket.write(cut.bytes, () => (cut.reset ? raw.socket.resetAndDestroy() : raw.socket.end()));
      await raw.closed;
      await stillServing(socket);
      expect(faultLines(server, socket.path)).toHaveLength(before);
    }
    expect(server.stderr()).toBe('');
  });

  it('logs exactly one line per fault: nothing logged twice, nothing else at warn or above', () => {
    const warnings = server.logs.filter((entry) => Number(entry.level) >= 40);
    expect(warnings).toHaveLength((FAULTS.length + 1) * paths.length);
    expect(warnings.every((entry) => entry.msg === CLIENT_FAULT_MESSAGE)).toBe(true);
  });
});

describe('upgrades the server does not take are problem documents', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.stop());

  const answer = async (request: string): Promise<{ head: string; body: Record<string, unknown> }> => {
    const received = (await rawExchange(server.url, request)).toString();
    return { head: received.slice(0, received.indexOf('\r\n\r\n')), body: rawBody(received) as Record<string, unknown> };
  };

  it('answers an upgrade to a path no socket is served at with 404, and closes the connection', async () => {
    const { head, body } = await answer(upgradeRequest('/v2/ws'));
    expect(head).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      code: 'NOT_FOUND',
      detail: 'no WebSocket is served at /v2/ws',
      requestId: expect.any(String) as unknown,
    });
  });

  it('answers an upgrade whose target is not a URL with 400 (it ended the process before)', async () => {
    const { head, body } = await answer(upgradeRequest('//['));
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(body).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('answers a handshake ws refuses as a problem document: 405 for POST, 400 with the versions it speaks', async () => {
    const post = await answer(upgradeRequest('/v1/ws').replace(/^GET /, 'POST '));
    expect(post.head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n[^]*\r\nAllow: GET/);
    expect(post.body).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    const version = await answer(
      upgradeRequest('/graphql', ['graphql-transport-ws']).replace('Sec-WebSocket-Version: 13', 'Sec-WebSocket-Version: 99'),
    );
    expect(version.head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*\r\nSec-WebSocket-Version: 13, 8/);
    expect(version.body).toMatchObject({ status: 400, code: 'BAD_REQUEST', detail: expect.stringContaining('Sec-WebSocket-Version') });
    const other = await answer(upgradeRequest('/v1/ws').replace('Upgrade: websocket', 'Upgrade: h2c'));
    expect(other.body).toMatchObject({ status: 400, code: 'BAD_REQUEST', detail: expect.stringContaining('Upgrade') });
  });

  it('is still serving after all of that', async () => {
    expect((await server.fetch('/health')).status).toBe(200);
    expect(server.stderr()).toBe('');
  });
});

describe('a client that resets while the gateway verifies its token', () => {
  let keys: Server;
  let server: TestServer;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    // A key set that takes 500 ms to answer holds the upgrade in verification that long.
    keys = createServer((_request, response) =>
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })), 500),
    );
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({
      env: { APP_AUTH__JWKS_URL: `http://127.0.0.1:${(keys.address() as { port: number }).port}/jwks.json` },
    });
  });
  afterAll(async () => {
    await server?.stop();
    keys?.close();
  });

  it('ends that connection only (a reset there ended the process before)', async () => {
    const member = server.user('member');
    const token = await new SignJWT({ sub: member.id, org_id: member.orgId, role: member.role })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setExpirationTime('1h')
      .sign(privateKey);
    const { hostname, port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(upgradeRequest('/v1/ws', [], { Authorization: `Bearer ${token}` }), () => {
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, 150);
        });
      });
      socket.on('error', reject);
    });
    // Once verification has finished, the same token opens a socket that is served.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const probe = await openProbe(server, { path: '/v1/ws', transport: 'gateway EchoGateway', protocols: [] }, token);
    await probe.check();
    probe.close();
    expect((await server.fetch('/health')).status).toBe(200);
    expect(server.stderr()).toBe('');
  });
});
