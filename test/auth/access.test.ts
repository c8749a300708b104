// Runs on: sqlite, postgresql
/**
 * Access control over real HTTP (docs/behaviour.md §5, docs/decisions.md §3): bearer JWTs verified with jose, CASL
 * row scope on every query, field masking, nothing crossing orgs, the same rows over REST and
 * GraphQL, and a closed door for anything unknown.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../runtime/auth/authentication.js';
import { TEST_SECRET } from '../support/project.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 2, users: 4, posts: 2 } });
});

afterAll(async () => {
  await server.stop();
});

const orgId = (index: number): string => server.seeded.orgs[index]?.id ?? '';
const orgOfUser = (userId: string): string | undefined => server.seeded.users.find((user) => user.id === userId)?.orgId;

/** The post ids `role` in org 0 may read, by docs/decisions.md §3. */
function expectedPosts(role: Role): string[] {
  const me = server.user(role);
  return server.seeded.posts
    .filter((post) => orgOfUser(post.authorId) === orgId(0))
    .filter((post) => role === 'admin' || post.status === 'published' || (role === 'member' && post.authorId === me.id))
    .map((post) => post.id)
    .sort();
}

async function restIds(pathname: string, token: string): Promise<string[]> {
  const response = await server.fetch(pathname, { token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }[]).map((row) => row.id);
}

describe('row scope per role (docs/decisions.md §3)', () => {
  it.each(['admin', 'member', 'viewer'] as const)(
    '%s reads exactly the posts the grants allow, over REST and GraphQL alike',
    async (role) => {
      const token = await server.token(role);
      const rest = await restIds('/v2/posts?first=100', token);
      const graphql = await server.graphql<{ posts: { id: string }[] }>('{ posts(first: 100) { id } }', { token });
      expect(rest).toEqual(expectedPosts(role));
      expect(graphql.data?.posts.map((post) => post.id)).toEqual(rest);
    },
  );

  it.each(['admin', 'member', 'viewer'] as const)('%s gets the same users over GET /users as over GraphQL users', async (role) => {
    const token = await server.token(role);
    const rest = await restIds('/users?first=100', token);
    const graphql = await server.graphql<{ users: { id: string }[] }>('{ users(first: 100) { id } }', { token });
    expect(graphql.data?.users.map((user) => user.id)).toEqual(rest);
    expect(rest).toEqual(
      server.seeded.users
        .filter((user) => user.orgId === orgId(0))
        .map((user) => user.id)
        .sort(),
    );
  });

  it('masks fields the grant excludes in REST bodies (viewer: no email)', async () => {
    const viewerRows = (await (await server.fetch('/users', { token: await server.token('viewer') })).json()) as Record<string, unknown>[];
    expect(viewerRows.length).toBeGreaterThan(0);
    for (const row of viewerRows) expect(Object.keys(row).sort()).toEqual(['id', 'name', 'orgId']);
    const memberRows = (await (await server.fetch('/users', { token: await server.token('member') })).json()) as Record<string, unknown>[];
    for (const row of memberRows) expect(Object.keys(row).sort()).toEqual(['email', 'id', 'name', 'orgId']);
  });
});

describe('nothing crosses orgs', () => {
  it("hides another org's rows from lists, lookups and both transports", async () => {
    const admin = await server.token('admin', 0);
    const foreignUser = server.user('member', 1);
    const foreignPost = server.seeded.posts.find((post) => orgOfUser(post.authorId) === orgId(1));
    expect((await server.fetch(`/users/${foreignUser.id}`, { token: admin })).status).toBe(404);
    expect((await server.fetch(`/v1/posts/${foreignPost?.id}`, { token: admin })).status).toBe(404);
    const lookup = await server.graphql<{ user: null; post: null }>(
      `{ user(id: "${foreignUser.id}") { id } post(id: "${foreignPost?.id}") { id } }`,
      { token: admin },
    );
    expect(lookup.data).toEqual({ user: null, post: null });
    expect(lookup.errors).toBeUndefined();
    const all = await restIds('/users?first=100', admin);
    expect(all).not.toContain(foreignUser.id);
    const orgs = await server.graphql<{ orgs: { id: string }[] }>('{ orgs { id } }', { token: admin });
    expect(orgs.data?.orgs).toEqual([{ id: orgId(0) }]);
  });

  it("creates in the caller's own org whatever the body says", async () => {
    const admin = await server.token('admin', 1);
    const response = await server.fetch('/users', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Org One', email: 'one@globex.example' }),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { orgId: string }).orgId).toBe(orgId(1));
  });

  it('gives a token whose org_id names no org nothing at all', async () => {
    const token = await mintToken(TEST_SECRET, {
      sub: server.user('admin').id,
      org_id: '01900000-0000-7000-8000-000000000000',
      role: 'admin',
    });
    expect(await restIds('/users', token)).toEqual([]);
    expect(await restIds('/v2/posts', token)).toEqual([]);
    const result = await server.graphql<{ orgs: unknown[]; users: unknown[] }>('{ orgs { id } users { id } }', { token });
    expect(result.data).toEqual({ orgs: [], users: [] });
  });

  it('gives a role the grants do not know nothing (FORBIDDEN on every gate)', async () => {
    const token = await mintToken(TEST_SECRET, { sub: server.user('admin').id, org_id: orgId(0), role: 'superuser' });
    const response = await server.fetch('/users', { token });
    expect(response.status).toBe(403);
    const result = await server.graphql('{ users { id } }', { token });
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('bearer tokens (docs/decisions.md §3)', () => {
  const claims = (): { sub: string; org_id: string; role: string } => ({ sub: server.user('admin').id, org_id: orgId(0), role: 'admin' });

  async function problemFor(
    token: string | undefined,
  ): Promise<{ status: number; body: Record<string, unknown>; challenge: string | null }> {
    const response = await server.fetch('/users', token === undefined ? {} : { headers: { authorization: token } });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      challenge: response.headers.get('www-authenticate'),
    };
  }

  it('answers 401 problem+json without a token', async () => {
    const { status, body, challenge } = await problemFor(undefined);
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 401, title: 'Unauthorized', code: 'UNAUTHENTICATED' });
    expect(challenge).toBe('Bearer');
  });

  it.each([
    ['an expired token', async () => `Bearer ${await mintToken(TEST_SECRET, claims(), '-1m')}`, 'expired'],
    [
      'a token signed with another secret',
      async () => `Bearer ${await mintToken('another-secret-another-secret-another-secret', claims())}`,
      'signature',
    ],
    [
      'an unsigned token (alg none)',
      () =>
        Promise.resolve(
          `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims(), exp: 9_999_999_999 })).toString('base64url')}.`,
        ),
      'algorithm',
    ],
    [
      'a token without exp',
      async () =>
        `Bearer ${await new SignJWT({ org_id: orgId(0), role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setSubject(server.user('admin').id).sign(new TextEncoder().encode(TEST_SECRET))}`,
      'exp',
    ],
    [
      'a token whose org_id is not a UUID',
      async () => `Bearer ${await mintToken(TEST_SECRET, { ...claims(), org_id: 'acme' })}`,
      'org_id must be a UUID',
    ],
    ['a header that is not Bearer', () => Promise.resolve('Basic dXNlcjpwYXNz'), 'Bearer <token>'],
  ])('refuses %s with 401 naming why', async (_name, make, reason) => {
    const { status, body } = await problemFor(await make());
    expect(status).toBe(401);
    expect(String(body.detail)).toContain(reason);
  });
});
