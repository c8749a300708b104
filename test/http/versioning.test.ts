// Runs on: sqlite, postgresql
/**
 * API versioning over real HTTP (docs/behaviour.md §4.3, §7, §9): every rule of §9.3 under each strategy that
 * it applies to, 405 with Allow, version lifecycle headers, the default version, the global prefix,
 * boot logs, and the versioned WebSocket gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError } from '../../runtime/server/config.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

type Strategy = 'uri' | 'header' | 'media_type';

const servers: Partial<Record<string, InProcessServer>> = {};
let draft: string;

beforeAll(async () => {
  const configurations: Record<string, Record<string, string>> = {
    // Debug: the per-route boot lines are logged at debug (docs/decisions.md §4).
    uri: { APP_LOG__LEVEL: 'debug' },
    header: { APP_HTTP__VERSIONING: 'header', APP_LOG__LEVEL: 'debug' },
    media_type: { APP_HTTP__VERSIONING: 'media_type' },
    headerDefault: { APP_HTTP__VERSIONING: 'header', APP_HTTP__DEFAULT_VERSION: '2' },
    uriPrefix: { APP_HTTP__PREFIX: '/rest' },
    customHeader: { APP_HTTP__VERSIONING: 'header', APP_HTTP__VERSION_HEADER: 'Api-Version' },
  };
  await Promise.all(
    Object.entries(configurations).map(
      async ([name, env]) => (servers[name] = await startInProcessServer({ env, seed: { orgs: 1, users: 3, posts: 4 } })),
    ),
  );
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map(async (server) => server?.stop()));
});

function server(name: string): InProcessServer {
  const found = servers[name];
  if (!found) throw new Error(`no server ${name}`);
  return found;
}

/** A request stating `version` the way `strategy` does. */
async function call(name: string, strategy: Strategy, method: string, path: string, version?: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let url = path;
  if (version !== undefined) {
    if (strategy === 'uri') url = path === '/' ? `/v${version}` : `/v${version}${path}`;
    if (strategy === 'header') headers[name === 'customHeader' ? 'Api-Version' : 'X-API-Version'] = version;
    if (strategy === 'media_type') headers.accept = `application/json; version=${version}`;
  }
  return fetch(`${server(name).url}${url}`, { method, headers });
}

const draftOf = (name: string): string => {
  const admin = server(name).seeded.users.find((user) => user.role === 'admin');
  return server(name).seeded.posts.find((post) => post.authorId === admin?.id && post.status === 'draft')?.id ?? '';
};

describe.each(['uri', 'header', 'media_type'] as const)('%s versioning (docs/behaviour.md §9.2, §9.3)', (strategy) => {
  let admin: string;

  beforeAll(async () => {
    admin = await server(strategy).token('admin');
    draft = draftOf(strategy);
  });

  it('serves each declared version of a versioned route', async () => {
    for (const version of ['1', '2']) {
      const response = await call(strategy, strategy, 'GET', '/posts', version, admin);
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it('answers an unknown version on a versioned path with 404 naming the versions it serves (never a fallback)', async () => {
    const response = await call(strategy, strategy, 'GET', '/posts', '3', admin);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', versions: ['1', '2'] });
  });

  it('answers a malformed version with 400 naming the versions', async () => {
    const response = await call(strategy, strategy, 'GET', '/posts', strategy === 'uri' ? '2!' : '2 beta!', admin);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 400, code: 'BAD_USER_INPUT', versions: ['1', '2'] });
  });

  it('answers a version longer than 32 bytes with 400', async () => {
    const response = await call(strategy, strategy, 'GET', '/posts', '1'.repeat(33), admin);
    expect(response.status).toBe(400);
  });

  it('answers a path parameter that is not valid percent-encoding with 400, for every method, and keeps serving', async () => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'POST'] as const) {
      const response = await call(strategy, strategy, method, '/posts/%zz', '2', admin);
      expect(response.status).toBe(400);
      if (method !== 'HEAD') expect(await response.json()).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
    }
    expect((await call(strategy, strategy, 'GET', '/posts', '2', admin)).status).toBe(200);
  });

  it('answers a path that has versions, stated none and no default, with 404 naming them', async () => {
    const response = await call(strategy, strategy, 'GET', '/posts', undefined, admin);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ versions: ['1', '2'] });
  });

  it('mounts POST /posts/:id/publish under version 2 only: version 1 is 405 with Allow', async () => {
    const v1 = await call(strategy, strategy, 'POST', `/posts/${draft}/publish`, '1', admin);
    expect(v1.status).toBe(405);
    expect(v1.headers.get('allow')).toBe('');
    const v2 = await call(strategy, strategy, 'POST', `/posts/${draft}/publish`, '2', admin);
    expect(v2.status).toBe(200);
    expect(await v2.json()).toMatchObject({ id: draft, status: 'published' });
  });

  it('answers a verb not served on an existing path with 405 and Allow', async () => {
    const response = await call(strategy, strategy, 'DELETE', '/posts', '2', admin);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toMatchObject({ status: 405, allow: ['GET', 'POST'] });
  });

  it('keeps unversioned routes reachable whatever version is stated (decided per route, not per prefix)', async () => {
    for (const version of [undefined, '1', '2', '9']) {
      const users =
        strategy === 'uri' && version !== undefined ? undefined : await call(strategy, strategy, 'GET', '/users', version, admin);
      if (users) expect(users.status).toBe(200);
    }
    const meta = await call(strategy, strategy, 'GET', '/meta', undefined);
    expect(await meta.json()).toEqual({ name: 'resource-service demo', version: null });
  });

  it('lets a stated version beat an unversioned route at the same address', async () => {
    const response = await call(strategy, strategy, 'GET', '/meta', '2');
    expect(await response.json()).toEqual({ name: 'resource-service demo', version: '2' });
  });

  it('selects a versioned controller mounted at path /', async () => {
    for (const version of ['1', '2']) {
      const response = await call(strategy, strategy, 'GET', '/', version);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ name: 'resource-service demo', version });
    }
  });

  it('marks responses of the deprecated version with Deprecation and Sunset', async () => {
    const v1 = await call(strategy, strategy, 'GET', '/posts', '1', admin);
    expect(v1.headers.get('deprecation')).toBe(`@${Date.parse('2026-06-01') / 1000}`);
    expect(v1.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    const v2 = await call(strategy, strategy, 'GET', '/posts', '2', admin);
    expect(v2.headers.get('deprecation')).toBeNull();
  });

  it('keeps self-mounted endpoints neutral to any stated version', async () => {
    for (const version of [undefined, '2', '9', 'bad!']) {
      expect((await call(strategy, strategy === 'uri' ? 'header' : strategy, 'GET', '/health', version)).status).toBe(200);
      const graphql = await fetch(`${server(strategy).url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, ...(version ? { 'x-api-version': version } : {}) },
        body: JSON.stringify({ query: '{ orgs { name } }' }),
      });
      expect(graphql.status).toBe(200);
    }
  });
});

describe('decided per route, method and path, not per address (docs/behaviour.md §9.3.1)', () => {
  /** POST /meta offering versions 1 and 2, stating `version` the way `strategy` does. */
  async function negotiate(name: string, strategy: Strategy, version: string | undefined, url = '/meta'): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (version !== undefined && strategy === 'header') headers['X-API-Version'] = version;
    if (version !== undefined && strategy === 'media_type') headers.accept = `application/json; version=${version}`;
    return fetch(`${server(name).url}${url}`, { method: 'POST', headers, body: JSON.stringify({ versions: ['1', '2'] }) });
  }

  it.each(['header', 'media_type'] as const)(
    'serves the unversioned POST /meta beside the versioned GET /meta whatever version is stated (%s)',
    async (strategy) => {
      for (const version of [undefined, '1', '2', '9', 'bad version!']) {
        const response = await negotiate(strategy, strategy, version);
        expect({ version, status: response.status }).toEqual({ version, status: 200 });
        expect(await response.json()).toEqual({ name: 'resource-service demo', version: '2' });
        expect(response.headers.get('deprecation')).toBeNull();
      }
    },
  );

  it('serves it whatever version is stated when a default version is configured too', async () => {
    for (const version of [undefined, '1', '2', '9']) expect((await negotiate('headerDefault', 'header', version)).status).toBe(200);
  });

  it.each(['header', 'media_type'] as const)('keeps selecting among the versioned routes of GET at that address (%s)', async (strategy) => {
    expect(await (await call(strategy, strategy, 'GET', '/meta', '2')).json()).toEqual({ name: 'resource-service demo', version: '2' });
    expect(await (await call(strategy, strategy, 'GET', '/meta', undefined)).json()).toEqual({
      name: 'resource-service demo',
      version: null,
    });
    for (const version of ['1', '9']) {
      const unknown = await call(strategy, strategy, 'GET', '/meta', version);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND', versions: ['2'] });
    }
    const malformed = await call(strategy, strategy, 'GET', '/meta', 'bad version!');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'BAD_USER_INPUT', versions: ['2'] });
  });

  it.each(['header', 'media_type'] as const)(
    'answers a method nothing serves at that address with 405, allowing the methods that would answer that version (%s)',
    async (strategy) => {
      const cases: [string | undefined, string][] = [
        [undefined, 'GET, POST'],
        ['2', 'GET, POST'],
        ['9', 'POST'],
      ];
      for (const [version, allow] of cases) {
        const response = await call(strategy, strategy, 'DELETE', '/meta', version);
        expect({ version, status: response.status, allow: response.headers.get('allow') }).toEqual({ version, status: 405, allow });
      }
    },
  );

  it('under URI versioning serves the unversioned POST only at /meta: /v2/meta is GET only', async () => {
    expect((await negotiate('uri', 'uri', undefined)).status).toBe(200);
    const versioned = await negotiate('uri', 'uri', undefined, '/v2/meta');
    expect(versioned.status).toBe(405);
    expect(versioned.headers.get('allow')).toBe('GET');
    expect((await negotiate('uri', 'uri', undefined, '/v9/meta')).status).toBe(404);
  });
});

describe('header and media_type specifics', () => {
  it.each(['header', 'media_type'] as const)('answers the URI form with 404 under %s versioning, naming the versions', async (strategy) => {
    const admin = await server(strategy).token('admin');
    const response = await fetch(`${server(strategy).url}/v2/posts`, { headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ versions: ['1', '2'] });
  });

  it('varies responses on the version header', async () => {
    const response = await call('header', 'header', 'GET', '/posts', '2', await server('header').token('admin'));
    expect(response.headers.get('vary')).toContain('X-API-Version');
  });

  it('reads the header named by APP_HTTP__VERSION_HEADER', async () => {
    const token = await server('customHeader').token('admin');
    expect((await call('customHeader', 'header', 'GET', '/posts', '2', token)).status).toBe(200);
    const ignored = await fetch(`${server('customHeader').url}/posts`, {
      headers: { authorization: `Bearer ${token}`, 'x-api-version': '2' },
    });
    expect(ignored.status).toBe(404);
  });

  it('reads version= from the first media range that carries one', async () => {
    const token = await server('media_type').token('admin');
    const response = await fetch(`${server('media_type').url}/meta`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/html;q=0.9, application/json; charset=utf-8; version=2' },
    });
    expect(await response.json()).toEqual({ name: 'resource-service demo', version: '2' });
  });
});

describe('APP_HTTP__DEFAULT_VERSION', () => {
  it('answers callers who state none with the default version', async () => {
    const token = await server('headerDefault').token('admin');
    const response = await call('headerDefault', 'header', 'GET', '/posts', undefined, token);
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBeNull();
  });

  it('answers only callers who state none: a stated version still selects', async () => {
    const token = await server('headerDefault').token('admin');
    expect((await call('headerDefault', 'header', 'GET', '/posts', '1', token)).headers.get('deprecation')).not.toBeNull();
    expect((await call('headerDefault', 'header', 'GET', '/posts', '7', token)).status).toBe(404);
  });

  it('yields to an unversioned route at the same address', async () => {
    const response = await call('headerDefault', 'header', 'GET', '/meta', undefined);
    expect(await response.json()).toEqual({ name: 'resource-service demo', version: null });
  });

  it('fails boot when it names no declared version, listing the existing ones', async () => {
    await expect(startInProcessServer({ env: { APP_HTTP__DEFAULT_VERSION: '3' } })).rejects.toThrow(ConfigError);
    await expect(startInProcessServer({ env: { APP_HTTP__DEFAULT_VERSION: '3' } })).rejects.toThrow(
      'APP_HTTP__DEFAULT_VERSION: names version 3, which no controller declares; the declared versions are 1, 2',
    );
  });
});

describe('APP_HTTP__PREFIX', () => {
  it('stacks prefix, then version, then path; self-mounted endpoints keep their own paths', async () => {
    const token = await server('uriPrefix').token('admin');
    const url = server('uriPrefix').url;
    expect((await fetch(`${url}/rest/v2/posts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/rest/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/v2/posts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });
});

describe('boot logs (docs/behaviour.md §9.1)', () => {
  it('log one line per mounted route at debug: controller, method, address, handler', () => {
    const mounted = server('uri').logs.filter((entry) => typeof entry.address === 'string');
    expect(mounted).toContainEqual(
      expect.objectContaining({
        level: 20,
        controller: 'PostsController',
        method: 'POST',
        address: '/v2/posts/:id/publish',
        handler: 'PostsController.publish',
      }),
    );
    expect(mounted.filter((entry) => entry.address === '/v1/posts/:id/publish')).toEqual([]);
    expect(mounted).toContainEqual(
      expect.objectContaining({ controller: 'UsersController', method: 'GET', address: '/users', handler: 'UsersController.list' }),
    );
  });

  it('give the version its own field under header versioning, with the address a client uses', () => {
    const mounted = server('header').logs.filter((entry) => typeof entry.address === 'string');
    expect(mounted).toContainEqual(
      expect.objectContaining({
        controller: 'PostsController',
        method: 'GET',
        address: '/posts',
        handler: 'PostsController.list',
        version: '1',
      }),
    );
    expect(mounted).toContainEqual(
      expect.objectContaining({
        controller: 'PostsController',
        method: 'GET',
        address: '/posts',
        handler: 'PostsController.list',
        version: '2',
      }),
    );
  });
});

describe('a versioned WebSocket gateway (docs/behaviour.md §4.4, §9.5)', () => {
  async function exchange(url: string, messages: object[]): Promise<unknown[]> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const replies: unknown[] = [];
    for (const message of messages) {
      const reply = new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(messageText(data)))));
      socket.send(JSON.stringify(message));
      replies.push(await reply);
    }
    socket.close();
    return replies;
  }

  it.each(['uri', 'header', 'media_type'] as const)(
    'is served at /v1/ws under %s versioning, with the token from the upgrade',
    async (strategy) => {
      const member = server(strategy).seeded.users.find((user) => user.role === 'member');
      const token = await server(strategy).token('member');
      const url = `${server(strategy).url.replace('http', 'ws')}/v1/ws?token=${token}`;
      expect(await exchange(url, [{ event: 'ping', data: 7 }, { event: 'whoami' }])).toEqual([
        { event: 'ping', data: { pong: 7 } },
        { event: 'whoami', data: { sub: member?.id, org: member?.orgId } },
      ]);
    },
  );

  it('refuses a gated message without a token, and answers a public one', async () => {
    const url = `${server('header').url.replace('http', 'ws')}/v1/ws`;
    expect(await exchange(url, [{ event: 'whoami' }, { event: 'ping', data: 'x' }])).toEqual([
      { event: 'whoami', error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('signed-in caller') } },
      { event: 'ping', data: { pong: 'x' } },
    ]);
  });

  it('is not served at its unversioned path', async () => {
    const socket = new WebSocket(`${server('header').url.replace('http', 'ws')}/ws`);
    await expect(
      new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      }),
    ).rejects.toThrow();
  });
});
