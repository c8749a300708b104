/**
 * The landing answer at `/` (docs/behaviour.md §4.8): JSON listing the addresses by default, a small
 * HTML page for a browser, public and built once; it answers only what nothing before it did, so
 * the version router's decisions at `/` (docs/behaviour.md §9.3) and every other 404 stay as they were.
 * Also the boot log: one `listening on` line naming the entrypoints, the per-route lines at debug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

const servers: Partial<Record<string, InProcessServer>> = {};

beforeAll(async () => {
  const configurations: Record<string, Record<string, string>> = {
    uri: {},
    playground: { APP_GRAPHQL__PLAYGROUND: 'true', APP_GRAPHQL__PATH: '/gql', APP_LOG__LEVEL: 'debug' },
    header: { APP_HTTP__VERSIONING: 'header' },
    headerDefault: { APP_HTTP__VERSIONING: 'header', APP_HTTP__DEFAULT_VERSION: '2' },
  };
  await Promise.all(
    Object.entries(configurations).map(
      async ([name, env]) => (servers[name] = await startInProcessServer({ env, seed: { orgs: 1, users: 3, posts: 1 } })),
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

describe('GET / (docs/behaviour.md §4.8)', () => {
  it('answers JSON naming the API and the addresses to start from, without a token', async () => {
    const response = await fetch(`${server('uri').url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('vary')).toMatch(/Accept/);
    expect(await response.json()).toEqual({
      name: 'Resource Service API',
      health: '/health',
      docs: '/api',
      openapi: '/api-json',
      openapiYaml: '/api-yaml',
      graphql: '/graphql',
      subscriptions: '/graphql',
      mcp: '/mcp',
    });
    // curl's default Accept, and a HEAD, get the same.
    expect((await fetch(`${server('uri').url}/`, { headers: { accept: '*/*' } })).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
    const head = await fetch(`${server('uri').url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('lists the playground when it is on, at the configured GraphQL path', async () => {
    const document = (await (await fetch(`${server('playground').url}/`)).json()) as Record<string, string>;
    expect(document).toMatchObject({ graphql: '/gql', playground: '/gql', subscriptions: '/gql' });
  });

  it('answers a small HTML page of links to a browser, allowed by the security headers', async () => {
    const response = await fetch(`${server('playground').url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toContain('<title>Resource Service API</title>');
    for (const path of ['/api', '/api-json', '/api-yaml', '/gql', '/health', '/mcp'])
      expect(html).toContain(`<a href="${path}">${path}</a>`);
    expect(html).toContain('<code>ws(s)://…/gql</code>');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('leaves every other 404 as it was: other methods on /, and unknown paths', async () => {
    for (const [method, path] of [
      ['POST', '/'],
      ['DELETE', '/'],
      ['GET', '/nope'],
      ['GET', '/index.html'],
    ] as const) {
      const response = await fetch(`${server('uri').url}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { code: string }).code).toBe('NOT_FOUND');
    }
  });

  it('yields to the routes at / and to the version router when a version is stated (docs/behaviour.md §9.3.7)', async () => {
    // Under header versioning the demo's ApiRoot controllers serve GET / for versions 1 and 2.
    const stated = await fetch(`${server('header').url}/`, { headers: { 'x-api-version': '2' } });
    expect(stated.status).toBe(200);
    expect(await stated.json()).toMatchObject({ version: '2' });
    // An unknown version is 404 and a malformed one 400, never the landing.
    const unknown = await fetch(`${server('header').url}/`, { headers: { 'x-api-version': '9' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND', versions: ['1', '2'] });
    expect((await fetch(`${server('header').url}/`, { headers: { 'x-api-version': 'v 2!' } })).status).toBe(400);
    // The default version answers callers who state none: its route, not the landing.
    const defaulted = await fetch(`${server('headerDefault').url}/`);
    expect(defaulted.status).toBe(200);
    expect(await defaulted.json()).toMatchObject({ version: '2' });
    // No version stated and no route for it: the landing, instead of "state a version"; it varies with the header.
    const none = await fetch(`${server('header').url}/`);
    expect(none.status).toBe(200);
    expect(none.headers.get('vary')).toMatch(/X-API-Version/i);
    expect(await none.json()).toHaveProperty('graphql', '/graphql');
    // Under URI versioning the versioned roots are /v1 and /v2; / is the landing whatever a header says.
    expect(await (await fetch(`${server('uri').url}/v2`)).json()).toMatchObject({ version: '2' });
    expect(await (await fetch(`${server('uri').url}/`, { headers: { 'x-api-version': '2' } })).json()).toHaveProperty(
      'graphql',
      '/graphql',
    );
    // Elsewhere a caller stating no version still gets "state a version".
    const posts = await fetch(`${server('uri').url}/posts`);
    expect(posts.status).toBe(404);
    expect(((await posts.json()) as { detail: string }).detail).toContain('state one of the versions');
  });
});

describe('boot log (docs/decisions.md §4)', () => {
  it('says where everything is in the listening line, and logs routes and paths only at debug', () => {
    const listening = server('uri').logs.find((entry) => String(entry.msg).startsWith('listening on'));
    expect(listening).toMatchObject({ level: 30, entrypoints: { docs: '/api', graphql: '/graphql', health: '/health', mcp: '/mcp' } });
    expect(server('uri').logs.filter((entry) => typeof entry.address === 'string' || Array.isArray(entry.paths))).toEqual([]);
    const debug = server('playground').logs;
    expect(debug).toContainEqual(
      expect.objectContaining({ level: 20, controller: 'PostsController', method: 'GET', address: '/v2/posts' }),
    );
    expect(debug).toContainEqual(expect.objectContaining({ level: 20, transport: 'health', paths: ['/health'] }));
  });
});
