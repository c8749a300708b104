// Runs on: sqlite, postgresql
/**
 * Masking on the GraphQL wire (docs/hostile-input.md §5; docs/behaviour.md §2.1, §7): a nullable field the caller's grant
 * excludes is `null`; only a non-null one is refused with `FORBIDDEN` naming it. A masked nullable
 * field never nulls its row, its list or the whole `data`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AbilityRules, defineAbility, type Principal } from '../../runtime/auth/ability.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

/** Post columns a viewer may read here: no `reviewerId`, `publishedAt` (nullable) or `body` (non-null). */
const VIEWER_POST_FIELDS = ['id', 'orgId', 'authorId', 'title', 'status', 'createdAt'];

interface PostRow {
  readonly id: string;
  readonly status: string;
  readonly reviewerId: string | null;
  readonly publishedAt: string | null;
}

/**
 * A server on a fresh seed where the demo's grants hold for every role but the viewer, whose rules
 * `grants` writes instead.
 */
function startWithViewerGrants(
  seed: { orgs: number; users: number; posts: number },
  grants: (can: AbilityRules['can'], principal: Principal) => void,
): Promise<InProcessServer> {
  return startInProcessServer({
    seed,
    adjust: (definition) => ({
      ...definition,
      abilities: (container) => {
        const declared = definition.abilities(container);
        return {
          for: (principal) => (principal.role !== 'viewer' ? declared.for(principal) : defineAbility(({ can }) => grants(can, principal))),
        };
      },
    }),
  });
}

describe('masked fields (docs/behaviour.md §2.1, §7)', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    server = await startWithViewerGrants({ orgs: 1, users: 4, posts: 3 }, (can, principal) => {
      const inOrg = { orgId: principal.org_id };
      can('read', 'User', ['id', 'orgId', 'name'], inOrg);
      can('read', 'Org', { id: principal.org_id });
      can('read', 'Post', VIEWER_POST_FIELDS, { ...inOrg, status: 'published' });
    });
  });
  afterAll(async () => server?.stop());

  it('answers a nullable field the grant excludes with null, no error, every row present', async () => {
    const admin = await server.graphql<{ posts: PostRow[] }>('{ posts(first: 100) { id status reviewerId publishedAt } }', {
      token: await server.token('admin'),
    });
    const published = admin.data!.posts.filter((post) => post.status === 'published');
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((post) => post.publishedAt !== null)).toBe(true);

    const viewer = await server.graphql<{ posts: PostRow[] }>('{ posts(first: 100) { id status reviewerId publishedAt } }', {
      token: await server.token('viewer'),
    });
    expect(viewer.errors).toBeUndefined();
    expect(viewer.data?.posts.map((post) => post.id)).toEqual(published.map((post) => post.id));
    expect(viewer.data?.posts.every((post) => post.reviewerId === null && post.publishedAt === null)).toBe(true);
  });

  it('does so inside relations and fragments too', async () => {
    const query = '{ users(first: 20) { name posts(first: 20) { edges { node { ...P } } } } } fragment P on Post { id publishedAt }';
    const viewer = await server.graphql<{ users: { name: string; posts: { edges: { node: PostRow }[] } }[] }>(query, {
      token: await server.token('viewer'),
    });
    expect(viewer.errors, JSON.stringify(viewer.errors)).toBeUndefined();
    const nodes = viewer.data!.users.flatMap((user) => user.posts.edges.map((edge) => edge.node));
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((node) => node.publishedAt === null)).toBe(true);
  });

  it('refuses a non-null field the grant excludes with FORBIDDEN naming it, before any row is read', async () => {
    const before = server.statements.length;
    const refused = await server.graphql('{ posts(first: 5) { id publishedAt body } }', { token: await server.token('viewer') });
    expect(refused.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'FORBIDDEN', field: 'body', requestId: expect.any(String) as unknown } }),
    ]);
    expect(server.statements.length).toBe(before);
  });
});

describe('a field granted on some rows only (docs/behaviour.md §2.1, §7)', () => {
  let server: InProcessServer;
  /** The viewer of org 0, who may read their own email and no one else's. */
  let viewer: { id: string; orgId: string };

  beforeAll(async () => {
    server = await startWithViewerGrants({ orgs: 1, users: 4, posts: 2 }, (can, principal) => {
      const inOrg = { orgId: principal.org_id };
      can('read', 'User', ['id', 'orgId', 'name'], inOrg);
      can('read', 'User', ['email'], { ...inOrg, id: principal.sub });
      can('read', 'Org', { id: principal.org_id });
      can('read', 'Post', inOrg);
    });
    const found = server.seeded.users.find((user) => user.role === 'viewer' && user.orgId === server.seeded.orgs[0]?.id);
    viewer = { id: found?.id ?? '', orgId: found?.orgId ?? '' };
  });
  afterAll(async () => server?.stop());

  const other = (): string => server.seeded.users.find((user) => user.orgId === viewer.orgId && user.id !== viewer.id)?.id ?? '';

  // A document runs on graphql-js the first time and compiled by graphql-jit from then on: three
  // sends cover both, and each must answer alike.
  it('refuses the non-null field on the rows it is not granted on, at its path, on every execution of the document', async () => {
    const token = await server.token('viewer');
    for (let round = 0; round < 3; round++) {
      const refused = await server.graphql<{ user: { id: string; email: string } | null }>(
        'query One($id: String!) { user(id: $id) { id email } }',
        { token, variables: { id: other() } },
      );
      expect(refused.data).toEqual({ user: null });
      expect(refused.errors).toEqual([
        expect.objectContaining({
          path: ['user', 'email'],
          locations: [{ line: 1, column: 46 }],
          extensions: { code: 'FORBIDDEN', field: 'email', requestId: expect.any(String) as unknown },
        }),
      ]);
      expect(refused.errors?.[0]?.message).toContain('User.email');

      const own = await server.graphql('query One($id: String!) { user(id: $id) { id email } }', { token, variables: { id: viewer.id } });
      expect(own.errors).toBeUndefined();
      expect(own.data).toEqual({ user: { id: viewer.id, email: expect.stringContaining('@') as unknown } });
    }
  });

  it('does so through a relation batch: each other author is null with its refusal, the own one answered', async () => {
    const token = await server.token('viewer');
    for (let round = 0; round < 3; round++) {
      const result = await server.graphql<{ posts: { id: string; authorId: string; author: { id: string; email: string } | null }[] }>(
        '{ posts(first: 100) { id authorId author { id email } } }',
        { token },
      );
      const posts = result.data?.posts ?? [];
      expect(posts.length).toBeGreaterThan(2);
      const others = posts.filter((post) => post.authorId !== viewer.id);
      expect(others.length).toBeGreaterThan(0);
      expect(others.length).toBeLessThan(posts.length);
      for (const [index, post] of posts.entries()) {
        if (post.authorId === viewer.id) expect(post.author).toEqual({ id: viewer.id, email: expect.stringContaining('@') as unknown });
        else {
          expect(post.author).toBeNull();
          expect(result.errors).toContainEqual(
            expect.objectContaining({
              path: ['posts', index, 'author', 'email'],
              extensions: expect.objectContaining({ code: 'FORBIDDEN', field: 'email' }) as unknown,
            }),
          );
        }
      }
      expect(result.errors?.length).toBe(others.length);
    }
  });

  it('leaves the field out of the REST answer: no key, no value, no refusal', async () => {
    const token = await server.token('viewer');
    const response = await fetch(`${server.url}/users/${other()}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['id', 'name', 'orgId']);
  });
});
