// Runs on: sqlite, postgresql
/**
 * Keyset pagination over real HTTP (docs/behaviour.md §4.2, §8): `first` default 20 and clamped to 1..=100,
 * `after` = last id of the previous page, probe row dropped, `x-next-cursor` only when more rows
 * remain, unparseable cursors page from the start; GraphQL lists take the same arguments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let admin: string;
let orgUserIds: string[];

beforeAll(async () => {
  // Org 0 gets 120 users, enough to see the clamp at 100.
  server = await startTestServer({ seed: { orgs: 2, users: 120, posts: 1 } });
  admin = await server.token('admin');
  const org = server.seeded.orgs[0]?.id;
  orgUserIds = server.seeded.users
    .filter((user) => user.orgId === org)
    .map((user) => user.id)
    .sort();
});

afterAll(async () => {
  await server.stop();
});

async function restPage(query: string): Promise<{ status: number; ids: string[]; next: string | null }> {
  const response = await server.fetch(`/users${query}`, { token: admin });
  const body = (await response.json()) as { id: string }[];
  return { status: response.status, ids: body.map((row) => row.id), next: response.headers.get('x-next-cursor') };
}

describe('REST list paging (GET /users)', () => {
  it('returns a flat JSON array of 20 rows by default, in id order, with x-next-cursor', async () => {
    const page = await restPage('');
    expect(page.status).toBe(200);
    expect(page.ids).toEqual(orgUserIds.slice(0, 20));
    expect(page.next).toBe(orgUserIds[19]);
  });

  it.each([
    ['0', 1],
    ['-5', 1],
    ['1', 1],
    ['100', 100],
    ['101', 100],
  ])('clamps first=%s to %i rows', async (first, expected) => {
    const page = await restPage(`?first=${encodeURIComponent(first)}`);
    expect(page.status).toBe(200);
    expect(page.ids).toHaveLength(expected);
    expect(page.ids).toEqual(orgUserIds.slice(0, expected));
  });

  it('answers HEAD with the headers GET answers (type, length in bytes, cursor) and no body', async () => {
    const get = await server.fetch('/users?first=30', { token: admin });
    const text = await get.text();
    const head = await server.fetch('/users?first=30', { token: admin, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['content-type', 'content-length', 'x-next-cursor']) expect(head.headers.get(name)).toBe(get.headers.get(name));
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(get.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it.each(['abc', '', '7.9', '1e2', '5&first=6'])('refuses first=%s, which is no one integer, with 400', async (first) => {
    const response = await server.fetch(`/users?first=${first}`, { token: admin });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
  });

  it('continues after the cursor and omits x-next-cursor on the last page', async () => {
    const first = await restPage('?first=50');
    const second = await restPage(`?first=50&after=${first.next}`);
    const third = await restPage(`?first=50&after=${second.next}`);
    expect(second.ids).toEqual(orgUserIds.slice(50, 100));
    expect(third.ids).toEqual(orgUserIds.slice(100, 120));
    expect(third.next).toBeNull();
  });

  it('drops the probe row: a page that ends exactly at the last row has no cursor', async () => {
    const exact = await restPage(`?first=40&after=${orgUserIds[79]!}`);
    expect(exact.ids).toEqual(orgUserIds.slice(80, 120));
    expect(exact.next).toBeNull();
    const oneShort = await restPage(`?first=39&after=${orgUserIds[79]!}`);
    expect(oneShort.ids).toHaveLength(39);
    expect(oneShort.next).toBe(orgUserIds[118]);
  });

  it('pages from the start when the cursor is unparseable, never an error', async () => {
    for (const after of ['garbage', '', '123', 'not-a-uuid-at-all-0000000000000000000', '%00']) {
      const page = await restPage(`?first=3&after=${encodeURIComponent(after)}`);
      expect(page.status).toBe(200);
      expect(page.ids).toEqual(orgUserIds.slice(0, 3));
    }
  });

  it('accepts an upper-case cursor as the same id', async () => {
    const page = await restPage(`?first=2&after=${orgUserIds[9]?.toUpperCase()}`);
    expect(page.ids).toEqual(orgUserIds.slice(10, 12));
  });

  it('walks every row exactly once by following x-next-cursor', async () => {
    const seen: string[] = [];
    let after = '';
    for (let guard = 0; guard < 20; guard++) {
      const page = await restPage(`?first=17${after ? `&after=${after}` : ''}`);
      seen.push(...page.ids);
      if (!page.next) break;
      after = page.next;
    }
    expect(seen).toEqual(orgUserIds);
  });

  it('pages versioned lists the same way (GET /v1/posts and /v2/posts)', async () => {
    const org = server.seeded.orgs[0]?.id;
    const postIds = server.seeded.posts
      .filter((post) => server.seeded.users.find((user) => user.id === post.authorId)?.orgId === org)
      .map((post) => post.id)
      .sort();
    for (const version of ['v1', 'v2']) {
      const response = await server.fetch(`/${version}/posts?first=30`, { token: admin });
      const rows = (await response.json()) as { id: string }[];
      expect(rows.map((row) => row.id)).toEqual(postIds.slice(0, 30));
      expect(response.headers.get('x-next-cursor')).toBe(postIds[29]);
    }
  });
  it("writes each row's dates as the ISO instants GraphQL answers for the same rows, null as null", async () => {
    const rest = (await (await server.fetch('/v2/posts?first=100', { token: admin })).json()) as {
      id: string;
      createdAt: string;
      publishedAt: string | null;
    }[];
    const graphql = await server.graphql<{ posts: { id: string; createdAt: string; publishedAt: string | null }[] }>(
      '{ posts(first: 100) { id createdAt publishedAt } }',
      { token: admin },
    );
    const byId = new Map(graphql.data?.posts.map((post) => [post.id, post]));
    expect(rest.length).toBeGreaterThan(0);
    for (const row of rest) {
      expect(row.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect({ createdAt: row.createdAt, publishedAt: row.publishedAt }).toEqual({
        createdAt: byId.get(row.id)?.createdAt,
        publishedAt: byId.get(row.id)?.publishedAt,
      });
    }
  });
});

describe('GraphQL list paging (users, posts)', () => {
  it('takes the same first/after arguments and returns a plain list', async () => {
    const result = await server.graphql<{ users: { id: string }[] }>(
      'query ($first: Int, $after: String) { users(first: $first, after: $after) { id } }',
      { token: admin, variables: { first: 10, after: orgUserIds[4] } },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.map((user) => user.id)).toEqual(orgUserIds.slice(5, 15));
  });

  it.each([
    [0, 1],
    [-5, 1],
    [101, 100],
  ])('clamps first: %i to %i rows', async (first, expected) => {
    const result = await server.graphql<{ users: { id: string }[] }>(`{ users(first: ${first}) { id } }`, { token: admin });
    expect(result.data?.users).toHaveLength(expected);
  });

  it('defaults to 20 rows and pages from the start on an unparseable cursor', async () => {
    const result = await server.graphql<{ users: { id: string }[] }>('{ users(after: "zzz") { id } }', { token: admin });
    expect(result.data?.users.map((user) => user.id)).toEqual(orgUserIds.slice(0, 20));
  });

  it('ends with an empty page after the last id', async () => {
    const result = await server.graphql<{ users: { id: string }[] }>(`{ users(after: "${orgUserIds[orgUserIds.length - 1]}") { id } }`, {
      token: admin,
    });
    expect(result.data?.users).toEqual([]);
  });

  it('walks every row exactly once, the last id of a page being the next cursor', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const result: { data?: { users: { id: string }[] } | null } = await server.graphql<{ users: { id: string }[] }>(
        'query ($after: String) { users(first: 33, after: $after) { id } }',
        { token: admin, variables: { after } },
      );
      const ids = result.data?.users.map((user) => user.id) ?? [];
      if (ids.length === 0) break;
      seen.push(...ids);
      after = ids[ids.length - 1] ?? null;
    }
    expect(seen).toEqual(orgUserIds);
  });
});

describe('pagination mode none', () => {
  it('returns the whole scoped collection in one response, without a cursor (GET /orgs, orgs)', async () => {
    const response = await server.fetch('/orgs', { token: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-next-cursor')).toBeNull();
    expect(await response.json()).toEqual([{ id: server.seeded.orgs[0]?.id, name: server.seeded.orgs[0]?.name }]);
    const result = await server.graphql<{ orgs: { id: string }[] }>('{ orgs { id } }', { token: admin });
    expect(result.data?.orgs).toEqual([{ id: server.seeded.orgs[0]?.id }]);
  });
});
