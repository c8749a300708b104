// Runs on: sqlite, postgresql
/**
 * The GraphQL transport over real HTTP (docs/behaviour.md §4.1, §5, §7): operations and their SDL,
 * GraphQL-over-HTTP parameters, argument checks that stop an operation before it runs, pipes,
 * failure results, postures, field grants and the error envelope.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serialize } from 'node:v8';
import { execute, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExecutableSchema } from '../../runtime/graphql/schema.js';
import { ROOT } from '../support/project.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let admin: string;
let member: string;
let viewer: string;

beforeAll(async () => {
  server = await startTestServer();
  [admin, member, viewer] = await Promise.all([server.token('admin'), server.token('member'), server.token('viewer')]);
});

afterAll(async () => {
  await server.stop();
});

const draftOf = (role: 'admin' | 'member'): string => {
  const author = server.user(role);
  const post = server.seeded.posts.find((candidate) => candidate.authorId === author.id && candidate.status === 'draft');
  if (!post) throw new Error('no seeded draft');
  return post.id;
};

async function postStatus(id: string): Promise<string | undefined> {
  const result = await server.graphql<{ post: { status: string } | null }>('query ($id: ID!) { post(id: $id) { status } }', {
    token: admin,
    variables: { id },
  });
  return result.data?.post?.status;
}

async function userCount(): Promise<number> {
  const result = await server.graphql<{ users: unknown[] }>('{ users(first: 100) { id } }', { token: admin });
  return result.data?.users.length ?? -1;
}

describe('schema (docs/behaviour.md §4.1)', () => {
  it('emits the lines docs/behaviour.md §2.1 shows in the committed SDL', () => {
    const sdl = readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8');
    expect(sdl).toContain('user(id: String!): User\n');
    expect(sdl).toContain('users(first: Int, after: String): [User!]!\n');
    expect(sdl).toContain('createUser(input: CreateUser): User\n');
    expect(sdl).toContain('posts(first: Int, after: String): [Post!]!\n');
    expect(sdl).toContain('orgs: [Org!]!\n');
  });

  it('serves the same fields over introspection, with camelCase names and mapped scalars', async () => {
    const result = await server.graphql<{
      __type: {
        fields: { name: string; args: { name: string; type: { kind: string; name: string | null; ofType: { name: string } | null } }[] }[];
      };
    }>('{ __type(name: "Query") { fields { name args { name type { kind name ofType { name } } } } } }', { token: admin });
    const fields = result.data?.__type.fields ?? [];
    expect(fields.map((field) => field.name)).toEqual(expect.arrayContaining(['users', 'user', 'posts', 'orgs', 'searchPosts', 'me']));
    const users = fields.find((field) => field.name === 'users');
    expect(users?.args).toEqual([
      { name: 'first', type: { kind: 'SCALAR', name: 'Int', ofType: null } },
      { name: 'after', type: { kind: 'SCALAR', name: 'String', ofType: null } },
    ]);
    const user = fields.find((field) => field.name === 'user');
    expect(user?.args).toEqual([{ name: 'id', type: { kind: 'NON_NULL', name: null, ofType: { name: 'String' } } }]);
  });
});

/**
 * Whether V8 keeps `text` one byte a character: its serializer tags a string by how it is stored
 * (`"` one byte, `c` two bytes a character), whatever the characters are.
 */
function storedOneByte(text: string): boolean {
  return serialize(text)[2] === '"'.charCodeAt(0);
}

describe('answers one byte a character (docs/decisions.md §6)', () => {
  it('serialises an answer one byte a character when the SDL holds characters past U+00FF', async () => {
    // Names nothing else in this process holds: V8 keeps one copy of a property name, made from the first string naming it.
    const sdl =
      '"""Probe rows \u2014 the em dash makes V8 keep this SDL two bytes a character."""\ntype Query { encodingProbeRows: [EncodingProbeRow!]! }\ntype EncodingProbeRow { encodingProbeLabel: String! encodingProbeNext: Boolean! }\n';
    expect(storedOneByte(sdl)).toBe(false);
    const rows = (): unknown => JSON.parse('[{"encodingProbeLabel":"first","encodingProbeNext":false}]');
    const schema = buildExecutableSchema(sdl, { Query: { encodingProbeRows: rows } }, []);
    const document = parse('{ encodingProbeRows { encodingProbeLabel encodingProbeNext } }');
    const expected = '{"data":{"encodingProbeRows":[{"encodingProbeLabel":"first","encodingProbeNext":false}]}}';
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit refused the probe document');
    // graphql-jit (what a repeated document runs on) and graphql-js (a document's first run).
    for (const answer of [JSON.stringify(await compiled.query(undefined, {}, {})), JSON.stringify(await execute({ schema, document }))]) {
      expect(answer).toBe(expected);
      expect(storedOneByte(answer)).toBe(true);
    }
  });
});

describe('GraphQL over HTTP (graphql-http)', () => {
  it('accepts query, variables and operationName', async () => {
    const document = 'query Mine { me { id } } query Many($n: Int) { users(first: $n) { id } }';
    const result = await server.graphql<{ users: unknown[] }>(document, { token: admin, variables: { n: 2 }, operationName: 'Many' });
    expect(result.errors).toBeUndefined();
    expect(result.data?.users).toHaveLength(2);
  });

  it('runs each operation of one document with its own root fields and guard chain, however often the document is sent', async () => {
    // `Intro` selects no declared field (the global guards only: no ability); `Many` needs the authorization guard's ability.
    const document = 'query Intro { __typename } query Many { users(first: 2) { id } }';
    for (const operationName of ['Intro', 'Many', 'Intro', 'Many', 'Nope', 'Many']) {
      const result = await server.graphql<{ users?: unknown[]; __typename?: string }>(document, { token: admin, operationName });
      if (operationName === 'Nope') {
        expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
        continue;
      }
      expect(result.errors).toBeUndefined();
      if (operationName === 'Many') expect(result.data?.users).toHaveLength(2);
      else expect(result.data).toEqual({ __typename: 'Query' });
    }
  });

  it('answers application/graphql-response+json', async () => {
    const response = await server.fetch('/graphql', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ orgs { name } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(await response.json()).toEqual({
      data: { orgs: [{ name: server.seeded.orgs[0]?.name }] },
      extensions: { cost: { complexity: 2, limit: 10_000 } },
    });
  });

  it('reports a syntax error as GRAPHQL_PARSE_FAILED', async () => {
    const result = await server.graphql('{ users(first: ) { id }', { token: admin });
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('answers 405 to GET /graphql while the playground is off', async () => {
    const response = await server.fetch('/graphql?query=%7Borgs%7Bid%7D%7D', { token: admin });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('arguments are checked before the operation runs (docs/behaviour.md §4.1)', () => {
  it('refuses a missing required argument and does not call the operation', async () => {
    const result = await server.graphql('mutation { publishPost { id } }', { token: admin });
    expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(result.errors?.[0]?.message).toContain('argument "id" of type "ID!" is required');
    expect(result.data).toBeUndefined();
  });

  it('refuses a wrong scalar literal and does not call the operation', async () => {
    const id = draftOf('admin');
    const result = await server.graphql('mutation { publishPost(id: true) { id } }', { token: admin });
    expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await postStatus(id)).toBe('draft');
  });

  it('refuses a wrong scalar variable (coercion error) and does not call the operation', async () => {
    const id = draftOf('admin');
    const wrongId = await server.graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', { token: admin, variables: { id: true } });
    expect(wrongId.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(wrongId.errors?.[0]?.message).toContain('$id');
    expect(wrongId.data).toBeUndefined();
    expect(await postStatus(id)).toBe('draft');
    const wrongFirst = await server.graphql('query ($n: Int) { users(first: $n) { id } }', { token: admin, variables: { n: 'many' } });
    expect(wrongFirst.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(wrongFirst.data).toBeUndefined();
  });

  it('repeats at most 200 characters of a refused variable, its path and the reason, to every caller, however large it is (generated)', async () => {
    // Values of about 84 KB that do not coerce: a text for an Int, a list for an ID, an object with
    // unknown fields (their names as long), a nested value, each under the body limit.
    const big = fc.oneof(
      fc
        .integer({ min: 1_000, max: 84_000 })
        .map((length) => ({ query: 'query ($n: Int) { users(first: $n) { id } }', variables: { n: 'x'.repeat(length) } })),
      fc.integer({ min: 100, max: 2_000 }).map((count) => ({
        query: 'mutation ($id: ID!) { publishPost(id: $id) { id } }',
        variables: { id: Array.from({ length: count }, (_, index) => `${'y'.repeat(40)}${String(index)}`) },
      })),
      fc.integer({ min: 1_000, max: 80_000 }).map((length) => ({
        query: 'mutation ($input: CreatePost) { createPost(input: $input) { id } }',
        variables: { input: { title: 't', ['k'.repeat(length)]: 'v'.repeat(length / 10) } },
      })),
      fc.integer({ min: 1_000, max: 80_000 }).map((length) => ({
        query: 'mutation ($input: CreatePost) { createPost(input: $input) { id } }',
        variables: { input: { title: { deep: 'z'.repeat(length) } } },
      })),
    );
    await fc.assert(
      fc.asyncProperty(big, fc.constantFrom<string | undefined>(undefined, admin, viewer), async ({ query, variables }, token) => {
        const result = await server.graphql(query, { variables, ...(token === undefined ? {} : { token }) });
        expect(result.errors).toHaveLength(1);
        const [error] = result.errors ?? [];
        expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
        expect(error?.message).toMatch(/^Variable "\$\w+" got invalid value /);
        // The value, its path and the reason at 200 characters and an ellipsis each, around graphql-js's own words.
        expect(error?.message.length).toBeLessThan(800);
        expect(JSON.stringify(result).length).toBeLessThan(1_500);
      }),
      { numRuns: 16, seed: PROPERTY_SEED },
    );
    const cut = await server.graphql('query ($n: Int) { users(first: $n) { id } }', { variables: { n: 'x'.repeat(84_000) } });
    expect(cut.errors?.[0]?.message).toBe(
      `Variable "$n" got invalid value "${'x'.repeat(199)}…; Int cannot represent non-integer value: "${'x'.repeat(159)}…`,
    );
  });

  it('repeats at most 1 000 characters of a literal a validation refusal prints', async () => {
    const result = await server.graphql(`{ users(first: "${'x'.repeat(84_000)}") { id } }`);
    expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(result.errors?.[0]?.message.length).toBe(1_001);
    expect(result.errors?.[0]?.message.endsWith('…')).toBe(true);
  });

  it('keeps the plain type of a piped argument and answers a pipe rejection with BAD_USER_INPUT, body not run', async () => {
    const before = await userCount();
    const result = await server.graphql('mutation { createUser(input: { name: "", email: "not-an-address" }) { id } }', { token: admin });
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.extensions?.issues).toEqual([
      { path: 'name', message: 'name must not be empty' },
      { path: 'email', message: 'email must be a valid address' },
    ]);
    expect(result.data).toEqual({ createUser: null });
    expect(await userCount()).toBe(before);
  });

  it('runs a custom transform: a rejected term is BAD_USER_INPUT, an accepted one is trimmed', async () => {
    const rejected = await server.graphql('{ searchPosts(term: "  x ") { id } }', { token: admin });
    expect(rejected.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(rejected.errors?.[0]?.message).toContain('at least 2 characters');
    const accepted = await server.graphql<{ searchPosts: { title: string }[] }>(
      '{ searchPosts(term: "   Draft 2 by Admin   ") { title } }',
      { token: admin },
    );
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data?.searchPosts.map((post) => post.title)).toEqual([`Draft 2 by ${server.user('admin').name}`]);
  });

  it('searches with a text of up to 10 000 characters and refuses a longer one as BAD_USER_INPUT, never a database error (generated)', async () => {
    const logged = server.logs.length;
    await fc.assert(
      // At most 44 000 UTF-16 units: under APP_HTTP__BODY_LIMIT (100kb) in JSON whatever the character.
      fc.asyncProperty(
        fc.integer({ min: 9_990, max: 44_000 }),
        fc.constantFrom('a', '%', '_', '\\', 'é', '😀'),
        async (length, character) => {
          const term = character.repeat(Math.ceil(length / character.length)).slice(0, length);
          const result = await server.graphql<{ searchPosts: unknown[] }>('query ($term: String!) { searchPosts(term: $term) { id } }', {
            token: admin,
            variables: { term },
          });
          if (term.length <= 10_000) {
            expect(result.errors).toBeUndefined();
            expect(result.data?.searchPosts).toEqual([]);
          } else {
            expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
            expect(result.errors?.[0]?.message).toContain('at most 10000 characters');
          }
        },
      ),
      { numRuns: 12, seed: PROPERTY_SEED },
    );
    expect(server.logs.slice(logged).filter((entry) => Number(entry.level) >= 50)).toEqual([]);
  });
});

describe('failure results become errors entries (docs/behaviour.md §4.1, §7)', () => {
  it('reports a unique violation as CONFLICT with its message, and keeps what resolved', async () => {
    const email = server.user('member').email;
    const result = await server.graphql<{ createUser: null; orgs: unknown[] }>(
      `mutation { createUser(input: { name: "Twin", email: "${email}" }) { id } }`,
      { token: admin },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(result.errors?.[0]?.message).toContain('already exists');
    expect(result.data).toEqual({ createUser: null });
  });

  it('puts what resolved in data beside the errors of what did not', async () => {
    const result = await server.graphql<{ good: { name: string }; bad: null }>(
      'mutation { good: createUser(input: { name: "Good", email: "good@acme.example" }) { name } bad: createUser(input: { name: "", email: "x" }) { name } }',
      { token: admin },
    );
    expect(result.data).toEqual({ good: { name: 'Good' }, bad: null });
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.path).toEqual(['bad']);
  });

  it('answers an error the same on every execution of a document, with its locations (graphql-js first, compiled after)', async () => {
    // Aliased and spread so the field sits on a line and column of its own; a document runs on graphql-js
    // once and compiled (graphql-jit) from its second execution on (runtime/graphql/execution.ts).
    const query = `mutation Twice {\n  ...F\n}\nfragment F on Mutation {\n    refused: createUser(input: { name: "", email: "x" }) { id }\n}`;
    const errors: unknown[] = [];
    for (let run = 0; run < 3; run++) {
      const result = await server.graphql(query, { token: admin, operationName: 'Twice' });
      const [error] = result.errors ?? [];
      errors.push({ ...error, extensions: { ...error?.extensions, requestId: undefined } });
    }
    expect(errors[0]).toMatchObject({ path: ['refused'], locations: [{ line: 5, column: 5 }], extensions: { code: 'BAD_USER_INPUT' } });
    expect(errors[1]).toEqual(errors[0]);
    expect(errors[2]).toEqual(errors[0]);
  });

  it('never puts a stack trace on the wire', async () => {
    const result = await server.graphql('mutation { createUser(input: { name: "x", email: "bad" }) { id } }', { token: admin });
    expect(JSON.stringify(result)).not.toMatch(/\bat .+\.ts:\d+|stack|node_modules/);
  });
});

describe('postures (docs/behaviour.md §1, §5)', () => {
  it('refuses an authorized operation without a token (UNAUTHENTICATED)', async () => {
    const result = await server.graphql('{ users { id } }');
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a token that does not verify (UNAUTHENTICATED naming why)', async () => {
    const result = await server.graphql('{ users { id } }', { token: `${admin}x` });
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(result.errors?.[0]?.message).toContain('signature');
  });

  it('refuses an action the ability does not grant (FORBIDDEN), before the body runs', async () => {
    const before = await userCount();
    const result = await server.graphql('mutation { createUser(input: { name: "Nope", email: "nope@example.com" }) { id } }', {
      token: viewer,
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await userCount()).toBe(before);
  });

  it('lets a viewer select permitted fields and refuses email with FORBIDDEN naming the field', async () => {
    const permitted = await server.graphql<{ users: { id: string; name: string }[] }>('{ users { id name orgId } }', { token: viewer });
    expect(permitted.errors).toBeUndefined();
    expect(permitted.data?.users.length).toBeGreaterThan(0);
    for (const query of [
      '{ users { id email } }',
      '{ users { ...F } } fragment F on User { name email }',
      '{ users { ... on User { email } } }',
      `{ user(id: "${server.user('admin').id}") { email } }`,
    ]) {
      const refused = await server.graphql(query, { token: viewer });
      expect(refused.errors).toHaveLength(1);
      expect(refused.errors?.[0]?.extensions).toEqual({ code: 'FORBIDDEN', field: 'email', requestId: expect.any(String) as unknown });
      expect(refused.errors?.[0]?.message).toContain('email');
    }
  });

  it('gives members and admins the email field', async () => {
    for (const token of [member, admin]) {
      const result = await server.graphql<{ users: { email: string }[] }>('{ users { email } }', { token });
      expect(result.errors).toBeUndefined();
      expect(result.data?.users.every((user) => user.email.includes('@'))).toBe(true);
    }
  });

  it('runs a public operation without a gate, and errors when it reads a principal none seeded', async () => {
    const anonymous = await server.graphql('{ me { id } }');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(anonymous.errors?.[0]?.message).toContain('no principal was seeded');
    expect(anonymous.data).toEqual({ me: null });
    const signedIn = await server.graphql<{ me: { id: string } }>('{ me { id } }', { token: member });
    expect(signedIn.data?.me.id).toBe(server.user('member').id);
  });

  it("creates a user in the org named by the caller's org_id", async () => {
    const result = await server.graphql<{ createUser: { orgId: string; email: string } }>(
      'mutation { createUser(input: { name: "Fresh", email: "fresh@acme.example" }) { orgId email } }',
      { token: admin },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.createUser.orgId).toBe(server.user('admin').orgId);
  });
});
