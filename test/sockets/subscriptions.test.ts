// Runs on: sqlite, postgresql
/**
 * The publish flow (docs/behaviour.md §3, docs/decisions.md §2) over GraphQL and REST, and `postPublished` over the
 * graphql-ws protocol with the `graphql-ws` client on a real WebSocket (docs/behaviour.md §4.1): authentication
 * in `connection_init`, the gate at subscribe time, every item filtered by the subscriber's ability
 * and masked.
 */
import { type Client, createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mintToken } from '../../runtime/auth/authentication.js';
import { TEST_SECRET } from '../support/project.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 2, users: 4, posts: 2 } });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
});

afterAll(async () => {
  await server.stop();
});

const draftsOf = (role: Role, orgIndex = 0): string[] => {
  const author = server.user(role, orgIndex);
  return server.seeded.posts.filter((post) => post.authorId === author.id && post.status === 'draft').map((post) => post.id);
};
const publishedOf = (role: Role, orgIndex = 0): string[] => {
  const author = server.user(role, orgIndex);
  return server.seeded.posts.filter((post) => post.authorId === author.id && post.status === 'published').map((post) => post.id);
};

async function publish(
  id: string,
  token: string,
): Promise<{
  data?: { publishPost: { id: string; status: string; publishedAt: string } | null } | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}> {
  return server.graphql('mutation ($id: ID!) { publishPost(id: $id) { id status publishedAt } }', { token, variables: { id } });
}

function client(connectionParams: Record<string, unknown>): Client {
  const created = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    lazy: true,
    retryAttempts: 0,
  });
  clients.push(created);
  return created;
}

/** Subscribes and collects what arrives: items, errors, completion, or a close event. */
function listen(subscriber: Client, query: string): { items: unknown[]; errors: unknown[]; done: Promise<void>; ready: Promise<void> } {
  const items: unknown[] = [];
  const errors: unknown[] = [];
  let markDone = (): void => undefined;
  const done = new Promise<void>((resolve) => (markDone = resolve));
  subscriber.subscribe(
    { query },
    {
      next: (value) => (value.errors ? errors.push(...value.errors) : items.push(value.data)),
      error: (error) => {
        // A refusal before the subscription starts arrives as the protocol's array of errors.
        errors.push(...(Array.isArray(error) ? (error as unknown[]) : [error]));
        markDone();
      },
      complete: () => markDone(),
    },
  );
  // graphql-ws acknowledges the connection before the subscription starts; give it a moment.
  const ready = new Promise<void>((resolve) => setTimeout(resolve, 300));
  return { items, errors, done, ready };
}

const eventually = async (check: () => boolean, timeout = 3000): Promise<void> => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeout) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('publish (docs/behaviour.md §3)', () => {
  it('moves draft → published and sets publishedAt; twice is CONFLICT', async () => {
    const admin = await server.token('admin');
    const [id] = draftsOf('member');
    const before = Date.now();
    const first = await publish(id ?? '', admin);
    expect(first.errors).toBeUndefined();
    expect(first.data?.publishPost?.status).toBe('published');
    expect(Date.parse(first.data?.publishPost?.publishedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const again = await publish(id ?? '', admin);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.data).toEqual({ publishPost: null });
  });

  it('answers NOT_FOUND for an unknown id and for a post the caller may not read', async () => {
    const member = await server.token('member');
    expect((await publish('01900000-0000-7000-8000-000000000000', member)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const otherDraft = draftsOf('admin')[0] ?? '';
    expect((await publish(otherDraft, member)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const foreignDraft = draftsOf('member', 1)[0] ?? '';
    expect((await publish(foreignDraft, await server.token('admin'))).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('lets a member publish only their own drafts, an admin any in the org, a viewer none', async () => {
    const member = await server.token('member');
    expect((await publish(publishedOf('admin')[0] ?? '', member)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const own = draftsOf('member', 1)[0] ?? '';
    expect((await publish(own, await server.token('member', 1))).data?.publishPost?.status).toBe('published');
    expect((await publish(draftsOf('viewer')[0] ?? '', await server.token('viewer'))).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('is the same service method behind POST /v2/posts/:id/publish: 200, 409, 404, 403', async () => {
    const admin = await server.token('admin');
    const [draft] = draftsOf('admin');
    const post = (id: string, token: string): Promise<Response> => server.fetch(`/v2/posts/${id}/publish`, { method: 'POST', token });
    const published = await post(draft ?? '', admin);
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ id: draft, status: 'published' });
    expect((await post(draft ?? '', admin)).status).toBe(409);
    expect((await post('01900000-0000-7000-8000-000000000000', admin)).status).toBe(404);
    expect((await post(publishedOf('admin')[0] ?? '', await server.token('viewer'))).status).toBe(403);
  });
});

describe('postPublished over graphql-ws', () => {
  it("pushes a post published in the subscriber's org, with what the subscriber selected", async () => {
    const member = await server.token('member');
    const subscription = listen(
      client({ Authorization: `Bearer ${member}` }),
      'subscription { postPublished { id status title author { name } } }',
    );
    await subscription.ready;
    const [id] = draftsOf('viewer');
    await publish(id ?? '', await server.token('admin'));
    // On PostgreSQL a publish of an earlier test may reach this process after the subscription
    // started (LISTEN/NOTIFY): look for this post's item among what arrived.
    const ours = (): unknown[] => subscription.items.filter((item) => (item as { postPublished: { id: string } }).postPublished.id === id);
    await eventually(() => ours().length === 1);
    expect(ours()).toEqual([
      { postPublished: { id, status: 'published', title: expect.any(String), author: { name: server.user('viewer').name } } },
    ]);
    expect(subscription.errors).toEqual([]);
  });

  it("never delivers another org's post, and takes the token as authToken too", async () => {
    const foreign = listen(client({ authToken: await server.token('member', 1) }), 'subscription { postPublished { id orgId } }');
    const local = listen(client({ authToken: await server.token('viewer') }), 'subscription { postPublished { id orgId } }');
    await Promise.all([foreign.ready, local.ready]);
    const admin = await server.token('admin');
    const draft = server.seeded.posts.find(
      (post) =>
        post.status === 'draft' &&
        server.seeded.users.find((user) => user.id === post.authorId)?.orgId === server.seeded.orgs[0]?.id &&
        post.authorId === server.user('member').id,
    )?.id;
    // A fresh draft in org 0, published by its admin.
    const created = await server.graphql<{ createPost: { id: string } }>('mutation { createPost(input: { title: "Fresh news" }) { id } }', {
      token: admin,
    });
    const id = created.data?.createPost.id ?? draft ?? '';
    await publish(id, admin);
    const ours = (): unknown[] => local.items.filter((item) => (item as { postPublished: { id: string } }).postPublished.id === id);
    await eventually(() => ours().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Once, and only posts of the subscriber's org (an earlier test's publish may arrive late, as above).
    expect(ours()).toEqual([{ postPublished: { id, orgId: server.seeded.orgs[0]?.id } }]);
    expect(
      local.items.filter((item) => (item as { postPublished: { orgId: string } }).postPublished.orgId !== server.seeded.orgs[0]?.id),
    ).toEqual([]);
    expect(foreign.items).toEqual([]);
  });

  it("hands the subscriber's arguments to the method, which filters per subscriber: postPublished(authorId) sends one author's posts", async () => {
    const token = await server.token('admin');
    const author = server.user('member');
    const filtered = listen(client({ authToken: token }), `subscription { postPublished(authorId: "${author.id}") { id authorId } }`);
    const everyone = listen(client({ authToken: token }), 'subscription { postPublished { id authorId } }');
    await Promise.all([filtered.ready, everyone.ready]);
    const draftBy = async (role: Role): Promise<string> => {
      const created = await server.graphql<{ createPost: { id: string } }>('mutation { createPost(input: { title: "Argument" }) { id } }', {
        token: await server.token(role),
      });
      return created.data?.createPost.id ?? '';
    };
    const members = await draftBy('member');
    const admins = await draftBy('admin');
    await publish(admins, token);
    await publish(members, token);
    const ids = (items: unknown[]): string[] => items.map((item) => (item as { postPublished: { id: string } }).postPublished.id);
    await eventually(() => ids(everyone.items).includes(admins) && ids(everyone.items).includes(members));
    await eventually(() => ids(filtered.items).includes(members));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ids(filtered.items)).not.toContain(admins);
    expect(filtered.items.every((item) => (item as { postPublished: { authorId: string } }).postPublished.authorId === author.id)).toBe(
      true,
    );
    expect([filtered.errors, everyone.errors]).toEqual([[], []]);
  });

  it('gates at subscribe time: no token is UNAUTHENTICATED, a role without read on Post is FORBIDDEN', async () => {
    const anonymous = listen(client({}), 'subscription { postPublished { id } }');
    await anonymous.done;
    expect(anonymous.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
    const stranger = await mintToken(TEST_SECRET, {
      sub: server.user('member').id,
      org_id: server.seeded.orgs[0]?.id ?? '',
      role: 'guest',
    });
    const refused = listen(client({ Authorization: `Bearer ${stranger}` }), 'subscription { postPublished { id } }');
    await refused.done;
    expect(refused.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
  });

  it('refuses at subscribe time a selection the grant excludes (viewer: author.email)', async () => {
    const viewer = listen(
      client({ Authorization: `Bearer ${await server.token('viewer')}` }),
      'subscription { postPublished { id author { email } } }',
    );
    await viewer.done;
    expect(viewer.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'FORBIDDEN', field: 'email', requestId: expect.any(String) as unknown } }),
    ]);
  });

  it('closes the connection when the connection_init token does not verify', async () => {
    const bad = client({ Authorization: 'Bearer not-a-token' });
    const closed = await new Promise<{ code: number }>((resolve) => {
      bad.on('closed', (event) => resolve(event as { code: number }));
      bad.subscribe(
        { query: 'subscription { postPublished { id } }' },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    expect(closed.code).toBe(4403);
  });

  it('refuses an over-complex subscription before it starts', async () => {
    let selection = 'id';
    for (let level = 0; level < 12; level++) selection = `author { posts(first: 1) { edges { node { ${selection} } } } }`;
    const deep = listen(
      client({ Authorization: `Bearer ${await server.token('admin')}` }),
      `subscription { postPublished { ${selection} } }`,
    );
    await deep.done;
    expect(deep.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'DEPTH_LIMIT' }) })]);
  });
});
