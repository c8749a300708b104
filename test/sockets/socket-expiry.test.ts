/**
 * Sockets end with their token (docs/hostile-input.md §9): every WebSocket path the server logs —
 * graphql-ws, each gateway, any transport added later — is closed with 4401 when the token it was
 * opened (or initialised) with expires, so no operation is answered and no event delivered after
 * `exp`; the expired token then opens nothing. Whatever the token's lifetime (generated, 1–3 s).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mintToken } from '../../runtime/auth/authentication.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { TEST_SECRET } from '../support/project.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { type SocketPath, socketPaths } from '../support/sockets.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 1, users: 3, posts: 1 } });
});

afterAll(async () => {
  await server.stop();
});

/** A member's token that expires `seconds` from now. */
async function expiringToken(seconds: number): Promise<string> {
  const member = server.user('member');
  return mintToken(TEST_SECRET, { sub: member.id, org_id: member.orgId, role: 'member' }, `${seconds}s`);
}

/** What a socket saw: its close code, and when it closed (milliseconds since the epoch). */
interface Closed {
  readonly code: number;
  readonly at: number;
}

/**
 * Opens `socket` with `token` (in `connection_init` for graphql-ws, where a subscription to
 * `postPublished` starts; in the URL for a gateway) and resolves once the server closes it.
 */
function openUntilClosed(socket: SocketPath, token: string): Promise<Closed> {
  const query = socket.transport === 'graphql-ws' ? '' : `?token=${encodeURIComponent(token)}`;
  const client = new WebSocket(`${server.url.replace(/^http/, 'ws')}${socket.path}${query}`, [...socket.protocols]);
  return new Promise((resolve, reject) => {
    client.once('error', reject);
    client.once('close', (code) => resolve({ code, at: Date.now() }));
    client.once('open', () => {
      if (socket.transport !== 'graphql-ws') return;
      client.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }));
      client.once('message', (data) => {
        const ack = JSON.parse(messageText(data)) as { type?: string };
        if (ack.type !== 'connection_ack') return;
        client.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }));
      });
    });
  });
}

/** How an upgrade of a gateway path with `token` in its URL went: opened (and closed again), or the refusal's status and problem. */
interface Upgrade {
  readonly status: number;
  readonly code?: string;
  readonly detail?: string;
  readonly authenticate?: string;
}

function upgrade(socket: SocketPath, token: string | undefined): Promise<Upgrade> {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  const client = new WebSocket(`${server.url.replace(/^http/, 'ws')}${socket.path}${query}`, [...socket.protocols]);
  return new Promise((resolve, reject) => {
    client.once('open', () => {
      client.close();
      resolve({ status: 101 });
    });
    client.once('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const body = JSON.parse(text) as { code?: string; detail?: string };
        const authenticate = response.headers['www-authenticate'];
        resolve({ status: response.statusCode ?? 0, code: body.code, detail: body.detail, ...(authenticate ? { authenticate } : {}) });
      });
    });
    client.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('sockets end with their token (docs/hostile-input.md §9)', () => {
  it('closes every socket path with 4401 when its token expires, and the expired token opens nothing', async () => {
    const paths = socketPaths(server);
    expect(paths.map((path) => path.transport)).toEqual(expect.arrayContaining(['graphql-ws', expect.stringMatching(/^gateway /)]));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), async (seconds) => {
        const token = await expiringToken(seconds);
        // jose's `exp` is whole seconds: the token expires at the start of its last second at the latest.
        const expiresAt = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp * 1000;
        const closed = await Promise.all(paths.map((path) => openUntilClosed(path, token)));
        for (const [index, socket] of closed.entries()) {
          expect(socket.code, paths[index]?.path).toBe(4401);
          expect(socket.at, paths[index]?.path).toBeGreaterThanOrEqual(expiresAt);
          expect(socket.at - expiresAt, paths[index]?.path).toBeLessThan(1_000);
        }
        // Once expired, the token is refused at the door: graphql-ws closes 4403 at connection_init,
        // a gateway refuses the upgrade with 401.
        const graphqlWs = paths.find((path) => path.transport === 'graphql-ws');
        if (graphqlWs) expect((await openUntilClosed(graphqlWs, token)).code).toBe(4403);
        for (const gateway of paths.filter((path) => path.transport.startsWith('gateway '))) {
          const refused = await upgrade(gateway, token);
          expect(refused, gateway.path).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', authenticate: 'Bearer' });
          expect(refused.detail, gateway.path).toBe('authentication failed: the token has expired');
        }
      }),
      { numRuns: 3 },
    );
  }, 60_000);
});

describe('a gateway opens nothing for a token that does not verify (docs/hostile-input.md §9)', () => {
  it('refuses the upgrade with 401 for a forged, malformed or foreign token; no token is anonymous, a valid one opens', async () => {
    const gateways = socketPaths(server).filter((path) => path.transport.startsWith('gateway '));
    expect(gateways.length).toBeGreaterThan(0);
    const member = server.user('member');
    const claims = { sub: member.id, org_id: member.orgId, role: 'member' };
    // Noise, or three segments of it as a JWT has; with `signed`, a well-formed token signed with another secret.
    const badToken = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc
        .array(fc.base64String({ minLength: 4, maxLength: 40 }), { minLength: 3, maxLength: 3 })
        .map((parts) => parts.map((part) => part.replace(/=+$/, '')).join('.')),
    );
    await fc.assert(
      fc.asyncProperty(badToken, fc.boolean(), async (candidate, signed) => {
        const token = signed ? await mintToken(`${candidate}-not-the-server-secret-0123456789`, claims, '1h') : candidate;
        for (const gateway of gateways) {
          const refused = await upgrade(gateway, token);
          expect(refused, `${gateway.path} ${token}`).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', authenticate: 'Bearer' });
          expect(refused.detail, token).toMatch(/^authentication failed: /);
        }
      }),
      { numRuns: 40, seed: PROPERTY_SEED },
    );
    for (const gateway of gateways) {
      expect((await upgrade(gateway, undefined)).status, gateway.path).toBe(101);
      expect((await upgrade(gateway, await server.token('member'))).status, gateway.path).toBe(101);
    }
  }, 60_000);
});
