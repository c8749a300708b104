// Runs on: sqlite, postgresql
/**
 * The demo's `Comment` resource over real HTTP (docs/behaviour.md §4.7): five operations declared by
 * `@Resource` alone, on REST (`/v2/comments`) and GraphQL, for two orgs and every role — row scope,
 * masking, mass assignment refused on both transports, a foreign row answered exactly like a
 * missing one, constraints from the column declaration, equality filters and keyset pages.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

interface CommentRow {
  readonly id: string;
  readonly orgId: string;
  readonly postId: string;
  readonly authorId: string;
  readonly body: string;
  readonly createdAt: string;
}

const MISSING = '01900000-0000-7000-8000-00000000beef';
const json = { 'content-type': 'application/json' };

let server: TestServer;
/** A published post of each org, which every role of that org reads. */
const postOf: string[] = [];

async function rest(
  method: string,
  pathname: string,
  role: Role,
  org = 0,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await server.fetch(pathname, {
    method,
    token: await server.token(role, org),
    headers: json,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
}

async function create(role: Role, org: number, body: string): Promise<CommentRow> {
  const created = await rest('POST', '/v2/comments', role, org, { postId: postOf[org], body });
  expect(created.status).toBe(201);
  return created.body as CommentRow;
}

/**
 * The answer without the id it names, so a foreign row's and a missing row's can be compared; and
 * without the request's own id (every request has its own, docs/behaviour.md §12.1).
 */
const anonymous = (answer: { status: number; body: unknown }, id: string): unknown => ({
  status: answer.status,
  body: JSON.parse(
    JSON.stringify(answer.body, (key, value: unknown) => (key === 'requestId' ? undefined : value)).replaceAll(id, '<id>'),
  ) as unknown,
});

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 2, users: 3, posts: 2 } });
  for (const org of [0, 1]) {
    const posts = await server.graphql<{ posts: { id: string; status: string }[] }>('{ posts(first: 100) { id status } }', {
      token: await server.token('admin', org),
    });
    const published = posts.data?.posts.find((post) => post.status === 'published');
    if (!published) throw new Error(`org ${org} has no published post`);
    postOf.push(published.id);
  }
});
afterAll(async () => server?.stop());

describe('create (POST /v2/comments, createComment)', () => {
  it("sets the org and the author from the caller's grant, on both transports", async () => {
    const member = server.user('member', 1);
    const row = await create('member', 1, 'first!');
    expect(row).toMatchObject({ orgId: member.orgId, authorId: member.id, postId: postOf[1], body: 'first!' });
    expect(Date.parse(row.createdAt)).not.toBeNaN();

    const result = await server.graphql<{ createComment: CommentRow }>(
      'mutation($input: CreateCommentInput!) { createComment(input: $input) { id orgId authorId body } }',
      {
        token: await server.token('admin', 0),
        variables: { input: { postId: postOf[0], body: 'from GraphQL' } },
      },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.createComment).toMatchObject({
      orgId: server.user('admin', 0).orgId,
      authorId: server.user('admin', 0).id,
      body: 'from GraphQL',
    });
  });

  it('refuses an org or author in the input with FORBIDDEN naming the field, and writes nothing', async () => {
    const before = (await rest('GET', '/v2/comments?first=100', 'admin', 1)).body as CommentRow[];
    const foreignOrg = server.user('admin', 0).orgId;
    for (const [field, value] of [
      ['orgId', foreignOrg],
      ['authorId', server.user('admin', 1).id],
    ] as const) {
      const answer = await rest('POST', '/v2/comments', 'member', 1, { postId: postOf[1], body: 'sneaky', [field]: value });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', field });
      expect((answer.body as { detail: string }).detail).toContain(`Comment.${field}`);

      const result = await server.graphql('mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }', {
        token: await server.token('member', 1),
        variables: { input: { postId: postOf[1], body: 'sneaky', [field]: value } },
      });
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field });
    }
    expect((await rest('GET', '/v2/comments?first=100', 'admin', 1)).body).toEqual(before);
  });

  it('checks the column constraints: body of 1..2000 characters, BAD_USER_INPUT on both transports', async () => {
    for (const body of ['', 'x'.repeat(2001)]) {
      const answer = await rest('POST', '/v2/comments', 'member', 0, { postId: postOf[0], body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(JSON.stringify(answer.body)).toContain('body');
      const result = await server.graphql('mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }', {
        token: await server.token('member', 0),
        variables: { input: { postId: postOf[0], body } },
      });
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect((await rest('POST', '/v2/comments', 'member', 0, { postId: postOf[0], body: 'x'.repeat(2000) })).status).toBe(201);
  });

  it('names a missing required value and a key that is no column', async () => {
    const missing = await rest('POST', '/v2/comments', 'member', 0, { body: 'no post' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('postId');
    const notKey = await rest('POST', '/v2/comments', 'member', 0, { postId: 'not-a-uuid', body: 'ok' });
    expect(notKey.status).toBe(400);
    expect(JSON.stringify(notKey.body)).toContain('postId');
    const unknown = await rest('POST', '/v2/comments', 'member', 0, { postId: postOf[0], body: 'ok', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('colour');
  });

  it('is refused to a viewer (no create grant): 403 and FORBIDDEN', async () => {
    expect((await rest('POST', '/v2/comments', 'viewer', 0, { postId: postOf[0], body: 'hi' })).status).toBe(403);
    const result = await server.graphql('mutation($postId: ID!) { createComment(input: { postId: $postId, body: "hi" }) { id } }', {
      token: await server.token('viewer', 0),
      variables: { postId: postOf[0] },
    });
    expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('list and get (GET /v2/comments[/:id], comments, comment)', () => {
  it("shows every role only its own org's comments, a keyset page at a time, filtered by postId", async () => {
    const mine = await create('member', 0, 'page me');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      for (const org of [0, 1]) {
        const rows = (await rest('GET', '/v2/comments?first=100', role, org)).body as CommentRow[];
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((row) => row.orgId === server.user(role, org).orgId)).toBe(true);
        const graph = await server.graphql<{ comments: { id: string }[] }>('{ comments(first: 100) { id } }', {
          token: await server.token(role, org),
        });
        expect(graph.data?.comments.map((row) => row.id)).toEqual(rows.map((row) => row.id));
      }
    }
    // Pages of one, following x-next-cursor, visit the same rows in the same order.
    const all = ((await rest('GET', '/v2/comments?first=100', 'admin', 0)).body as CommentRow[]).map((row) => row.id);
    const walked: string[] = [];
    let after: string | null = '';
    while (after !== null) {
      const page = await rest('GET', `/v2/comments?first=1${after ? `&after=${after}` : ''}`, 'admin', 0);
      walked.push(...(page.body as CommentRow[]).map((row) => row.id));
      after = page.headers.get('x-next-cursor');
    }
    expect(walked).toEqual(all);
    const filtered = (await rest('GET', `/v2/comments?postId=${postOf[0]}`, 'admin', 0)).body as CommentRow[];
    expect(filtered.map((row) => row.id)).toContain(mine.id);
    expect(filtered.every((row) => row.postId === postOf[0])).toBe(true);
    expect((await rest('GET', `/v2/comments?postId=${MISSING}`, 'admin', 0)).body).toEqual([]);
    const graph = await server.graphql<{ comments: { postId: string }[] }>(`{ comments(postId: "${MISSING}") { postId } }`, {
      token: await server.token('admin', 0),
    });
    expect(graph.data?.comments).toEqual([]);
    expect((await rest('GET', '/v2/comments?postId=a&postId=b', 'admin', 0)).status).toBe(400);
    // A key that is no UUID matches nothing (PostgreSQL's uuid column would refuse the statement).
    expect(await rest('GET', '/v2/comments?postId=not-a-uuid', 'admin', 0)).toMatchObject({ status: 200, body: [] });
    expect(
      (await server.graphql<{ comments: unknown[] }>('{ comments(postId: "d\\\\ ^") { id } }', { token: await server.token('admin', 0) }))
        .data?.comments,
    ).toEqual([]);
  });

  it("masks what the viewer's grant leaves out: no authorId on REST; FORBIDDEN naming it on GraphQL", async () => {
    const rows = (await rest('GET', '/v2/comments', 'viewer', 0)).body as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['body', 'createdAt', 'id', 'orgId', 'postId']);
    const allowed = await server.graphql<{ comments: { body: string }[] }>('{ comments { id body post { id } } }', {
      token: await server.token('viewer', 0),
    });
    expect(allowed.errors).toBeUndefined();
    const masked = await server.graphql('{ comments { id authorId } }', { token: await server.token('viewer', 0) });
    expect(masked.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'authorId' });
  });

  it("answers another org's comment exactly as a missing one: 404 / NOT_FOUND", async () => {
    const foreign = await create('admin', 1, 'not yours');
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const hidden = await rest('GET', `/v2/comments/${foreign.id}`, role, 0);
      const missing = await rest('GET', `/v2/comments/${MISSING}`, role, 0);
      expect(hidden.status).toBe(404);
      expect(anonymous(hidden, foreign.id)).toEqual(anonymous(missing, MISSING));
      const graphHidden = await server.graphql(`{ comment(id: "${foreign.id}") { id } }`, { token: await server.token(role, 0) });
      const graphMissing = await server.graphql(`{ comment(id: "${MISSING}") { id } }`, { token: await server.token(role, 0) });
      expect(graphHidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(anonymous({ status: graphHidden.status, body: graphHidden }, foreign.id)).toEqual(
        anonymous({ status: graphMissing.status, body: graphMissing }, MISSING),
      );
    }
    expect((await rest('GET', `/v2/comments/${foreign.id}`, 'member', 1)).status).toBe(200);
    expect((await rest('GET', '/v2/comments/not-a-uuid', 'member', 1)).status).toBe(404);
  });

  it('is read as its post is (a relation condition in the grant): a comment on a draft is seen by who may open the draft, on every read path', async () => {
    // A draft of the admin's, which the member and the viewer may not open, and one of the member's own.
    const draftOf = async (role: Role): Promise<string> => {
      const created = await server.graphql<{ createPost: { id: string } }>(
        'mutation { createPost(input: { title: "Draft", body: "" }) { id } }',
        {
          token: await server.token(role, 0),
        },
      );
      const id = created.data?.createPost.id;
      if (!id) throw new Error(`no draft: ${JSON.stringify(created)}`);
      return id;
    };
    const adminsDraft = await draftOf('admin');
    const membersDraft = await draftOf('member');
    const commentOn = async (postId: string, role: Role): Promise<CommentRow> => {
      const created = await rest('POST', '/v2/comments', role, 0, { postId, body: `on ${postId}` });
      expect(created.status).toBe(201);
      return created.body as CommentRow;
    };
    const onAdminsDraft = await commentOn(adminsDraft, 'admin');
    const onMembersDraft = await commentOn(membersDraft, 'member');
    const sees: Record<Role, readonly [CommentRow, boolean][]> = {
      admin: [
        [onAdminsDraft, true],
        [onMembersDraft, true],
      ],
      member: [
        [onAdminsDraft, false],
        [onMembersDraft, true],
      ],
      viewer: [
        [onAdminsDraft, false],
        [onMembersDraft, false],
      ],
    };
    for (const [role, cases] of Object.entries(sees) as [Role, readonly [CommentRow, boolean][]][]) {
      const token = await server.token(role, 0);
      const listed = ((await rest('GET', '/v2/comments?first=100', role, 0)).body as CommentRow[]).map((row) => row.id);
      const graph = await server.graphql<{ comments: { id: string }[] }>('{ comments(first: 100) { id } }', { token });
      for (const [comment, visible] of cases) {
        const label = `${role} on comment ${comment.body}`;
        expect(listed.includes(comment.id), label).toBe(visible);
        expect(
          graph.data?.comments.some((row) => row.id === comment.id),
          label,
        ).toBe(visible);
        const one = await rest('GET', `/v2/comments/${comment.id}`, role, 0);
        expect(one.status, label).toBe(visible ? 200 : 404);
        // Unreadable, it is answered exactly as a missing comment: the draft's existence does not show.
        if (!visible)
          expect(anonymous(one, comment.id), label).toEqual(anonymous(await rest('GET', `/v2/comments/${MISSING}`, role, 0), MISSING));
        const byGraph = await server.graphql<{ comment: { id: string } | null }>(`{ comment(id: "${comment.id}") { id } }`, { token });
        expect(byGraph.data?.comment?.id ?? byGraph.errors?.[0]?.extensions?.code, label).toBe(visible ? comment.id : 'NOT_FOUND');
      }
    }
    // The viewer's grant names fields and a relation condition at once: still masked on every row it reads.
    const viewerRows = (await rest('GET', '/v2/comments?first=100', 'viewer', 0)).body as Record<string, unknown>[];
    expect(viewerRows.length).toBeGreaterThan(0);
    for (const row of viewerRows) expect(Object.keys(row).sort()).toEqual(['body', 'createdAt', 'id', 'orgId', 'postId']);
  });

  it('is not served under version 1 and not without a token', async () => {
    expect((await rest('GET', '/v1/comments', 'admin', 0)).status).toBe(404);
    expect((await server.fetch('/v2/comments')).status).toBe(401);
  });
});

describe('update (PATCH /v2/comments/:id, updateComment)', () => {
  it('lets the author change the body, and nothing else', async () => {
    const row = await create('member', 0, 'typo');
    const changed = await rest('PATCH', `/v2/comments/${row.id}`, 'member', 0, { body: 'fixed' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: row.id, body: 'fixed', authorId: row.authorId });
    const viaGraph = await server.graphql<{ updateComment: { body: string } }>(
      `mutation { updateComment(id: "${row.id}", input: { body: "fixed again" }) { body } }`,
      { token: await server.token('member', 0) },
    );
    expect(viaGraph.data?.updateComment.body).toBe('fixed again');

    for (const [field, value] of [
      ['postId', postOf[1]],
      ['authorId', server.user('admin', 0).id],
      ['orgId', server.user('admin', 1).orgId],
    ] as const) {
      const answer = await rest('PATCH', `/v2/comments/${row.id}`, 'member', 0, { [field]: value });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', field });
      const result = await server.graphql(
        `mutation($input: UpdateCommentInput!) { updateComment(id: "${row.id}", input: $input) { id } }`,
        { token: await server.token('member', 0), variables: { input: { [field]: value } } },
      );
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field });
    }
    expect((await rest('GET', `/v2/comments/${row.id}`, 'member', 0)).body).toMatchObject({
      body: 'fixed again',
      postId: postOf[0],
      orgId: row.orgId,
      authorId: row.authorId,
    });
  });

  it("refuses a member another author's comment it can read (FORBIDDEN), and another org's as missing (404)", async () => {
    const admins = await create('admin', 0, 'by the admin');
    const readable = await rest('PATCH', `/v2/comments/${admins.id}`, 'member', 0, { body: 'hijack' });
    expect(readable.status).toBe(403);
    const foreign = await create('admin', 1, 'elsewhere');
    const hidden = await rest('PATCH', `/v2/comments/${foreign.id}`, 'admin', 0, { body: 'hijack' });
    const missing = await rest('PATCH', `/v2/comments/${MISSING}`, 'admin', 0, { body: 'hijack' });
    expect(hidden.status).toBe(404);
    expect(anonymous(hidden, foreign.id)).toEqual(anonymous(missing, MISSING));
    expect((await rest('GET', `/v2/comments/${admins.id}`, 'admin', 0)).body).toMatchObject({ body: 'by the admin' });
    expect((await rest('GET', `/v2/comments/${foreign.id}`, 'admin', 1)).body).toMatchObject({ body: 'elsewhere' });
    expect((await rest('PATCH', `/v2/comments/${admins.id}`, 'admin', 0, { body: 'x'.repeat(2001) })).status).toBe(400);
    expect((await rest('PATCH', `/v2/comments/${admins.id}`, 'viewer', 0, { body: 'no' })).status).toBe(403);
  });
});

describe('delete (DELETE /v2/comments/:id, deleteComment)', () => {
  it("deletes the caller's own comment: 204, then 404", async () => {
    const row = await create('member', 0, 'regret');
    expect((await rest('DELETE', `/v2/comments/${row.id}`, 'member', 0)).status).toBe(204);
    expect((await rest('GET', `/v2/comments/${row.id}`, 'member', 0)).status).toBe(404);
    const again = await create('member', 0, 'regret again');
    const result = await server.graphql<{ deleteComment: boolean }>(`mutation { deleteComment(id: "${again.id}") }`, {
      token: await server.token('member', 0),
    });
    expect(result.data?.deleteComment).toBe(true);
  });

  it("changes nothing for another org's comment (404 like a missing one) or another author's (member: 403, as its update)", async () => {
    const foreign = await create('member', 1, 'keep me');
    const hidden = await rest('DELETE', `/v2/comments/${foreign.id}`, 'admin', 0);
    const missing = await rest('DELETE', `/v2/comments/${MISSING}`, 'admin', 0);
    expect(hidden.status).toBe(404);
    expect(anonymous(hidden, foreign.id)).toEqual(anonymous(missing, MISSING));
    const graph = await server.graphql(`mutation { deleteComment(id: "${foreign.id}") }`, { token: await server.token('admin', 0) });
    expect(graph.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const admins = await create('admin', 1, 'the admin keeps this');
    expect((await rest('DELETE', `/v2/comments/${admins.id}`, 'member', 1)).status).toBe(403);
    expect((await rest('DELETE', `/v2/comments/${admins.id}`, 'viewer', 1)).status).toBe(403);
    expect((await rest('GET', `/v2/comments/${foreign.id}`, 'member', 1)).status).toBe(200);
    expect((await rest('GET', `/v2/comments/${admins.id}`, 'member', 1)).status).toBe(200);
  });
});

describe('mass assignment, as a property over generated bodies (docs/hostile-input.md)', () => {
  const keys = fc.constantFrom(
    'orgId',
    'authorId',
    'postId',
    'body',
    'id',
    'createdAt',
    '__proto__',
    'constructor',
    'toString',
    'post',
    'Body',
    '',
  );
  const values = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(MISSING, 'x'.repeat(2001)),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
  );
  const bodies = fc.oneof(fc.dictionary(keys, values, { maxKeys: 5 }), values);

  it("a create answers 201, 400 or 403 — never 500 — and a created row is always the caller's, in its org", async () => {
    const member = server.user('member', 0);
    const token = await server.token('member', 0);
    let created = 0;
    await fc.assert(
      fc.asyncProperty(bodies, fc.boolean(), async (generated, valid) => {
        // Half the bodies start from a valid one, so the generated keys are judged on their own.
        const body =
          valid && typeof generated === 'object' && generated !== null && !Array.isArray(generated)
            ? { postId: postOf[0], body: 'generated', ...generated }
            : generated;
        const response = await server.fetch('/v2/comments', { method: 'POST', token, headers: json, body: JSON.stringify(body) });
        expect([201, 400, 403]).toContain(response.status);
        const answer = (await response.json()) as CommentRow & { code?: string };
        if (response.status !== 201) return;
        created += 1;
        expect(answer).toMatchObject({ orgId: member.orgId, authorId: member.id, postId: postOf[0] });
      }),
      { numRuns: PROPERTY_RUNS, seed: PROPERTY_SEED },
    );
    expect(created).toBeGreaterThan(0);
  });

  it('an update answers 200, 400 or 403 and never moves the row: org, author and post stay', async () => {
    const row = await create('member', 0, 'hold still');
    const token = await server.token('member', 0);
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await server.fetch(`/v2/comments/${row.id}`, {
          method: 'PATCH',
          token,
          headers: json,
          body: JSON.stringify(body),
        });
        expect([200, 400, 403]).toContain(response.status);
        const stored = (await rest('GET', `/v2/comments/${row.id}`, 'member', 0)).body as CommentRow;
        expect(stored).toMatchObject({ orgId: row.orgId, authorId: row.authorId, postId: row.postId });
      }),
      { numRuns: PROPERTY_RUNS, seed: PROPERTY_SEED },
    );
  });
});
