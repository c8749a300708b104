// Runs on: sqlite, postgresql
/**
 * Relations under scope (docs/behaviour.md §5.8): a relation to an entity the caller's role has no
 * grant on at all resolves as one to a row it may not read — a belongs_to is null, a has_many an
 * empty page — with no error, and the rest of the query resolves; over GraphQL over HTTP and over
 * graphql-ws. Real server process (the demo with one more role, test/fixtures/narrow-grants-server.ts),
 * on each database of the run.
 */
import { createClient, type FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mintToken } from '../../runtime/auth/authentication.js';
import { TEST_SECRET } from '../support/project.js';
import { startTestServer, type TestServer } from '../support/server.js';

const COMMENTS = '{ comments { id body post { id title } } }';
const ORGS = '{ orgs { id name users { edges { node { id name } } pageInfo { hasNextPage } } } }';

let server: TestServer;
let commenter: string;
let commentId: string;

/** Runs `query` over graphql-ws with `token` in `connection_init`. */
async function overSocket(query: string, token: string): Promise<FormattedExecutionResult<Record<string, unknown>, unknown>> {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: true,
    retryAttempts: 0,
  });
  try {
    return await new Promise<FormattedExecutionResult<Record<string, unknown>, unknown>>((resolve, reject) => {
      let result: FormattedExecutionResult<Record<string, unknown>, unknown> | undefined;
      client.subscribe(
        { query },
        { next: (value) => (result = value), error: reject, complete: () => (result ? resolve(result) : reject(new Error('no result'))) },
      );
    });
  } finally {
    await client.dispose();
  }
}

beforeAll(async () => {
  server = await startTestServer({ entry: 'test/fixtures/narrow-grants-server.ts' });
  const admin = await server.token('admin');
  const posts = (await (await server.fetch('/v2/posts', { token: admin })).json()) as { id: string }[];
  const created = await server.fetch('/v2/comments', {
    method: 'POST',
    token: admin,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ postId: posts[0]?.id, body: 'seen by a commenter' }),
  });
  expect(created.status).toBe(201);
  commentId = ((await created.json()) as { id: string }).id;
  const someone = server.user('viewer');
  commenter = await mintToken(TEST_SECRET, { sub: someone.id, org_id: someone.orgId, role: 'commenter' });
});
afterAll(async () => server?.stop());

describe('a relation to an entity the role has no grant on', () => {
  it('is null (belongs_to) or an empty page (has_many), with no error, over GraphQL over HTTP', async () => {
    const comments = await server.graphql(COMMENTS, { token: commenter });
    expect(comments.errors).toBeUndefined();
    expect(comments.data).toEqual({ comments: [{ id: commentId, body: 'seen by a commenter', post: null }] });
    const orgs = await server.graphql<{ orgs: { users: { edges: unknown[] } }[] }>(ORGS, { token: commenter });
    expect(orgs.errors).toBeUndefined();
    expect(orgs.data?.orgs).toHaveLength(1);
    expect(orgs.data?.orgs[0]?.users).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });

  it('is the same over graphql-ws', async () => {
    const comments = await overSocket(COMMENTS, commenter);
    expect(comments.errors).toBeUndefined();
    expect(comments.data).toEqual({ comments: [{ id: commentId, body: 'seen by a commenter', post: null }] });
    const orgs = await overSocket(ORGS, commenter);
    expect(orgs.errors).toBeUndefined();
    expect((orgs.data as { orgs: { users: unknown }[] }).orgs[0]?.users).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });

  it('still refuses the query itself when the role has no grant on its entity', async () => {
    const posts = await server.graphql('{ posts { id } }', { token: commenter });
    expect(posts.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
