/**
 * Fuzzing over real HTTP (RELIABILITY.md §1), with fast-check: REST query strings, version headers and
 * `Accept` values under each strategy, GraphQL documents (random valid ones built from the served
 * schema, and malformed ones), and JSON bodies. Properties: no 5xx, the server never exits, every
 * answer is well-formed JSON of the documented shape, and every REST answer matches the OpenAPI
 * document the server serves (Ajv, closed object schemas).
 *
 * The seed is fixed (`FUZZ_SEED`, default below) so CI is reproducible; `FUZZ_RUNS` raises the
 * number of cases (`npm run soak` does). `FUZZ_REPORT=<file>` appends the counts as JSON lines.
 */
import fc from 'fast-check';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_ERROR_CODES } from '../../runtime/graphql/errors.js';
import { documentArbitrary } from '../support/documents.js';
import { LEAK } from '../support/leaks.js';
import { OpenApiValidator } from '../support/openapi-validator.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SEED = PROPERTY_SEED;
const RUNS = PROPERTY_RUNS;
const settings = { seed: SEED, numRuns: RUNS, endOnFailure: true } as const;
/** Per-property time budget: generous per case, so a slow machine does not fail a correct server. */
const TIMEOUT = 30_000 + RUNS * 400;

/** Codes docs/decisions.md §4 documents for GraphQL errors (INTERNAL_SERVER_ERROR is a failure here: no fault is injected). */
const GRAPHQL_CODES = new Set<string>(GRAPHQL_ERROR_CODES.filter((code) => code !== 'INTERNAL_SERVER_ERROR'));

const counts: Record<string, number> = {};
const count = (name: string): void => {
  counts[name] = (counts[name] ?? 0) + 1;
};

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  readonly body: unknown;
}

/** Sends one request and reads the answer, failing on anything a client could not parse. */
async function send(server: TestServer, path: string, init: RequestInit & { token?: string } = {}): Promise<Answer> {
  const response = await server.fetch(path, { signal: AbortSignal.timeout(10_000), ...init });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  let body: unknown;
  if (text !== '') {
    expect(contentType, `${path}: ${text.slice(0, 200)}`).toMatch(/^application\/(json|problem\+json|graphql-response\+json)/);
    body = JSON.parse(text);
  }
  expect(response.status, `${init.method ?? 'GET'} ${path} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(text).not.toMatch(LEAK);
  return { status: response.status, contentType, text, body };
}

/** Text a header may carry (visible ASCII and spaces); fetch refuses anything else before sending. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 80 });
/** Any text, unicode included, short or huge. */
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer({ min: 1_000, max: 6_000 }).map((length) => 'é'.repeat(length)),
);

interface Fixture {
  readonly server: TestServer;
  readonly validator: OpenApiValidator;
  readonly tokens: readonly (string | undefined)[];
}

async function fixture(env: Record<string, string> = {}): Promise<Fixture> {
  const server = await startTestServer({ env });
  const document = (await (await server.fetch('/api-json')).json()) as Record<string, unknown>;
  const tokens = [
    undefined,
    'not-a-token',
    await server.token('admin'),
    await server.token('member'),
    await server.token('viewer'),
    await server.token('admin', 1),
  ];
  return { server, validator: new OpenApiValidator(document), tokens };
}

async function expectAlive(server: TestServer): Promise<void> {
  expect(server.stderr()).toBe('');
  expect((await server.fetch('/health')).status).toBe(200);
}

afterAll(() => {
  reportFigures({ suite: 'fuzz', seed: SEED, runs: RUNS, counts });
});

describe('fuzzed REST requests (URI versioning)', () => {
  let rest: Fixture;
  let ids: string[];
  beforeAll(async () => {
    rest = await fixture();
    ids = [
      ...rest.server.seeded.users.map((user) => user.id),
      ...rest.server.seeded.posts.map((post) => post.id),
      ...rest.server.seeded.orgs.map((org) => org.id),
    ];
  });
  afterAll(async () => rest?.server.stop());

  const PATHS = [
    '/v1/posts',
    '/v2/posts',
    '/users',
    '/orgs',
    '/v2/posts/{id}',
    '/v1/posts/{id}',
    '/users/{id}',
    '/meta',
    '/v2/meta',
    '/v1',
    '/v2',
    '/v3/posts',
    '/posts',
    '/v2/posts/{id}/publish',
    '/{id}',
  ];

  it(
    'query strings: first, after, unknown and repeated keys, huge and unicode values',
    async () => {
      const value = fc.oneof(
        fc.integer({ min: -1000, max: 100_000 }).map(String),
        fc.constantFrom('', '0', '1e3', '20.5', 'NaN', '0x10', ' 7 ', '-0'),
        anyText,
      );
      const key = fc.oneof(
        fc.constantFrom('first', 'after', 'first', 'after', 'limit', 'offset', 'first[]', 'after[0]', '__proto__', 'constructor'),
        headerText,
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PATHS),
          fc.nat(),
          fc.array(fc.tuple(key, fc.oneof(value, fc.constantFrom(...ids.slice(0, 5)))), { maxLength: 6 }),
          fc.nat({ max: 5 }),
          async (template, idIndex, pairs, tokenIndex) => {
            count('rest query strings');
            const id =
              idIndex % 3 === 0
                ? encodeURIComponent(ids[idIndex % ids.length] ?? '')
                : encodeURIComponent(String(idIndex % 2 ? idIndex : `é∂${idIndex}`));
            const path = template.replace('{id}', id);
            const query = new URLSearchParams(pairs).toString();
            const method = template.endsWith('/publish') ? 'POST' : 'GET';
            const answer = await send(rest.server, `${path}${query ? `?${query}` : ''}`, { method, token: rest.tokens[tokenIndex] });
            count(`rest query strings answered ${answer.status}`);
            const pathname = new URL(path, 'http://x').pathname;
            expect(rest.validator.check(method, pathname, answer.status, answer.contentType, answer.body)).toEqual([]);
          },
        ),
        settings,
      );
      await expectAlive(rest.server);
    },
    TIMEOUT,
  );

  it(
    'JSON bodies: wrong types, deep nesting, large strings, wrong content types',
    async () => {
      const nested = fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'{"title":'.repeat(depth)}"x"${'}'.repeat(depth)}`);
      const arrays = fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);
      const large = fc.integer({ min: 90_000, max: 150_000 }).map((length) => JSON.stringify({ title: 't', body: 'b'.repeat(length) }));
      const shaped = fc
        .record(
          {
            title: fc.oneof(anyText, fc.jsonValue()),
            body: fc.oneof(anyText, fc.jsonValue()),
            name: fc.oneof(anyText, fc.jsonValue()),
            email: fc.oneof(fc.emailAddress(), anyText, fc.jsonValue()),
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value));
      const raw = fc.oneof(
        fc.jsonValue().map((value) => JSON.stringify(value)),
        anyText,
        fc.constantFrom('', '{', '{"title":}', 'null', '[]', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{}}}'),
      );
      const plausible = fc
        .oneof(
          fc.record(
            { title: fc.string({ minLength: 1, maxLength: 60 }), body: fc.string({ maxLength: 200 }) },
            { requiredKeys: ['title'] },
          ),
          fc.record({ name: fc.string({ minLength: 1, maxLength: 60 }), email: fc.emailAddress() }),
        )
        .map((value) => JSON.stringify(value));
      const body = fc.oneof(
        { weight: 3, arbitrary: plausible },
        { weight: 4, arbitrary: shaped },
        { weight: 2, arbitrary: raw },
        { weight: 1, arbitrary: nested },
        { weight: 1, arbitrary: arrays },
        { weight: 1, arbitrary: large },
      );
      const contentType = fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      );
      const target = fc.constantFrom('/v2/posts', '/v1/posts', '/users', '/v2/posts/{id}/publish');
      await fc.assert(
        fc.asyncProperty(target, body, contentType, fc.nat({ max: 5 }), fc.nat(), async (template, payload, type, tokenIndex, idIndex) => {
          count('rest json bodies');
          const path = template.replace('{id}', ids[idIndex % ids.length] ?? 'x');
          const answer = await send(rest.server, path, {
            method: 'POST',
            token: rest.tokens[tokenIndex],
            headers: type ? { 'content-type': type } : {},
            body: payload,
          });
          count(`rest json bodies answered ${answer.status}`);
          expect(rest.validator.check('POST', path, answer.status, answer.contentType, answer.body)).toEqual([]);
        }),
        settings,
      );
      await expectAlive(rest.server);
    },
    TIMEOUT,
  );
});

/**
 * The version a request states under `strategy`, as the version router reads it (runtime/http/versioning.ts):
 * the header trimmed, or the first `version=` parameter of `Accept`; `''` is none.
 */
function statedVersion(strategy: 'header' | 'media_type' | 'uri', headers: Record<string, string>): string | undefined {
  let stated: string | undefined;
  if (strategy === 'header') stated = headers['x-api-version']?.trim();
  if (strategy === 'media_type') {
    for (const range of (headers.accept ?? '').split(',')) {
      for (const parameter of range.split(';').slice(1)) {
        const [name, value] = parameter.split('=').map((part) => part.trim());
        if (stated === undefined && name?.toLowerCase() === 'version' && value !== undefined) stated = value.replace(/^"|"$/g, '');
      }
    }
  }
  return stated === '' ? undefined : stated;
}

describe('fuzzed version headers and Accept values', () => {
  let header: Fixture;
  let media: Fixture;
  let uri: Fixture;
  beforeAll(async () => {
    [header, media, uri] = await Promise.all([
      fixture({ APP_HTTP__VERSIONING: 'header' }),
      fixture({ APP_HTTP__VERSIONING: 'media_type' }),
      fixture({ APP_HTTP__VERSIONING: 'uri' }),
    ]);
  });
  afterAll(async () => Promise.all([header?.server.stop(), media?.server.stop(), uri?.server.stop()]));

  const version = fc.oneof(
    fc.constantFrom('1', '2', '3', 'beta', '', ' 2', '2 ', '02', '2.0', '1,2', 'v2', '../2', 'x'.repeat(33)),
    headerText,
  );
  const paths = fc.constantFrom('/posts', '/v2/posts', '/users', '/orgs', '/meta', '/', '/posts/00000000-0000-7000-8000-000000000000');
  const accept = fc.oneof(
    version.map((v) => `application/json; version=${v}`),
    fc.tuple(version, version).map(([a, b]) => `application/json; version=${a}; version=${b}`),
    fc.constantFrom(
      'application/json',
      '*/*',
      'text/html',
      'application/json;version=2',
      'application/json; VERSION=2',
      'application/json; version="2"',
      'application/xml; version=2',
      '',
    ),
    headerText,
  );

  it(
    'under each strategy, every answer is documented and none is a 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('header', 'media_type', 'uri'),
          paths,
          version,
          accept,
          fc.nat({ max: 5 }),
          async (strategy, path, stated, acceptValue, tokenIndex) => {
            count('version headers');
            const target = strategy === 'header' ? header : strategy === 'media_type' ? media : uri;
            const headers: Record<string, string> = { accept: acceptValue };
            if (strategy !== 'media_type') headers['x-api-version'] = stated;
            // `GET /` stating no version is the landing answer, outside the REST document (docs/behaviour.md §4.8, §9.3.7).
            if (path === '/' && statedVersion(strategy, headers) === undefined) {
              count('version headers answered by the landing');
              const response = await target.server.fetch(path, { signal: AbortSignal.timeout(10_000), headers });
              expect(response.status).toBe(200);
              const text = await response.text();
              expect(text).toContain(
                response.headers.get('content-type')?.startsWith('text/html') === true
                  ? '<title>Resource Service API</title>'
                  : '"graphql":"/graphql"',
              );
              return;
            }
            const answer = await send(target.server, path, { token: target.tokens[tokenIndex], headers });
            expect([200, 400, 401, 403, 404, 405, 406]).toContain(answer.status);
            count(`version headers answered ${answer.status}`);
            expect(
              target.validator.check('GET', new URL(path, 'http://x').pathname, answer.status, answer.contentType, answer.body),
            ).toEqual([]);
          },
        ),
        settings,
      );
      for (const target of [header, media, uri]) await expectAlive(target.server);
    },
    TIMEOUT,
  );
});

describe('fuzzed GraphQL documents', () => {
  let graphql: Fixture;
  let schema: GraphQLSchema;
  let ids: string[];
  beforeAll(async () => {
    graphql = await fixture();
    const sdl = await (await import('node:fs/promises')).readFile(new URL('../../generated/schema.graphql', import.meta.url), 'utf8');
    schema = buildSchema(sdl);
    ids = [...graphql.server.seeded.users.map((user) => user.id), ...graphql.server.seeded.posts.map((post) => post.id)];
  });
  afterAll(async () => graphql?.server.stop());

  const validDocument = fc
    .constant(null)
    .chain(() => documentArbitrary(schema, { ids, text: anyText, maxDepth: 4, mutations: 0.1, fragments: true }));

  function expectGraphQLShape(answer: Answer, label: string): void {
    const body = answer.body as Record<string, unknown>;
    expect(typeof body, label).toBe('object');
    expect(
      Object.keys(body).every((key) => ['data', 'errors', 'extensions'].includes(key)),
      label,
    ).toBe(true);
    expect('data' in body || 'errors' in body, label).toBe(true);
    for (const error of (body.errors as { message: unknown; extensions?: { code?: unknown } }[] | undefined) ?? []) {
      expect(typeof error.message, label).toBe('string');
      expect(GRAPHQL_CODES, `${label}: ${JSON.stringify(error)}`).toContain(error.extensions?.code);
    }
  }

  it(
    'random valid documents built from the schema',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          validDocument,
          fc.nat({ max: 5 }),
          fc.constantFrom('application/json', 'application/graphql-response+json'),
          async (query, tokenIndex, accept) => {
            count('graphql valid documents');
            const answer = await send(graphql.server, '/graphql', {
              method: 'POST',
              token: graphql.tokens[tokenIndex],
              headers: { 'content-type': 'application/json', accept },
              body: JSON.stringify({ query, operationName: 'Fuzz' }),
            });
            expect([200, 400], `${query} → ${answer.text.slice(0, 300)}`).toContain(answer.status);
            expectGraphQLShape(answer, query);
            const errors = (answer.body as { errors?: { extensions?: { code?: string } }[] }).errors;
            count(
              errors
                ? `graphql valid documents refused: ${errors[0]?.extensions?.code}`
                : 'graphql valid documents answered without errors',
            );
          },
        ),
        settings,
      );
      await expectAlive(graphql.server);
    },
    TIMEOUT,
  );

  it(
    'malformed documents and request bodies',
    async () => {
      const brokenDocument = fc.oneof(
        validDocument.chain((query) => fc.nat({ max: query.length }).map((cut) => query.slice(0, cut))),
        validDocument.chain((query) =>
          fc
            .tuple(fc.nat({ max: query.length }), fc.constantFrom('{', '}', '(', ')', ':', '$', '"', '@', '...', '!', '#', '\\u'))
            .map(([at, junk]) => query.slice(0, at) + junk + query.slice(at)),
        ),
        anyText,
        fc.integer({ min: 1, max: 5_000 }).map((depth) => `{ ${'users { org { '.repeat(depth)}id${' } }'.repeat(depth)} }`),
        fc
          .integer({ min: 1, max: 300 })
          .map((count) => `{ ${Array.from({ length: count }, (_, index) => `u${index}: users { id }`).join(' ')} }`),
      );
      const body = fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .record(
              { query: brokenDocument, variables: fc.option(fc.jsonValue()), operationName: fc.option(anyText) },
              { requiredKeys: ['query'] },
            )
            .map((value) => JSON.stringify(value)),
        },
        {
          weight: 2,
          arbitrary: fc
            .record(
              { query: fc.jsonValue(), variables: fc.jsonValue(), operationName: fc.jsonValue(), extensions: fc.jsonValue() },
              { requiredKeys: [] },
            )
            .map((value) => JSON.stringify(value)),
        },
        {
          weight: 1,
          arbitrary: fc.oneof(
            fc.jsonValue().map((value) => JSON.stringify(value)),
            anyText,
            fc.constant(''),
          ),
        },
        {
          weight: 1,
          arbitrary: validDocument.map((query) =>
            JSON.stringify({
              query: query.replace('query Fuzz', 'query Fuzz($v: Int)'),
              variables: { v: 'not an int' },
              operationName: 'Fuzz',
            }),
          ),
        },
      );
      const contentType = fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/graphql',
        'text/plain',
        undefined,
      );
      await fc.assert(
        fc.asyncProperty(body, contentType, fc.nat({ max: 5 }), async (payload, type, tokenIndex) => {
          count('graphql malformed requests');
          const answer = await send(graphql.server, '/graphql', {
            method: 'POST',
            token: graphql.tokens[tokenIndex],
            headers: type ? { 'content-type': type } : {},
            body: payload,
          });
          expect([200, 400, 413, 415], answer.text.slice(0, 300)).toContain(answer.status);
          if (answer.status === 413) expect(answer.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
          else if (answer.status === 415) expect(answer.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
          else expectGraphQLShape(answer, payload.slice(0, 300));
        }),
        settings,
      );
      await expectAlive(graphql.server);
    },
    TIMEOUT,
  );
});
