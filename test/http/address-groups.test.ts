/**
 * One client per IPv6 network, in every per-address count (docs/hostile-input.md §12, §15, §16):
 * clients on several addresses of one /64 (`APP_HTTP__IPV6_PREFIX`'s default) share one rate budget
 * (REST requests and WebSocket upgrades alike), one address's WebSocket places and one address's
 * HTTP connections, while other /64s of the same /48 count apart. Real IPv6
 * addresses added to `lo` (test/support/loopback-ipv6.ts, root), a server listening on `::`, and
 * generated mixes of addresses.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addressGroup } from '../../runtime/http/client-address.js';
import { runSql } from '../support/database.js';
import { addLoopbackIpv6, type LoopbackIpv6, loopbackIpv6Required, loopbackIpv6Unavailable } from '../support/loopback-ipv6.js';
import { PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NETWORKS = 3;
const HOSTS = 4;
const SOCKETS_PER_ADDRESS = 5;
const BUDGET = 8;
const CONNECTIONS_PER_ADDRESS = 3;
const WRITE_TIMEOUT = 2_500;
/** Cases of the rate budget, each spending two networks of its own (a budget lasts the whole window). */
const RATE_CASES = 10;

describe('grouping addresses (runtime/http/client-address.ts)', () => {
  it('counts an IPv6 address by its network, an IPv4-mapped one as IPv4, anything else as itself', () => {
    expect(addressGroup('2001:db8:1:2:3:4:5:6', 64)).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002::9', 64)).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1::/56');
    expect(addressGroup('2001:db8::1', 128)).toBe('2001:db8::1/128');
    expect(addressGroup('::ffff:192.0.2.1', 64)).toBe('192.0.2.1');
    expect(addressGroup('192.0.2.1', 64)).toBe('192.0.2.1');
    expect(addressGroup('not an address', 64)).toBe('not an address');
  });
});

const unavailable = loopbackIpv6Unavailable();
if (unavailable !== undefined) console.log(`IPv6 address groups over real addresses skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined && !loopbackIpv6Required())('IPv6 clients of one network count as one (generated)', () => {
  let addresses: LoopbackIpv6;
  let sockets: TestServer;
  let limited: TestServer;
  let connections: TestServer;
  let token: string;
  const figures = { socketCases: 0, socketsRefused: 0, rateCases: 0, requestsRefused: 0, connectionCases: 0, connectionsRefused: 0 };

  beforeAll(async () => {
    addresses = addLoopbackIpv6(NETWORKS + 2 * RATE_CASES, HOSTS);
    sockets = await startTestServer({
      env: {
        APP_HTTP__HOST: '::',
        APP_HTTP__MAX_SOCKETS_PER_ADDRESS: String(SOCKETS_PER_ADDRESS),
        APP_HTTP__MAX_SOCKETS_PER_CALLER: '1000',
      },
    });
    limited = await startTestServer({
      env: { APP_HTTP__HOST: '::', APP_HTTP__RATE_LIMIT: String(BUDGET), APP_HTTP__RATE_LIMIT_WINDOW: '600000' },
    });
    // Pages of about 6 MB, more than loopback's buffers take from a client that reads nothing.
    connections = await startTestServer({
      seed: { orgs: 1, users: 2, posts: 100 },
      env: {
        APP_HTTP__HOST: '::',
        APP_HTTP__MAX_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS),
        APP_HTTP__MAX_CONNECTIONS_PER_CALLER: '1000',
        APP_HTTP__WRITE_TIMEOUT: String(WRITE_TIMEOUT),
      },
      prepare: async (databaseUrl) => {
        await runSql(databaseUrl, `UPDATE "Post" SET "body" = '${'b'.repeat(60_000)}', "status" = 'published'`);
      },
    });
    token = await sockets.token('member');
  }, 120_000);

  afterAll(async () => {
    reportFigures({ suite: 'address-groups', ...figures });
    await sockets?.stop();
    await limited?.stop();
    await connections?.stop();
    addresses?.remove();
  });

  /** The server's port, reached at an address of the test networks (a server on `::` takes them all). */
  const target = (server: TestServer): { host: string; port: number } => ({
    host: addresses.address(0, 1),
    port: Number(new URL(server.url).port),
  });

  it('gives the addresses of one /64 one address’s WebSocket places, and other /64s their own', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ network: fc.integer({ min: 0, max: NETWORKS - 1 }), host: fc.integer({ min: 1, max: HOSTS }) }), {
          minLength: 1,
          maxLength: 24,
          size: 'max',
        }),
        async (from) => {
          run++;
          const { host, port } = target(sockets);
          const open: { socket: WebSocket; network: number; code: number | undefined }[] = [];
          try {
            for (const { network, host: local } of from) {
              // A gateway, signed in as one member: only the address's places can refuse it.
              const socket = new WebSocket(`ws://[${host}]:${String(port)}/v1/ws?token=${token}&run=${String(run)}`, {
                localAddress: addresses.address(network, local),
              });
              const entry = { socket, network, code: undefined as number | undefined };
              socket.once('close', (code) => (entry.code = code));
              open.push(entry);
              await new Promise((resolve, reject) => {
                socket.once('open', resolve);
                socket.once('error', reject);
              });
            }
            await new Promise((resolve) => setTimeout(resolve, 300));
            // The model: per /64, the first SOCKETS_PER_ADDRESS stay open and the rest are closed 1008.
            const held = new Map<number, number>();
            const expected = from.map(({ network }) => {
              const count = (held.get(network) ?? 0) + 1;
              held.set(network, count);
              return count <= SOCKETS_PER_ADDRESS ? undefined : 1008;
            });
            expect(open.map((entry) => entry.code)).toEqual(expected);
            figures.socketCases++;
            figures.socketsRefused += expected.filter((code) => code === 1008).length;
          } finally {
            // Every case starts with no socket held, also after a failed one (while shrinking).
            for (const entry of open) entry.socket.terminate();
            await Promise.all(
              open.map((entry) =>
                entry.socket.readyState === WebSocket.CLOSED
                  ? Promise.resolve()
                  : new Promise<void>((resolve) => entry.socket.once('close', () => resolve())),
              ),
            );
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
      ),
      {
        numRuns: 12,
        seed: PROPERTY_SEED,
        examples: [[Array.from({ length: 12 }, (_, index) => ({ network: 0, host: (index % HOSTS) + 1 }))]],
      },
    );
  }, 120_000);

  it('spends one rate budget, upgrades included, for the addresses of one /64, and one per other /64', async () => {
    const { host, port } = target(limited);
    /** The status of `GET /v2/posts` from `localAddress`. */
    const rest = (localAddress: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const outgoing = httpRequest(
          { host, port, path: '/v2/posts', localAddress, headers: { authorization: `Bearer ${token}` } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      });
    /** The status of a gateway's upgrade from `localAddress` (101 when it opened; closed again at once). */
    const upgrade = (localAddress: string): Promise<number> =>
      new Promise((resolve) => {
        const socket = new WebSocket(`ws://[${host}]:${String(port)}/v1/ws?token=${token}`, { localAddress });
        socket.once('open', () => {
          socket.terminate();
          resolve(101);
        });
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.once('error', () => undefined);
      });
    let used = NETWORKS;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            network: fc.integer({ min: 0, max: 1 }),
            host: fc.integer({ min: 1, max: HOSTS }),
            upgrade: fc.boolean(),
          }),
          // Past one network's budget in every case (two networks share the steps).
          { minLength: 2 * BUDGET, maxLength: 3 * BUDGET },
        ),
        async (steps) => {
          const networks = [used, used + 1];
          used += 2;
          const counted = new Map<number, number>();
          for (const [index, step] of steps.entries()) {
            const count = (counted.get(step.network) ?? 0) + 1;
            counted.set(step.network, count);
            const from = addresses.address(networks[step.network] ?? 0, step.host);
            const status = await (step.upgrade ? upgrade(from) : rest(from));
            expect({ step: index, status }).toEqual({ step: index, status: count <= BUDGET ? (step.upgrade ? 101 : 200) : 429 });
            if (count > BUDGET) figures.requestsRefused++;
          }
          figures.rateCases++;
        },
      ),
      // No shrinking: each case needs networks no earlier case spent, and only RATE_CASES pairs were added.
      { numRuns: RATE_CASES, seed: PROPERTY_SEED, endOnFailure: true },
    );
  }, 120_000);

  it('gives the addresses of one /64 one address’s HTTP connections, and other /64s their own', async () => {
    const { host, port } = target(connections);
    const member = await connections.token('member');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ network: fc.integer({ min: 0, max: NETWORKS - 1 }), host: fc.integer({ min: 1, max: HOSTS }) }), {
          minLength: 1,
          maxLength: 16,
        }),
        async (from) => {
          // Connections asking for a 6 MB page and reading nothing until past the write timeout.
          const opened: { socket: Socket; received: Buffer[]; closed: Promise<void> }[] = [];
          try {
            for (const { network, host: local } of from) {
              const received: Buffer[] = [];
              const socket = connect({ host, port, localAddress: addresses.address(network, local) });
              const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
              socket.on('data', (chunk: Buffer) => received.push(chunk));
              socket.on('error', () => undefined);
              await new Promise((resolve) => socket.once('connect', resolve));
              socket.pause();
              socket.write(`GET /v2/posts?first=100 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${member}\r\n\r\n`);
              opened.push({ socket, received, closed });
            }
            await new Promise((resolve) => setTimeout(resolve, WRITE_TIMEOUT + 1_000));
            for (const connection of opened) connection.socket.resume();
            await Promise.all(opened.map((connection) => connection.closed));
            // The model: per /64, whichever CONNECTIONS_PER_ADDRESS come first are answered, the rest refused.
            const perNetwork = new Map<number, number>();
            for (const { network } of from) perNetwork.set(network, (perNetwork.get(network) ?? 0) + 1);
            const statuses = new Map<number, string[]>();
            opened.forEach((connection, index) => {
              const network = from[index]?.network ?? 0;
              const status = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(connection.received).toString('latin1', 0, 64))?.[1] ?? 'none';
              statuses.set(network, [...(statuses.get(network) ?? []), status]);
            });
            for (const [network, count] of perNetwork) {
              const seen = statuses.get(network) ?? [];
              expect({
                network,
                answered: seen.filter((status) => status === '200').length,
                refused: seen.filter((status) => status === '429').length,
              }).toEqual({
                network,
                answered: Math.min(count, CONNECTIONS_PER_ADDRESS),
                refused: Math.max(0, count - CONNECTIONS_PER_ADDRESS),
              });
              figures.connectionsRefused += Math.max(0, count - CONNECTIONS_PER_ADDRESS);
            }
            figures.connectionCases++;
          } finally {
            for (const connection of opened) connection.socket.destroy();
          }
        },
      ),
      {
        numRuns: 5,
        seed: PROPERTY_SEED,
        examples: [[Array.from({ length: 8 }, (_, index) => ({ network: 0, host: (index % HOSTS) + 1 }))]],
      },
    );
  }, 120_000);
});
