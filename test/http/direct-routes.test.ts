// Runs on: sqlite, postgresql
/**
 * REST GET and HEAD answered before the Express chain (docs/decisions.md §6, runtime/http/direct.ts):
 * for generated requests — the demo's routes under every version, ids that exist and that do not,
 * refused versions, self-mounted paths, the landing answer, query strings a hostile client sends,
 * tokens of every role, none, and forged ones — a server answering them directly answers exactly
 * what the Express chain answers: status, body, and every header a client reads. The chain's
 * server is the same application on the same database with CORS configured, which turns direct
 * routes off; its CORS headers are left out of the comparison. Checked under URI versioning and
 * under header versioning with a global prefix and a default version.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { rawExchange } from '../support/raw-http.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

/** The headers compared (CORS's own are not: only the chain's server has them). */
const HEADERS = [
  'content-type',
  'content-length',
  'x-next-cursor',
  'deprecation',
  'sunset',
  'allow',
  'www-authenticate',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
] as const;

/** What a client sees of an answer, with the parts that differ by request (its id) left out. */
interface Seen {
  readonly status: number;
  readonly headers: Record<string, string | null>;
  /** `Vary` without CORS's `Origin`. */
  readonly vary: string[];
  readonly body: unknown;
  readonly requestId: 'returned' | 'missing';
}

async function seen(response: Response): Promise<Seen> {
  // The two servers listen on different ports, which the MCP host's metadata URL names.
  const port = (value: string): string => value.replace(/\/\/127\.0\.0\.1:\d+\//g, '//127.0.0.1:PORT/');
  const text = port(await response.text());
  const headers = Object.fromEntries(
    HEADERS.map((name) => [name, ((value) => (value === null ? null : port(value)))(response.headers.get(name))]),
  );
  const vary = (response.headers.get('vary') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'origin');
  let body: unknown = text;
  if (text !== '' && /json/.test(response.headers.get('content-type') ?? '')) {
    body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && 'requestId' in body) body = { ...body, requestId: 'present' };
  }
  return { status: response.status, headers, vary, body, requestId: response.headers.get('x-request-id') ? 'returned' : 'missing' };
}

/** A pair of servers on one database: one answering REST GETs directly, one through the chain. */
interface Pair {
  readonly direct: InProcessServer;
  readonly chain: InProcessServer;
}

async function startPair(env: Record<string, string>): Promise<Pair> {
  const direct = await startInProcessServer({ seed: { orgs: 2, users: 6, posts: 3 }, env });
  const chain = await startInProcessServer({
    databaseUrl: direct.databaseUrl,
    env: { ...env, APP_HTTP__CORS_ORIGINS: 'https://elsewhere.example' },
  });
  return { direct, chain };
}

/** Paths (without prefix or version) a client may ask for, built from the seeded rows. */
function pathsOf(server: InProcessServer): string[] {
  const post = server.seeded.posts[0]?.id ?? 'none';
  const user = server.seeded.users[0]?.id ?? 'none';
  return [
    '/posts',
    `/posts/${post}`,
    `/posts/${post.toUpperCase()}`,
    '/posts/0192f0e0-0000-7000-8000-000000000000',
    '/posts/not-an-id',
    '/posts/%zz',
    `/posts/${post}/`,
    '/users',
    `/users/${user}`,
    '/users/x',
    '/notifications',
    '/meta',
    '/',
    '/orgs',
    '/nothing-here',
    '/POSTS',
  ];
}

/** The address forms of a path: as written, under each version, under an unknown or malformed one. */
const VERSION_PREFIXES = ['', '/v1', '/v2', '/v3', '/v2.0', '/vé', '/V2', '/v'] as const;
/** Paths that self-mounted transports serve, whatever the version router would say. */
const SELF_MOUNTED = [
  '/health',
  '/graphql',
  '/GRAPHQL',
  '/api-json',
  '/api',
  '/api/',
  '/mcp',
  '/.well-known/oauth-protected-resource/mcp',
  '/metrics',
  '/health/x',
] as const;
const QUERIES = [
  '',
  '?first=2',
  '?first=abc&first=2',
  '?first=1&after=',
  '?after=0192f0e0-0000-7000-8000-000000000000',
  '?a[b]=1&first[]=3',
  '?%zz=1&first=%zz',
  '?' + 'x'.repeat(300),
] as const;
/** Version headers and media types: none, declared versions, unknown and malformed ones. */
const STATED = [undefined, '1', '2', '7', ' 2 ', 'a_b', '', '9'.repeat(40)] as const;

function requestOf(pair: Pair, prefix: string) {
  return fc.record({
    method: fc.constantFrom('GET', 'HEAD'),
    path: fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(...VERSION_PREFIXES), fc.constantFrom(...pathsOf(pair.direct)))
          .map(([version, path]) => `${prefix}${version}${version !== '' && path === '/' ? '' : path}`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...SELF_MOUNTED) },
    ),
    query: fc.constantFrom(...QUERIES),
    role: fc.constantFrom('admin', 'member', 'viewer', 'none', 'forged', 'other-org'),
    version: fc.constantFrom(...STATED),
    accept: fc.constantFrom(undefined, 'application/json', 'application/json; version=2', 'text/html', '*/*; version=1'),
  });
}

async function tokenFor(server: InProcessServer, role: string): Promise<string | undefined> {
  if (role === 'none') return undefined;
  if (role === 'forged') return 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
  if (role === 'other-org') return server.token('member', 1);
  return server.token(role as 'admin' | 'member' | 'viewer');
}

/** GraphQL documents: valid, refused by the parser, by validation, by limits or guards, failing at run time, a subscription. */
const DOCUMENTS = [
  '{ users(first: 2) { id name } }',
  'query Q($id: ID!) { user(id: $id) { id name org { name } } }',
  'query Q { posts(first: 2) { id title author { name } } } query R { __typename }',
  '{ users(first: 2) { id name posts(first: 2) { edges { node { title } } } } }',
  '{ users(first: 2) { id nope } }',
  '{ users(first: ',
  '',
  '{ __typename }',
  '{ __schema { queryType { name } } }',
  'subscription { postPublished { id } }',
  'mutation { publishPost(id: "0192f0e0-0000-7000-8000-000000000000") { id } }',
  'mutation { createPost(input: { title: "" }) { id } }',
  `{ ${Array.from({ length: 40 }, (_, index) => `a${index}: users(first: 100) { id }`).join(' ')} }`,
  '{ users(first: 2) { org { users(first: 2) { org { users(first: 2) { org { users(first: 2) { org { name } } } } } } } } }',
] as const;

/** Bodies of `POST /graphql`: objects of generated parameters, and raw texts graphql-http refuses. */
function graphqlBodyOf(pair: Pair) {
  const id = pair.direct.seeded.users[0]?.id ?? 'none';
  // A persisted document (generated/graphql/documents.json), read when trusted documents are allowed.
  const persisted = '00e21c8ab349784104441ccc02bd2b82b349ab4e96e03d0225bfe5d3b64ac059';
  const parameters = fc
    .record(
      {
        query: fc.oneof(fc.constantFrom(...DOCUMENTS), fc.constantFrom(null, 7, ['{ __typename }'])),
        variables: fc.constantFrom(null, {}, { id }, { id: 7 }, { id: 'not-an-id' }, [], 'x'),
        operationName: fc.constantFrom(null, 'Q', 'R', 'Nope', 5),
        extensions: fc.constantFrom(
          null,
          {},
          { persistedQuery: { sha256Hash: 'x' } },
          { persistedQuery: { version: 1, sha256Hash: persisted } },
          [],
          'x',
        ),
        documentId: fc.constantFrom('sha256:00', 3, `sha256:${persisted}`),
      },
      { requiredKeys: [] },
    )
    .map((body) => JSON.stringify(body));
  return fc.oneof(
    { weight: 6, arbitrary: parameters },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'null', '[]', '7', '"x"', '{', '{"query":"{ __typename }"', '\u00e9', '{"query":"{ __typename }"}x'),
    },
  );
}

function describePair(name: string, env: Record<string, string>, prefix: string, versionHeader: string): void {
  describe(name, () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await startPair(env);
    });
    afterAll(async () => {
      await pair.chain.stop();
      await pair.direct.stop();
    });

    it('answers every generated GET and HEAD as the Express chain answers it', async () => {
      await fc.assert(
        fc.asyncProperty(requestOf(pair, prefix), async (request) => {
          const token = await tokenFor(pair.direct, request.role);
          const headers: Record<string, string> = {};
          if (token) headers.authorization = `Bearer ${token}`;
          if (request.version !== undefined) headers[versionHeader] = request.version;
          if (request.accept !== undefined) headers.accept = request.accept;
          const send = (server: InProcessServer): Promise<Response> =>
            fetch(`${server.url}${request.path}${request.query}`, { method: request.method, headers, redirect: 'manual' });
          const [direct, chain] = await Promise.all([send(pair.direct).then(seen), send(pair.chain).then(seen)]);
          expect(direct).toEqual(chain);
        }),
        { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
      );
    });

    it('answers every generated GraphQL request as graphql-http answers it through the chain', async () => {
      await fc.assert(
        fc.asyncProperty(
          graphqlBodyOf(pair),
          fc.constantFrom('admin', 'member', 'none', 'forged'),
          fc.constantFrom(
            undefined,
            '',
            'application/json',
            'application/graphql-response+json',
            '*/*',
            'application/json; charset=latin1, application/graphql-response+json',
            'application/json; charset=latin1',
            'text/html, application/*',
          ),
          async (body, role, accept) => {
            const token = await tokenFor(pair.direct, role);
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (token) headers.authorization = `Bearer ${token}`;
            if (accept !== undefined) headers.accept = accept;
            const send = (server: InProcessServer): Promise<Seen> =>
              fetch(`${server.url}/graphql`, { method: 'POST', headers, body }).then(seen);
            // Error extensions carry the request's id, which differs by request.
            const unlabelled = (answer: Seen): Seen => ({
              ...answer,
              body: JSON.parse(JSON.stringify(answer.body).replace(/\\?"requestId\\?":\\?"[^"\\]*\\?"/g, '"requestId":"…"')) as unknown,
            });
            const [direct, chain] = await Promise.all([send(pair.direct).then(unlabelled), send(pair.chain).then(unlabelled)]);
            expect(direct).toEqual(chain);
          },
        ),
        { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
      );
    });

    it('answers request targets fetch cannot send — fragments, whitespace, absolute form, *, bytes above 0x7F — as the chain does', async () => {
      const token = await pair.direct.token('admin');
      const post = pair.direct.seeded.posts[0]?.id ?? '';
      const version = prefix === '' ? '/v2' : '';
      const targets = [
        `${prefix}${version}/posts/${post}#x`,
        `${prefix}${version}/posts?first=2#x`,
        `${prefix}${version}/posts/${post}\t`,
        `${prefix}${version}/posts?first=2\f`,
        `http://127.0.0.1${prefix}${version}/posts?first=2`,
        '*',
        `${prefix}${version}/posts/\u00e9`,
        '/health#x',
        '/metrics#x',
      ];
      for (const target of targets) {
        const exchange = (server: InProcessServer): Promise<string> =>
          rawExchange(
            server.url,
            Buffer.from(
              `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n${prefix === '' ? '' : `${versionHeader}: 2\r\n`}Connection: close\r\n\r\n`,
              'latin1',
            ),
          ).then((answer) => {
            const text = answer.toString('utf8');
            const status = text.slice(0, text.indexOf('\r\n'));
            const body = text.slice(text.indexOf('\r\n\r\n') + 4).replace(/"requestId":"[^"]*"/, '"requestId":"…"');
            return `${status}\n${body}`;
          });
        const [direct, chain] = await Promise.all([exchange(pair.direct), exchange(pair.chain)]);
        expect({ target, answer: direct }).toEqual({ target, answer: chain });
      }
    });

    it('pages the same rows with the same cursors, and refuses the same requests', async () => {
      const token = await pair.direct.token('admin');
      const path = `${prefix}${prefix === '' ? '/v2' : ''}/posts?first=2`;
      const headers = { authorization: `Bearer ${token}`, ...(prefix === '' ? {} : { [versionHeader]: '2' }) };
      const direct = await seen(await fetch(`${pair.direct.url}${path}`, { headers }));
      expect(direct.status).toBe(200);
      expect(direct.headers['x-next-cursor']).toMatch(/^[0-9a-f-]{36}$/);
      expect(direct).toEqual(await seen(await fetch(`${pair.chain.url}${path}`, { headers })));
      const anonymous = await seen(await fetch(`${pair.direct.url}${path}`));
      expect(anonymous.status).toBe(401);
      expect(anonymous).toEqual(await seen(await fetch(`${pair.chain.url}${path}`)));
    });
  });
}

describePair('URI versioning', {}, '', 'x-api-version');
describePair(
  'header versioning under a prefix, version 2 by default, trusted documents allowed',
  { APP_HTTP__VERSIONING: 'header', APP_HTTP__PREFIX: '/rest', APP_HTTP__DEFAULT_VERSION: '2', APP_GRAPHQL__TRUSTED_DOCUMENTS: 'allow' },
  '/rest',
  'x-api-version',
);
