// Runs on: sqlite, postgresql
/**
 * Keyset pagination as a property (RELIABILITY.md §3, docs/behaviour.md §8): for random page sizes (in and out of
 * range) and random writes landing between and during page requests, walking the cursors visits
 * every row that existed throughout the walk exactly once, in id order — over the REST list
 * (`x-next-cursor`), the GraphQL root list (last id as `after`) and a has_many connection
 * (`pageInfo.endCursor`).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testProvider } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SEED = PROPERTY_SEED;
// A walk costs about rows / first requests and every walk adds rows: a fifth of the cases, at most 100.
const RUNS = Math.min(100, Math.max(10, Math.floor(PROPERTY_RUNS / 5)));
const TIMEOUT = 60_000 + RUNS * 2_000;

/** Pages by one step: the ids of one page and the cursor of the next, if any. */
type Step = (first: number, after: string | undefined) => Promise<{ ids: string[]; next: string | undefined }>;

describe('walking the cursors under concurrent inserts', () => {
  let server: TestServer;
  let admin: string;
  let walks = 0;
  let pages = 0;
  let inserted = 0;
  beforeAll(async () => {
    server = await startTestServer({ seed: { orgs: 2, users: 4, posts: 12 } });
    admin = await server.token('admin');
  });
  afterAll(async () => {
    await server?.stop();
    reportFigures({ suite: `pagination (${testProvider()})`, seed: SEED, walks, pages, inserted });
  });

  const insertPost = async (): Promise<void> => {
    const response = await server.fetch('/v2/posts', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'written during a walk' }),
    });
    expect(response.status).toBe(201);
    inserted += 1;
  };
  const insertUser = async (): Promise<void> => {
    const response = await server.fetch('/users', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Joined during a walk',
        email: `walk-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      }),
    });
    expect(response.status).toBe(201);
    inserted += 1;
  };

  const restPosts: Step = async (first, after) => {
    const response = await server.fetch(`/v2/posts?first=${first}${after ? `&after=${after}` : ''}`, { token: admin });
    expect(response.status).toBe(200);
    return {
      ids: ((await response.json()) as { id: string }[]).map((post) => post.id),
      next: response.headers.get('x-next-cursor') ?? undefined,
    };
  };
  const graphqlUsers: Step = async (first, after) => {
    const answer = await server.graphql<{ users: { id: string }[] }>(
      'query ($first: Int, $after: String) { users(first: $first, after: $after) { id } }',
      { token: admin, variables: { first, after } },
    );
    expect(answer.errors).toBeUndefined();
    const ids = answer.data!.users.map((user) => user.id);
    // A root list has no page info: a full page may have more behind it.
    return { ids, next: ids.length === Math.min(Math.max(first, 1), 100) ? ids.at(-1) : undefined };
  };
  const connectionUsers: Step = async (first, after) => {
    const answer = await server.graphql<{
      orgs: {
        users: { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      }[];
    }>(
      'query ($first: Int, $after: String) { orgs { users(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }',
      { token: admin, variables: { first, after } },
    );
    expect(answer.errors).toBeUndefined();
    const connection = answer.data!.orgs[0]!.users;
    for (const edge of connection.edges) expect(edge.cursor).toBe(edge.node.id);
    return {
      ids: connection.edges.map((edge) => edge.node.id),
      next: connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? undefined) : undefined,
    };
  };

  async function walk(step: Step, first: number, writes: number[], insert: () => Promise<void>): Promise<{ visited: string[] }> {
    const visited: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10_000; page += 1) {
      // Writes race the first pages' requests (then stop, so a walk at first=1 still ends).
      const writesNow = writes[page] ?? 0;
      const racing = Array.from({ length: writesNow }, () => insert());
      const [result] = await Promise.all([step(first, after), ...racing]);
      pages += 1;
      visited.push(...result.ids);
      if (!result.next) break;
      after = result.next;
    }
    return { visited };
  }

  const cases: [string, Step, () => Promise<void>, () => Promise<string[]>][] = [
    ['REST /v2/posts', restPosts, () => insertPost(), async () => (await collect(restPosts)).sort()],
    ['GraphQL users', graphqlUsers, () => insertUser(), async () => (await collect(graphqlUsers)).sort()],
    ['GraphQL Org.users connection', connectionUsers, () => insertUser(), async () => (await collect(connectionUsers)).sort()],
  ];

  /** Every id the step reaches when nothing changes (the rows that exist now). */
  async function collect(step: Step): Promise<string[]> {
    const { visited } = await walk(step, 100, [0], () => Promise.resolve());
    return visited;
  }

  for (const [name, step, insert, snapshot] of cases) {
    it(
      `${name}: every row present throughout is visited once, in id order`,
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(fc.integer({ min: 1, max: 25 }), fc.constantFrom(0, -3, 101, 500)),
            fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
            async (first, writes) => {
              walks += 1;
              const before = await snapshot();
              const { visited } = await walk(step, first, writes, insert);
              const sorted = [...visited].sort();
              expect(visited, 'in id order, no repeats').toEqual(sorted);
              expect(new Set(visited).size).toBe(visited.length);
              const seen = new Set(visited);
              expect(
                before.filter((id) => !seen.has(id)),
                'rows present throughout but never visited',
              ).toEqual([]);
            },
          ),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      },
      TIMEOUT,
    );
  }
});
