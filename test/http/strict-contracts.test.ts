// Runs on: sqlite, postgresql
/**
 * Strict contracts (docs/behaviour.md §4.2, §4.7, §7): one reading of every parameter —
 * a non-integer `first`, a query parameter the route does not read, a repeated one, a body key
 * named like an `Object.prototype` member and a body in another media type are each refused,
 * whatever the route — and one answer for one situation: a row the caller reads but may not
 * change is `FORBIDDEN` for an update and a delete alike. Real server process, real HTTP, on each
 * database of the run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A problem document as the server answers one. */
interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly field?: string;
  readonly issues?: readonly { path: string; message: string }[];
}

/** Every generated GET route with the query parameters it reads. */
const READ_ROUTES: readonly { path: string; reads: readonly string[] }[] = [
  { path: '/v2/posts', reads: ['first', 'after'] },
  { path: '/v1/posts', reads: ['first', 'after'] },
  { path: '/users', reads: ['first', 'after'] },
  { path: '/v2/notifications', reads: ['first', 'after'] },
  { path: '/v2/comments', reads: ['first', 'after', 'postId'] },
  { path: '/v2/audit-records', reads: ['first', 'after'] },
  { path: '/v2/digests', reads: ['first', 'after'] },
  { path: '/orgs', reads: [] },
];

/** The keyset routes: they read `first`. */
const PAGED = READ_ROUTES.filter((route) => route.reads.includes('first')).map((route) => route.path);

/** Names of `Object.prototype` members, which a body check once took for fields. */
const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

let server: TestServer;
let admin: string;
let member: string;
let postId: string;

async function problemOf(response: Response): Promise<Problem> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as Problem;
}

/** A JSON request with the admin's token (or `token`). */
function send(
  method: string,
  pathname: string,
  body: string | undefined,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  token = admin,
): Promise<Response> {
  return server.fetch(pathname, { method, token, headers, ...(body === undefined ? {} : { body }) });
}

beforeAll(async () => {
  server = await startTestServer();
  [admin, member] = await Promise.all([server.token('admin'), server.token('member')]);
  const posts = (await (await server.fetch('/v2/posts', { token: admin })).json()) as { id: string }[];
  postId = posts[0]?.id ?? '';
  expect(postId).not.toBe('');
});
afterAll(async () => server?.stop());

describe('one reading of every parameter', () => {
  it('refuses a first that is not an integer with 400 BAD_USER_INPUT naming it, on every keyset route', async () => {
    for (const path of PAGED) {
      for (const text of ['abc', '1.5', '1e2', '', '%205', '0x10', '-', '5%20', '+5', '１']) {
        const response = await server.fetch(`${path}?first=${text}`, { token: admin });
        expect(response.status, `${path}?first=${text}`).toBe(400);
        const body = await problemOf(response);
        expect(body.code).toBe('BAD_USER_INPUT');
        expect(body.field).toBe('first');
        expect(body.detail).toMatch(/^invalid first: expected an integer, got /);
      }
    }
  });

  it('still clamps an integer first to 1..100 and reads an unparseable after as the start', async () => {
    const count = async (query: string): Promise<number> => {
      const response = await server.fetch(`/v2/posts?${query}`, { token: admin });
      expect(response.status, query).toBe(200);
      return ((await response.json()) as unknown[]).length;
    };
    expect(await count('first=0')).toBe(1);
    expect(await count('first=-5')).toBe(1);
    expect(await count('first=1')).toBe(1);
    expect(await count('first=99999999999999999999')).toBe(await count('first=100'));
    expect(await count('first=2&after=not-a-cursor')).toBe(2);
    expect(await count('after=')).toBe(await count(''));
  });

  it('refuses a query parameter the route does not read, naming it and the ones it reads, on every route', async () => {
    for (const { path, reads } of READ_ROUTES) {
      const response = await server.fetch(`${path}?titel=x`, { token: admin });
      expect(response.status, path).toBe(400);
      const body = await problemOf(response);
      expect(body.code).toBe('BAD_USER_INPUT');
      expect(body.field).toBe('titel');
      expect(body.issues).toEqual([{ path: 'titel', message: 'is not a query parameter of this route' }]);
      expect(body.detail).toContain(reads.length > 0 ? `it reads ${reads.join(', ')}` : 'it reads no query parameter');
    }
    const byId = await server.fetch(`/v2/posts/${postId}?expand=author`, { token: admin });
    expect(byId.status).toBe(400);
    expect((await problemOf(byId)).field).toBe('expand');
    const create = await send('POST', `/v2/comments?dryRun=1`, JSON.stringify({ postId, body: 'hello' }));
    expect(create.status).toBe(400);
    expect((await problemOf(create)).field).toBe('dryRun');
    // Nothing was written by the refused create.
    const listed = (await (await server.fetch(`/v2/comments?postId=${postId}`, { token: admin })).json()) as unknown[];
    expect(listed).toEqual([]);
  });

  it('refuses a parameter it reads given twice', async () => {
    for (const query of ['first=1&first=2', 'after=a&after=b', `postId=${postId}&postId=${postId}`]) {
      const response = await server.fetch(`/v2/comments?${query}`, { token: admin });
      expect(response.status, query).toBe(400);
      const body = await problemOf(response);
      expect(body.code).toBe('BAD_USER_INPUT');
      expect(body.issues?.[0]?.message).toBe('is given more than once; give it once');
    }
  });

  it('refuses a body key named like an Object.prototype member as it refuses any unknown key', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const comment = await send(
        'POST',
        '/v2/comments',
        `{"postId":${JSON.stringify(postId)},"body":"hi",${JSON.stringify(name)}:{"x":1}}`,
      );
      expect(comment.status, name).toBe(400);
      expect((await problemOf(comment)).issues).toContainEqual({ path: `body.${name}`, message: 'is not a known field' });
      const post = await send('POST', '/v2/posts', `{"title":"t","body":"b",${JSON.stringify(name)}:1}`);
      expect(post.status, name).toBe(400);
      expect((await problemOf(post)).issues).toContainEqual({ path: `body.${name}`, message: 'is not a known field' });
    }
    expect((await (await server.fetch(`/v2/comments?postId=${postId}`, { token: admin })).json()) as unknown[]).toEqual([]);
  });

  it('answers a body in another media type, or in none, with 415; no body at all stays 400 "is required"', async () => {
    const body = JSON.stringify({ postId, body: 'hello' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      const response = await send('POST', '/v2/comments', body, { 'content-type': type });
      expect(response.status, type).toBe(415);
      const problem = await problemOf(response);
      expect(problem.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(problem.detail).toBe(`send the body as application/json (got ${type})`);
    }
    const untyped = await server.fetch('/v2/posts', { method: 'POST', token: admin, body: new Blob([body]) });
    expect(untyped.status).toBe(415);
    expect((await problemOf(untyped)).detail).toBe('send the body as application/json (got no content type)');
    const none = await send('POST', '/v2/posts', undefined);
    expect(none.status).toBe(400);
    expect((await problemOf(none)).detail).toMatch(/^invalid body: body.title is required/);
  });

  it('says "is required" of each required field a create leaves out', async () => {
    const comment = await send('POST', '/v2/comments', '{}');
    expect(comment.status).toBe(400);
    const problem = await problemOf(comment);
    // Checked by the body check or by the resource's input schema: either way the field is named and "is required".
    for (const field of ['postId', 'body'])
      expect(problem.issues?.find((issue) => issue.path.endsWith(field))?.message).toBe('is required');
    expect(problem.detail).toMatch(/postId is required/);
  });
});

describe('one answer for one situation', () => {
  it('refuses an update and a delete of a row the caller reads but may not change alike: 403 FORBIDDEN', async () => {
    const created = await send('POST', '/v2/comments', JSON.stringify({ postId, body: 'the admin wrote this' }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The member reads it (same org) but updates and deletes only their own comments.
    expect((await server.fetch(`/v2/comments/${id}`, { token: member })).status).toBe(200);
    const update = await send('PATCH', `/v2/comments/${id}`, JSON.stringify({ body: 'changed' }), undefined, member);
    const remove = await send('DELETE', `/v2/comments/${id}`, undefined, {}, member);
    expect([update.status, remove.status]).toEqual([403, 403]);
    expect((await problemOf(update)).code).toBe('FORBIDDEN');
    const removed = await problemOf(remove);
    expect(removed).toMatchObject({ code: 'FORBIDDEN', detail: 'you may not delete this Comment' });
    const graphql = await server.graphql(`mutation { deleteComment(id: "${id}") }`, { token: member });
    expect(graphql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // Still there; a row the caller cannot read at all stays 404 (another org's admin).
    expect((await server.fetch(`/v2/comments/${id}`, { token: admin })).status).toBe(200);
    const stranger = await server.token('admin', 1);
    expect((await send('DELETE', `/v2/comments/${id}`, undefined, {}, stranger)).status).toBe(404);
    expect((await send('DELETE', `/v2/comments/${id}`, undefined, {}, admin)).status).toBe(204);
  });
});

describe('hostile parameters, generated', () => {
  const params = { seed: PROPERTY_SEED, numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 3)) };

  it('any first that is not ^-?[0-9]+$ is 400; any that is answers 200', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 12, unit: 'binary' }), async (text) => {
        const response = await server.fetch(`/v2/posts?first=${encodeURIComponent(text)}`, { token: admin });
        expect(response.status).toBe(/^-?[0-9]+$/.test(text) ? 200 : 400);
        await response.arrayBuffer();
      }),
      params,
    );
  });

  it('any query parameter name a route does not read is 400 naming it', async () => {
    const name = fc
      .string({ minLength: 1, maxLength: 16 })
      .filter((text) => !['first', 'after', 'postId'].includes(text) && !/[[\]]/.test(text));
    await fc.assert(
      fc.asyncProperty(name, fc.constantFrom(...READ_ROUTES.map((route) => route.path)), async (parameter, path) => {
        const response = await server.fetch(`${path}?${encodeURIComponent(parameter)}=1`, { token: admin });
        expect(response.status).toBe(400);
        expect((await problemOf(response)).issues?.[0]?.path).toBe(parameter.slice(0, 200));
      }),
      params,
    );
  });

  it('any body key that is no field — prototype names included — is 400 naming it, and nothing is written', async () => {
    const key = fc
      .oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 12 }))
      .filter((text) => !['postId', 'body'].includes(text));
    await fc.assert(
      fc.asyncProperty(key, fc.jsonValue({ maxDepth: 1 }), async (name, value) => {
        const text = `{"postId":${JSON.stringify(postId)},"body":"x",${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}}`;
        const response = await send('POST', '/v2/comments', text);
        expect(response.status).toBe(400);
        expect((await problemOf(response)).issues).toContainEqual({ path: `body.${name}`.slice(0, 200), message: 'is not a known field' });
      }),
      params,
    );
    expect((await (await server.fetch(`/v2/comments?postId=${postId}`, { token: admin })).json()) as unknown[]).toEqual([]);
  });

  it('any media type but application/json on a JSON route is 415', async () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,10}$/);
    const type = fc
      .tuple(token, token)
      .map(([kind, sub]) => `${kind}/${sub}`)
      .filter((text) => text !== 'application/json');
    await fc.assert(
      fc.asyncProperty(type, fc.constantFrom('/v2/comments', '/v2/posts', '/users'), async (contentType, path) => {
        const response = await send('POST', path, '{"body":"x"}', { 'content-type': contentType });
        expect(response.status).toBe(415);
        expect((await problemOf(response)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }),
      params,
    );
  });
});

describe('a first of any size (docs/behaviour.md §8)', () => {
  // More rows than the largest page, so a page of 20 and one of 100 tell apart.
  let big: TestServer;
  let token: string;
  beforeAll(async () => {
    big = await startTestServer({ seed: { orgs: 1, users: 3, posts: 40 } });
    token = await big.token('admin');
  });
  afterAll(async () => big?.stop());

  const pageLength = async (query: string): Promise<number> => {
    const response = await big.fetch(`/v2/posts?${query}`, { token });
    expect(response.status, query).toBe(200);
    return ((await response.json()) as unknown[]).length;
  };

  it('clamps an integer of any number of digits to 1..100 on REST, 309 digits and more (Infinity as a number) included', async () => {
    expect(await pageLength('')).toBe(20);
    expect(await pageLength(`first=${'1'.repeat(309)}`)).toBe(100);
    expect(await pageLength(`first=-${'1'.repeat(309)}`)).toBe(1);
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,399}$/), async (negative, digits) => {
        const expected = negative ? 1 : Math.min(100, Number(digits));
        expect(await pageLength(`first=${negative ? '-' : ''}${digits}`)).toBe(expected);
      }),
      { seed: PROPERTY_SEED, numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 5)), examples: [[false, '9'.repeat(400)]] },
    );
  });

  it('clamps the largest Int GraphQL takes to 100; past the Int range GraphQL refuses it as any other input that is not an Int', async () => {
    const answer = await big.graphql<{ posts: unknown[] }>('{ posts(first: 2147483647) { id } }', { token });
    expect(answer.data?.posts).toHaveLength(100);
    const literal = await big.graphql(`{ posts(first: ${'1'.repeat(309)}) { id } }`, { token });
    expect(literal.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const variable = await big.graphql('query ($first: Int) { posts(first: $first) { id } }', { token, variables: { first: 1e20 } });
    expect(variable.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('a JSON body in a charset other than UTF-8 (docs/behaviour.md §7)', () => {
  const charsets = fc.oneof(
    fc.constantFrom('utf-16', 'utf-16le', 'utf-16be', 'latin1', 'iso-8859-1', 'us-ascii', 'windows-1252', 'utf-32', 'utf8', 'utf-7'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).filter((name) => name !== 'utf-8'),
  );
  /** `charset=name`, quoted or not, in any case. */
  const written = (name: string, quoted: boolean, upper: boolean): string => {
    const value = upper ? name.toUpperCase() : name;
    return `application/json; charset=${quoted ? `"${value}"` : value}`;
  };

  it('is 415 UNSUPPORTED_MEDIA_TYPE with a problem document on every JSON route — REST, GraphQL, MCP — and UTF-8 is read', async () => {
    await fc.assert(
      fc.asyncProperty(
        charsets,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('/v2/comments', '/v2/posts', '/users', '/meta', '/graphql'),
        async (name, quoted, upper, path) => {
          const contentType = written(name, quoted, upper);
          const body = path === '/graphql' ? '{"query":"{ orgs { id } }"}' : '{"body":"x"}';
          const response = await send('POST', path, body, { 'content-type': contentType });
          expect(response.status, contentType).toBe(415);
          const problem = await problemOf(response);
          expect(problem.code).toBe('UNSUPPORTED_MEDIA_TYPE');
          expect(problem.detail).toContain(`as application/json in UTF-8 (got ${contentType})`);
        },
      ),
      { seed: PROPERTY_SEED, numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 3)) },
    );
    const mcp = await server.fetch('/mcp', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json; charset=utf-16', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(mcp.status).toBe(415);
    expect(await mcp.json()).toMatchObject({ error: { message: expect.stringContaining('in UTF-8') as string } });
    // UTF-8, however it is written, is read as before.
    for (const contentType of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json;charset=Utf-8']) {
      expect((await send('POST', '/graphql', '{"query":"{ orgs { id } }"}', { 'content-type': contentType })).status, contentType).toBe(
        200,
      );
      expect((await send('POST', '/v2/posts', '{}', { 'content-type': contentType })).status, contentType).toBe(400);
    }
  });

  it('answers a content encoding the server does not decode 415 UNSUPPORTED_MEDIA_TYPE, not BAD_USER_INPUT', async () => {
    const response = await send('POST', '/v2/posts', '{"title":"t"}', {
      'content-type': 'application/json',
      'content-encoding': 'compress',
    });
    expect(response.status).toBe(415);
    expect(await problemOf(response)).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      detail: 'send the body uncompressed, or compressed with gzip, deflate or br',
    });
  });
});
