// Runs on: sqlite, postgresql
/**
 * Hostile GraphQL documents (docs/hostile-input.md §2, §3), over real HTTP against
 * the server running in this process:
 * - every step before execution is linear in the document's size: amplified documents of a few KB
 *   (fragments spreading the next one twice, aliased copies around the spread) are refused with a
 *   stable code before validation, scoring or compilation;
 * - tokens, operations, directives, aliases and expanded fields are bounded, each by its setting;
 * - every limit check fails closed: a score that cannot be computed refuses the operation, the
 *   score counts what execution loads (rows never exceed it), and a ceiling on rows per operation
 *   stops what a wrong score would let through.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildSchema, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TYPES, FIELD_COMPLEXITY } from '../../generated/graphql/complexity.js';
import { DocumentCache } from '../../runtime/graphql/execution.js';
import { GRAPHQL_ERROR_CODES } from '../../runtime/graphql/errors.js';
import { type FieldComplexity, measureDocument, QueryLimits } from '../../runtime/graphql/limits.js';
import { amplifiedDocumentArbitrary, documentArbitrary, doublingDocument, hostileShapes } from '../support/documents.js';
import { runSql } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

const schema = buildSchema(readFileSync(new URL('../../generated/schema.graphql', import.meta.url), 'utf8'));
const BOUNDS = { maxTokens: 2_000, maxNesting: 64, maxOperations: 20, maxDirectives: 10, maxAliases: 30, maxFields: 1_000 };
const LIMIT_CODES = new Set([
  'TOKEN_LIMIT',
  'NESTING_LIMIT',
  'OPERATION_LIMIT',
  'DIRECTIVE_LIMIT',
  'ALIAS_LIMIT',
  'FIELD_LIMIT',
  'DEPTH_LIMIT',
  'COMPLEXITY_LIMIT',
]);
const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS, endOnFailure: true } as const;
const counts: Record<string, number> = {};
const count = (name: string): void => {
  counts[name] = (counts[name] ?? 0) + 1;
};

afterAll(() => reportFigures({ suite: 'query-limits', seed: PROPERTY_SEED, runs: PROPERTY_RUNS, counts }));

describe('measuring a document (docs/hostile-input.md §2)', () => {
  it('measures an expansion of 2^200 fields in one linear pass and refuses it', () => {
    const refused = measureDocument(parse(doublingDocument(200)), { ...BOUNDS, maxAliases: 1_000 });
    expect(refused?.extensions).toEqual({ code: 'FIELD_LIMIT', fields: Number.MAX_SAFE_INTEGER, limit: 1_000 });
  });

  it('counts aliases and fields once per spread, and each bound refuses one past it', () => {
    const document = parse('query { a: me { id } ...F ...F } fragment F on Query { b: me { c: id } }');
    // a: me { id } = 2 fields, 1 alias; F = 2 fields, 2 aliases, spread twice.
    expect(measureDocument(document, { ...BOUNDS, maxFields: 6, maxAliases: 5 })).toBeUndefined();
    expect(measureDocument(document, { ...BOUNDS, maxFields: 5 })?.extensions).toEqual({ code: 'FIELD_LIMIT', fields: 6, limit: 5 });
    expect(measureDocument(document, { ...BOUNDS, maxAliases: 4 })?.extensions).toEqual({ code: 'ALIAS_LIMIT', aliases: 5, limit: 4 });
    const operations = parse(Array.from({ length: 3 }, (_, index) => `query Q${index} { me { id } }`).join('\n'));
    expect(measureDocument(operations, { ...BOUNDS, maxOperations: 2 })?.extensions).toEqual({
      code: 'OPERATION_LIMIT',
      operations: 3,
      limit: 2,
    });
    const directives = parse(`{ me ${'@include(if: true) '.repeat(4)}{ id } }`);
    expect(measureDocument(directives, { ...BOUNDS, maxDirectives: 3 })?.extensions).toEqual({
      code: 'DIRECTIVE_LIMIT',
      directives: 4,
      limit: 3,
    });
    expect(measureDocument(directives, { ...BOUNDS, maxDirectives: 4 })).toBeUndefined();
  });

  it('refuses a cycle of fragments without looping (validation names it later)', () => {
    const cycle = parse('{ ...A } fragment A on Query { me { id } ...B } fragment B on Query { ...A }');
    expect(measureDocument(cycle, BOUNDS)).toBeUndefined();
    expect(
      new DocumentCache(schema, { ...BOUNDS, introspection: true }).prepare(
        '{ ...A } fragment A on Query { me { id } ...B } fragment B on Query { ...A }',
      ),
    ).toMatchObject({ errors: [expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] });
  });

  it('refuses past the token and nesting bounds while lexing, before any parse', () => {
    const cache = new DocumentCache(schema, { ...BOUNDS, introspection: true });
    expect(cache.prepare(`{ users { ${'id '.repeat(2_500)} } }`)).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'TOKEN_LIMIT', limit: 2_000 } })],
    });
    // Comments are not tokens: a long comment passes, as the parser would count it.
    expect(cache.prepare(`# ${'x'.repeat(50_000)}\n{ users { id } }`)).toHaveProperty('document');
    const nested = (levels: number): string => `{ ${'users { org { '.repeat(levels)}id${' } }'.repeat(levels)} }`;
    // 1 + 2 × 31 = 63 brackets open at the deepest point: within 64.
    expect(cache.prepare(nested(31))).toMatchObject({
      errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) })],
    });
    expect(cache.prepare(nested(32))).toEqual({
      errors: [
        expect.objectContaining({ extensions: { code: 'NESTING_LIMIT', limit: 64 }, locations: [{ line: 1, column: 2 + 14 * 31 + 13 }] }),
      ],
    });
    // Argument values nest too.
    expect(cache.prepare(`{ users(first: ${'['.repeat(70)}1${']'.repeat(70)}) { id } }`)).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'NESTING_LIMIT', limit: 64 } })],
    });
  });
});

describe('scoring fails closed (docs/hostile-input.md §3)', () => {
  const limits = (fieldComplexity: Readonly<Record<string, FieldComplexity>>): QueryLimits =>
    new QueryLimits({
      maxComplexity: 10_000,
      maxDepth: 10,
      fieldComplexity,
      connectionTypes: new Set(CONNECTION_TYPES),
      suggestions: true,
    });

  it('refuses an operation whose score throws, is not a number or is negative', () => {
    const document = parse('{ users(first: 5) { id } }');
    for (const broken of [
      () => {
        throw new Error('estimator gave up');
      },
      () => Number.NaN,
      () => -1,
    ]) {
      const checked = limits({ ...FIELD_COMPLEXITY, 'Query.users': broken }).check({ schema, document });
      expect(checked.errors.map((error) => error.extensions)).toEqual([{ code: 'COMPLEXITY_LIMIT', complexity: null, limit: 10_000 }]);
    }
  });

  it('refuses variables that do not coerce with BAD_USER_INPUT instead of running unscored', () => {
    const checked = limits(FIELD_COMPLEXITY).check({
      schema,
      document: parse('query Q($n: Int) { users(first: $n) { id } }'),
      variableValues: { n: 'many' },
    });
    expect(checked.errors.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it('counts every alias, inline fragment and spread of a fragment', () => {
    const check = (query: string): unknown => limits(FIELD_COMPLEXITY).check({ schema, document: parse(query) }).extensions;
    const one = 'users(first: 10) { id name }';
    expect(check(`{ ${one} }`)).toEqual({ cost: { complexity: 20, limit: 10_000 } });
    expect(check(`{ a: ${one} b: ${one} ... on Query { c: ${one} } }`)).toEqual({ cost: { complexity: 60, limit: 10_000 } });
    expect(check(`{ ...F x: users(first: 10) { ...G } } fragment F on Query { ${one} } fragment G on User { id name }`)).toEqual({
      cost: { complexity: 40, limit: 10_000 },
    });
    // A has_many whose selection adds nothing still loads its rows: each counts 1.
    expect(check('{ users(first: 10) { posts(first: 7) { pageInfo { hasNextPage } } } }')).toEqual({
      cost: { complexity: 70, limit: 10_000 },
    });
  });
});

/**
 * The access line of the request `requestId` (docs/behaviour.md §12.1), which counts the statements
 * run on that request's behalf alone — not those of loader batches an earlier answer left running.
 * Written once the answer is sent, so it is waited for (at most 5 s).
 */
async function accessLine(server: InProcessServer, requestId: string): Promise<{ statements: number }> {
  for (let waited = 0; waited < 5_000; waited += 10) {
    const line = server.logs.find((entry) => entry.requestId === requestId && typeof entry.statements === 'number');
    if (line) return line as unknown as { statements: number };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access line for request ${requestId}`);
}

describe('hostile documents over HTTP', () => {
  let server: InProcessServer;
  let token: string;

  beforeAll(async () => {
    server = await startInProcessServer({ seed: { orgs: 2, users: 12, posts: 4 }, env: { APP_LOG__LEVEL: 'debug' } });
    token = await server.token('admin');
  });
  afterAll(async () => server?.stop());

  const health = async (): Promise<number> => (await fetch(`${server.url}/health`)).status;

  it('refuses the worst document of each shape at the body limit with its code, running no statement', async () => {
    for (const { shape, query, code } of hostileShapes()) {
      const before = server.statements.length;
      const result = await server.graphql(query, { token });
      expect(
        result.errors?.map((error) => error.extensions?.code),
        shape,
      ).toEqual([code]);
      expect(result.data, shape).toBeUndefined();
      expect(server.statements.length, shape).toBe(before);
    }
    expect(await health()).toBe(200);
  });

  it('bounds a document before validating it: an amplified document that is also invalid gets the bound, not a validation error', async () => {
    const invalid = `${doublingDocument(24)}\nfragment Unused on Query { nope }`;
    const result = await server.graphql(invalid, { token });
    expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['FIELD_LIMIT']);
  });

  it('refuses every amplified document of a few KB with a bound and keeps answering (property)', async () => {
    await fc.assert(
      fc.asyncProperty(amplifiedDocumentArbitrary(), async (query) => {
        count('amplified documents');
        const before = server.statements.length;
        const result = await server.graphql(query, { token });
        const codes = (result.errors ?? []).map((error) => String(error.extensions?.code));
        expect(codes.length, query).toBe(1);
        expect(LIMIT_CODES, `${query.slice(0, 200)} → ${codes[0]}`).toContain(codes[0]);
        count(`amplified documents refused: ${codes[0]}`);
        expect(server.statements.length).toBe(before);
      }),
      settings,
    );
    expect(await health()).toBe(200);
  }, 120_000);
});

describe('the score bounds what execution loads (docs/hostile-input.md §3)', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    // Generous document bounds, so the complexity score is what decides.
    server = await startInProcessServer({
      seed: { orgs: 2, users: 25, posts: 4 },
      env: { APP_LOG__LEVEL: 'debug', APP_GRAPHQL__MAX_ALIASES: '10000', APP_GRAPHQL__MAX_FIELDS: '100000' },
    });
  });
  afterAll(async () => server?.stop());

  it('never loads more rows than the score allowed, and runs no statement for a refused document (property)', async () => {
    const ids = [...server.seeded.users.map((user) => user.id), ...server.seeded.posts.map((post) => post.id)];
    const documents = documentArbitrary(schema, { ids, fragments: true, maxDepth: 5, mutations: 0 });
    const tokens = [await server.token('admin'), await server.token('member'), await server.token('viewer')];
    await fc.assert(
      fc.asyncProperty(documents, fc.nat({ max: tokens.length - 1 }), async (query, tokenIndex) => {
        count('scored documents');
        // An earlier answer may have left loader batches running (a field failed first): this
        // request's statements are the ones its own access line counts.
        const logged = server.logs.length;
        const requestId = randomUUID();
        const result = await server.graphql(query, { token: tokens[tokenIndex], requestId });
        const codes = (result.errors ?? []).map((error) => String(error.extensions?.code));
        for (const code of codes)
          expect(
            GRAPHQL_ERROR_CODES.filter((known) => known !== 'INTERNAL_SERVER_ERROR'),
            query,
          ).toContain(code);
        const refused = result.data === undefined;
        if (refused) {
          count(`scored documents refused: ${codes[0]}`);
          expect((await accessLine(server, requestId)).statements, query).toBe(0);
          return;
        }
        const finished = server.logs.slice(logged).find((entry) => entry.msg === 'graphql operation finished') as
          { cost: { complexity: number }; rows: number } | undefined;
        expect(finished, query).toBeDefined();
        count(finished!.rows > 0 ? 'scored documents that read rows' : 'scored documents that read no row');
        expect(finished!.rows, query).toBeLessThanOrEqual(finished!.cost.complexity);
      }),
      settings,
    );
  }, 180_000);
});

describe('the row ceiling (APP_GRAPHQL__MAX_ROWS)', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    // A wrong @Complexity score (1 for a page of users) is what the ceiling is there for.
    server = await startInProcessServer({
      seed: { orgs: 1, users: 12, posts: 2 },
      env: { APP_GRAPHQL__MAX_ROWS: '8' },
      adjust: (definition) => ({ ...definition, fieldComplexity: { ...definition.fieldComplexity, 'Query.users': () => 1 } }),
    });
  });
  afterAll(async () => server?.stop());

  it('stops an operation that materialises more rows than the ceiling with ROW_LIMIT', async () => {
    const token = await server.token('admin');
    const within = await server.graphql<{ users: unknown[] }>('{ users(first: 8) { id } }', { token });
    expect(within.errors).toBeUndefined();
    expect(within.data?.users).toHaveLength(8);
    const past = await server.graphql('{ users(first: 5) { id posts { edges { node { id } } } } }', { token });
    expect(past.errors?.map((error) => error.extensions?.code)).toContain('ROW_LIMIT');
    const refused = await server.graphql('{ users(first: 9) { id } }', { token });
    expect(refused.data).toBeNull();
    expect(refused.errors).toEqual([
      expect.objectContaining({ path: ['users'], extensions: { code: 'ROW_LIMIT', requestId: expect.any(String) as unknown } }),
    ]);
  });
});

describe('the byte ceiling (APP_GRAPHQL__MAX_RESPONSE_BYTES, docs/hostile-input.md §14)', () => {
  let server: InProcessServer;
  const LIMIT = 40_000;

  beforeAll(async () => {
    server = await startInProcessServer({ seed: { orgs: 1, users: 6, posts: 4 }, env: { APP_GRAPHQL__MAX_RESPONSE_BYTES: String(LIMIT) } });
    // Bodies of up to 10 000 characters (what CreatePost allows): few rows, many bytes.
    await runSql(server.databaseUrl, `UPDATE "Post" SET "body" = '${'b'.repeat(9_000)}'`);
  });
  afterAll(async () => server?.stop());

  it('answers within the ceiling or refuses with RESPONSE_TOO_LARGE, never a larger answer, whatever is selected (generated)', async () => {
    const token = await server.token('admin');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 8 }), fc.boolean(), async (users, posts, bodies) => {
        const query = `{ users(first: ${users}) { id posts(first: ${posts}) { edges { node { id title ${bodies ? 'body' : ''} } } } } }`;
        const response = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query }),
        });
        const text = await response.text();
        expect(text.length).toBeLessThan(LIMIT + 2_000);
        const answer = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
        for (const error of answer.errors ?? []) expect(error.extensions?.code).toBe('RESPONSE_TOO_LARGE');
      }),
      { numRuns: 30, seed: PROPERTY_SEED },
    );
    // Ids only pass; the same rows with their bodies do not.
    expect(
      (await server.graphql('{ users(first: 6) { id posts(first: 8) { edges { node { id } } } } }', { token })).errors,
    ).toBeUndefined();
    const past = await server.graphql('{ users(first: 6) { id posts(first: 8) { edges { node { id body } } } } }', { token });
    expect(past.errors?.map((error) => error.extensions?.code)).toContain('RESPONSE_TOO_LARGE');
  });
});
