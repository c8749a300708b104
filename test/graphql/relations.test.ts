// Runs on: sqlite, postgresql
/**
 * Relation fields over real HTTP (docs/behaviour.md §2.1, §2.2, §2.4, §5.8, §5.10, §8): belongs_to through a
 * primary-key loader, has_many connections paged per parent in one statement per level, the
 * caller's scope and field grants inside every batch, the batch-context requirement, and query
 * complexity and depth.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type FormattedExecutionResult as ExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SeedResult } from '../../entities/seed.js';
import { openDatabase } from '../support/database.js';
import { ROOT } from '../support/project.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

type Edge<T> = { cursor: string; node: T };
type Connection<T> = { edges: Edge<T>[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

let server: InProcessServer;
let foreignAuthoredPost: string;

/** Reviewers for the first posts, and one post of org 0 whose author is in org 1. */
async function prepare(databaseUrl: string, seeded: SeedResult): Promise<void> {
  const database = await openDatabase(databaseUrl);
  const org0 = seeded.orgs[0]?.id ?? '';
  const org0Users = seeded.users.filter((user) => user.orgId === org0);
  const reviewer = org0Users[1];
  const org0Posts = seeded.posts.filter((post) => org0Users.some((user) => user.id === post.authorId));
  for (const post of org0Posts.slice(0, 5)) await database.post.update({ where: { id: post.id }, data: { reviewerId: reviewer?.id } });
  const outsider = seeded.users.find((user) => user.orgId !== org0);
  const created = await database.post.create({
    data: { orgId: org0, authorId: outsider?.id ?? '', title: 'Written from another org', status: 'published' },
  });
  foreignAuthoredPost = created.id;
  // Two categories of org 0; every post of org 0 filed under one or both.
  const categories = [];
  for (const name of ['News', 'Guides']) categories.push(await database.category.create({ data: { orgId: org0, name } }));
  for (const [index, post] of org0Posts.entries())
    for (const [position, category] of categories.entries())
      if (((index + 1) >> position) % 2 === 1)
        await database.postCategory.create({ data: { postId: post.id, categoryId: category.id, orgId: org0 } });
  await database.$disconnect();
}

beforeAll(async () => {
  server = await startInProcessServer({ seed: { orgs: 2, users: 25, posts: 3 }, prepare });
});

afterAll(async () => {
  await server.stop();
});

const org0 = (): string => server.seeded.orgs[0]?.id ?? '';
const usersOf = (orgId: string): string[] =>
  server.seeded.users
    .filter((user) => user.orgId === orgId)
    .map((user) => user.id)
    .sort();
const postsBy = (authorId: string): { id: string; status: string }[] =>
  server.seeded.posts.filter((post) => post.authorId === authorId).sort((a, b) => a.id.localeCompare(b.id));

describe('declared relations in the schema', () => {
  it('shows connection types and exposed relation fields only', () => {
    const sdl = readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8');
    expect(sdl).toContain('users(first: Int, after: String): UserConnection!');
    expect(sdl).toContain('posts(first: Int, after: String): PostConnection!');
    expect(sdl).toContain('reviews(first: Int, after: String): PostConnection!');
    expect(sdl).toMatch(/type UserConnection \{\n {2}edges: \[UserEdge!\]!\n {2}pageInfo: PageInfo!\n\}/);
    expect(sdl).toMatch(/type UserEdge \{[\s\S]*?cursor: String![\s\S]*?node: User!\n\}/);
    expect(sdl).toMatch(/type PageInfo \{[\s\S]*?hasNextPage: Boolean![\s\S]*?endCursor: String\n\}/);
    expect(sdl).toMatch(/\n {2}org: Org\n/);
    expect(sdl).toMatch(/\n {2}author: User\n/);
    // Post.org and Post.reviewer are declared but not exposed: no field.
    const post = /type Post \{[\s\S]*?\n\}/.exec(sdl)?.[0] ?? '';
    expect(post).not.toMatch(/\n {2}org:|\n {2}reviewer:/);
  });
});

describe('belongs_to (User.org, Post.author)', () => {
  it('resolves the parent row through the primary-key loader', async () => {
    const result = await server.graphql<{ users: { org: { id: string; name: string } }[] }>('{ users(first: 5) { org { id name } } }', {
      token: await server.token('member'),
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.users.map((user) => user.org)).toEqual(Array(5).fill({ id: org0(), name: server.seeded.orgs[0]?.name }));
  });

  it('is null, with no error, when the caller may not read the related row', async () => {
    const result = await server.graphql<{ post: { title: string; author: null } }>(
      `{ post(id: "${foreignAuthoredPost}") { title author { id name } } }`,
      { token: await server.token('admin') },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.post).toEqual({ title: 'Written from another org', author: null });
  });
});

describe('has_many connections (Org.users, User.posts, User.reviews)', () => {
  it('pages each parent separately: first rows per parent, never one limit over all parents', async () => {
    const result = await server.graphql<{ users: { id: string; posts: Connection<{ id: string }> }[] }>(
      '{ users(first: 10) { id posts(first: 1) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }',
      { token: await server.token('admin') },
    );
    expect(result.errors).toBeUndefined();
    const users = result.data?.users ?? [];
    expect(users).toHaveLength(10);
    for (const user of users) {
      const expected = postsBy(user.id);
      expect(user.posts.edges).toEqual([{ cursor: expected[0]?.id, node: { id: expected[0]?.id } }]);
      expect(user.posts.pageInfo).toEqual({ hasNextPage: true, endCursor: expected[0]?.id });
    }
  });

  it('follows endCursor with after, and ends with hasNextPage false', async () => {
    const token = await server.token('admin');
    const query =
      'query ($after: String) { orgs { users(first: 10, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } } }';
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const result: { data?: { orgs: { users: Connection<{ id: string }> }[] } | null } = await server.graphql<{
        orgs: { users: Connection<{ id: string }> }[];
      }>(query, { token, variables: { after } });
      const connection = result.data?.orgs[0]?.users;
      seen.push(...(connection?.edges.map((edge) => edge.node.id) ?? []));
      if (!connection?.pageInfo.hasNextPage) {
        expect(connection?.pageInfo.endCursor).toBe(seen[seen.length - 1]);
        break;
      }
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(usersOf(org0()));
  });

  it('applies the list rules: default 20, clamp 1..=100, unparseable after from the start', async () => {
    const token = await server.token('admin');
    const result = await server.graphql<Record<string, { users: Connection<{ id: string }> }[]>>(
      '{ a: orgs { users { edges { node { id } } } } b: orgs { users(first: 0) { edges { node { id } } } } c: orgs { users(first: 500) { edges { node { id } } } } d: orgs { users(first: 2, after: "nonsense") { edges { node { id } } } } }',
      { token },
    );
    expect(result.errors).toBeUndefined();
    const ids = (key: string): string[] => result.data?.[key]?.[0]?.users.edges.map((edge) => edge.node.id) ?? [];
    expect(ids('a')).toEqual(usersOf(org0()).slice(0, 20));
    expect(ids('b')).toHaveLength(1);
    expect(ids('c')).toEqual(usersOf(org0()));
    expect(ids('d')).toEqual(usersOf(org0()).slice(0, 2));
  });

  it('follows the column named by via (User.posts → authorId, User.reviews → reviewerId)', async () => {
    const reviewer = usersOf(org0())[1];
    const result = await server.graphql<{ user: { reviews: Connection<{ reviewerId: string }>; posts: Connection<{ authorId: string }> } }>(
      `{ user(id: "${reviewer}") { reviews(first: 50) { edges { node { reviewerId } } } posts(first: 50) { edges { node { authorId } } } } }`,
      { token: await server.token('admin') },
    );
    expect(result.data?.user.reviews.edges.length).toBe(5);
    expect(result.data?.user.reviews.edges.every((edge) => edge.node.reviewerId === reviewer)).toBe(true);
    expect(result.data?.user.posts.edges.every((edge) => edge.node.authorId === reviewer)).toBe(true);
  });
});

describe('a hand-written field in place of an unexposed relation (docs/behaviour.md §2.1)', () => {
  it('computes Post.reviewerName from the parent, where Post.reviewer has no field', async () => {
    const reviewer = server.seeded.users.find((user) => user.id === usersOf(org0())[1]);
    const result = await server.graphql<{ posts: { reviewerId: string | null; reviewerName: string | null }[] }>(
      '{ posts(first: 100) { reviewerId reviewerName } }',
      { token: await server.token('admin') },
    );
    expect(result.errors).toBeUndefined();
    const posts = result.data?.posts ?? [];
    expect(posts.filter((post) => post.reviewerName !== null)).toEqual(
      Array(5).fill({ reviewerId: reviewer?.id, reviewerName: reviewer?.name }),
    );
    expect(posts.filter((post) => post.reviewerId === null).every((post) => post.reviewerName === null)).toBe(true);
  });
});

describe('many_to_many through a join table (docs/behaviour.md §2.6)', () => {
  it('pages Post.categories and Category.posts per parent, each role seeing the filings of the posts it reads', async () => {
    type Page = { edges: { node: { id: string; status?: string } }[] };
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const token = await server.token(role);
      const posts = await server.graphql<{ posts: { id: string; status: string; categories: Page }[] }>(
        '{ posts(first: 100) { id status categories(first: 10) { edges { node { id name } } } } }',
        { token },
      );
      expect(posts.errors).toBeUndefined();
      const filed = (posts.data?.posts ?? []).filter((post) => post.categories.edges.length > 0);
      expect(filed.length, role).toBeGreaterThan(0);
      const categories = await server.graphql<{ posts: { categories: Page }[] }>(
        '{ posts(first: 1) { categories { edges { node { id posts(first: 100) { edges { node { id status } } } } } } } }',
        { token },
      );
      expect(categories.errors).toBeUndefined();
      // A category lists only posts the role may read: a viewer, published ones only.
      const listed = (categories.data?.posts ?? []).flatMap((post) =>
        post.categories.edges.flatMap((edge) => (edge.node as unknown as { posts: Page }).posts.edges.map((inner) => inner.node)),
      );
      if (role === 'viewer') expect(listed.every((node) => node.status === 'published')).toBe(true);
      const readable = new Set((posts.data?.posts ?? []).map((post) => post.id));
      expect(
        listed.every((node) => readable.has(node.id)),
        role,
      ).toBe(true);
    }
  });
});

describe('row scope and field grants inside batches (docs/behaviour.md §5.8)', () => {
  it('never shows a hidden child in a connection: a viewer sees published posts only, a member also their own drafts', async () => {
    const query = '{ users(first: 100) { id posts(first: 40) { edges { node { id status } } pageInfo { hasNextPage } } } }';
    const member = server.seeded.users.find((user) => user.role === 'member' && user.orgId === org0());
    for (const role of ['viewer', 'member'] as const) {
      const result = await server.graphql<{ users: { id: string; posts: Connection<{ id: string; status: string }> }[] }>(query, {
        token: await server.token(role),
      });
      expect(result.errors).toBeUndefined();
      for (const user of result.data?.users ?? []) {
        const visible = postsBy(user.id)
          .filter((post) => post.status === 'published' || (role === 'member' && user.id === member?.id))
          .map((post) => ({ id: post.id, status: post.status }));
        expect(user.posts.edges.map((edge) => edge.node)).toEqual(visible);
        expect(user.posts.pageInfo.hasNextPage).toBe(false);
      }
    }
  });

  it('never crosses orgs through a relation', async () => {
    const result = await server.graphql<{ orgs: { id: string; users: Connection<{ orgId: string }> }[] }>(
      '{ orgs { id users(first: 100) { edges { node { orgId } } } } }',
      { token: await server.token('admin', 1) },
    );
    expect(result.data?.orgs).toHaveLength(1);
    expect(result.data?.orgs[0]?.users.edges.every((edge) => edge.node.orgId === server.seeded.orgs[1]?.id)).toBe(true);
  });

  it('keeps masked fields masked inside relations: a viewer selecting User.email through Org.users gets FORBIDDEN naming it', async () => {
    const token = await server.token('viewer');
    const refused = await server.graphql('{ orgs { users { edges { node { name email } } } } }', { token });
    expect(refused.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'FORBIDDEN', field: 'email', requestId: expect.any(String) as unknown } }),
    ]);
    const permitted = await server.graphql<{ orgs: { users: Connection<{ name: string }> }[] }>(
      '{ orgs { users { edges { node { name } } } } }',
      { token },
    );
    expect(permitted.errors).toBeUndefined();
    expect(permitted.data?.orgs[0]?.users.edges.length).toBe(20);
  });
});

describe('one statement per level (docs/behaviour.md §8)', () => {
  async function countStatements(query: string): Promise<number> {
    const token = await server.token('admin');
    const before = server.statements.length;
    const result = await server.graphql(query, { token });
    expect(result.errors).toBeUndefined();
    return server.statements.length - before;
  }

  it.each([20, 100])('costs 1 + relation levels with %i parents', async (parents) => {
    const shape = `{ users(first: ${parents}) { org { name } posts(first: 10) { edges { node { title } } } } }`;
    expect(await countStatements(shape)).toBe(3);
    const withReviews = `{ users(first: ${parents}) { org { name } posts(first: 10) { edges { node { title } } } reviews(first: 10) { edges { node { title } } } } }`;
    expect(await countStatements(withReviews)).toBe(4);
    const deeper = `{ users(first: ${parents}) { posts(first: 10) { edges { node { author { name org { name } } } } } } }`;
    expect(await countStatements(deeper)).toBe(4);
  });

  it.each([20, 100])('costs one statement for a level of batched computed fields too, with %i parents', async (parents) => {
    // Post.reviewerName takes every post of a level at once: one lookup of reviewers, however many posts.
    expect(await countStatements(`{ posts(first: ${parents}) { reviewerName } }`)).toBe(2);
    expect(await countStatements(`{ posts(first: ${parents}) { reviewerName author { name } } }`)).toBe(3);
    // A many_to_many level is one statement too, the join rows and the far side scoped in it.
    expect(await countStatements(`{ posts(first: ${parents}) { categories(first: 5) { edges { node { name } } } } }`)).toBe(2);
    // And under a has_many: posts of every user, one call for the whole level.
    expect(await countStatements(`{ users(first: ${parents}) { posts(first: 10) { edges { node { reviewerName } } } } }`)).toBe(3);
  });
});

describe('query complexity and depth (docs/behaviour.md §8)', () => {
  it('reports the cost of every executed request in extensions.cost', async () => {
    const result = await server.graphql<unknown>('{ users(first: 5) { id org { name } posts(first: 3) { edges { node { title } } } } }', {
      token: await server.token('admin'),
    });
    // users, a page of 5: 5 × [id 1 + org (1 + name 1) + posts 3 × title 1] = 5 × (1 + 2 + 3)
    expect(result.extensions).toEqual({ cost: { complexity: 30, limit: 10_000 } });
  });

  it('scores a three-level has_many chain at default size as 20^3 and lets it pass', async () => {
    const query = '{ orgs { users { edges { node { posts { edges { node { author { reviews { edges { node { id } } } } } } } } } } } }';
    const result = await server.graphql(query, { token: await server.token('admin') });
    expect(result.errors).toBeUndefined();
    // orgs 1 + users 20 × posts 20 × (author 1 + reviews 20 × id 1) = 1 + 20 × 20 × 21
    expect(result.extensions).toEqual({ cost: { complexity: 8401, limit: 10_000 } });
  });

  it('refuses an operation over the complexity limit before it runs, with the computed score', async () => {
    const before = server.statements.length;
    const result = await server.graphql(
      '{ orgs { users(first: 100) { edges { node { posts(first: 100) { edges { node { id title } } } } } } } }',
      { token: await server.token('admin') },
    );
    expect(result.data).toBeUndefined();
    expect(result.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'COMPLEXITY_LIMIT', complexity: 20_001, limit: 10_000, requestId: expect.any(String) as unknown },
      }),
    ]);
    expect(server.statements.length).toBe(before);
  });

  it('applies a @Complexity override that names first', async () => {
    const result = await server.graphql<unknown>('{ searchPosts(term: "Notes", first: 50) { id title } }', {
      token: await server.token('admin'),
    });
    expect(result.extensions).toEqual({ cost: { complexity: 100, limit: 10_000 } });
  });

  it('refuses an operation deeper than the depth limit with DEPTH_LIMIT', async () => {
    let selection = 'id';
    for (let level = 0; level < 6; level++) selection = `author { posts(first: 1) { edges { node { ${selection} } } } }`;
    const result = await server.graphql(`{ posts(first: 1) { ${selection} } }`, { token: await server.token('admin') });
    expect(result.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'DEPTH_LIMIT', depth: 14, limit: 10, requestId: expect.any(String) as unknown } }),
    ]);
  });
});

describe('batch context (docs/behaviour.md §5.10)', () => {
  let bare: InProcessServer;

  beforeAll(async () => {
    // What the generator emits when no reachable module lists LoaderScope.
    bare = await startInProcessServer({ adjust: (definition) => ({ ...definition, loaderScope: () => undefined }) });
  });

  afterAll(async () => {
    await bare.stop();
  });

  it('warns at schema build with the count of loaders (one per exposed relation: eight in the demo) seeded without a batch context', () => {
    expect(bare.logs).toContainEqual(
      expect.objectContaining({ level: 40, loaders: 8, msg: expect.stringContaining('8 loaders were seeded with no batch context') }),
    );
  });

  it('fails every relation field with "database error" and logs the entity, while scalars resolve', async () => {
    const result = await bare.graphql<{ users: { name: string; org: null }[] }>('{ users(first: 2) { name org { name } } }', {
      token: await bare.token('admin'),
    });
    expect(result.data?.users.map((user) => user.name)).toHaveLength(2);
    expect(result.data?.users.every((user) => user.org === null)).toBe(true);
    expect(result.errors?.map((error) => [error.message, error.extensions?.code, error.path])).toEqual([
      ['database error', 'INTERNAL_SERVER_ERROR', ['users', 0, 'org']],
      ['database error', 'INTERNAL_SERVER_ERROR', ['users', 1, 'org']],
    ]);
    expect(bare.logs).toContainEqual(
      expect.objectContaining({ level: 50, entity: 'Org', msg: expect.stringContaining('no batch context') }),
    );
  });

  it('keeps a has_many failure local: an empty connection and "database error" at its path, the rest of data intact', async () => {
    const query =
      '{ orgs { name users(first: 5) { edges { node { name } } pageInfo { hasNextPage endCursor } } } users(first: 2) { name posts { edges { cursor } } } }';
    const result = await bare.graphql<{ orgs: { name: string; users: unknown }[]; users: { name: string; posts: unknown }[] }>(query, {
      token: await bare.token('admin'),
    });
    expect(result.data?.orgs.map((org) => org.name)).toEqual([bare.seeded.orgs[0]?.name]);
    const empty = { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    expect(result.data?.orgs[0]?.users).toEqual(empty);
    expect(result.data?.users.map((user) => user.posts)).toEqual([{ edges: [] }, { edges: [] }]);
    expect(result.data?.users.every((user) => typeof user.name === 'string')).toBe(true);
    // The two root fields resolve concurrently: their errors come in either order.
    const reported = (result.errors ?? []).map((error) => [error.message, error.extensions?.code, error.path]);
    expect(reported.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      ['database error', 'INTERNAL_SERVER_ERROR', ['orgs', 0, 'users']],
      ['database error', 'INTERNAL_SERVER_ERROR', ['users', 0, 'posts']],
      ['database error', 'INTERNAL_SERVER_ERROR', ['users', 1, 'posts']],
    ]);
  });

  it('keeps it local over graphql-ws too', async () => {
    const client = createClient({
      url: `${bare.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${await bare.token('admin')}` },
      retryAttempts: 0,
    });
    try {
      const result = await new Promise<ExecutionResult<{ orgs: { name: string; users: unknown }[] }, unknown>>((resolve, reject) => {
        let last: ExecutionResult<{ orgs: { name: string; users: unknown }[] }, unknown> | undefined;
        client.subscribe<{ orgs: { name: string; users: unknown }[] }>(
          { query: '{ orgs { name users { edges { cursor } } } }' },
          { next: (value) => (last = value), error: reject, complete: () => resolve(last ?? {}) },
        );
      });
      expect(result.data?.orgs.map((org) => [org.name, org.users])).toEqual([[bare.seeded.orgs[0]?.name, { edges: [] }]]);
      expect(result.errors?.map((error) => [error.message, error.extensions?.code, error.path])).toEqual([
        ['database error', 'INTERNAL_SERVER_ERROR', ['orgs', 0, 'users']],
      ]);
    } finally {
      await client.dispose();
    }
  });
});
