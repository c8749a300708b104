// Runs on: sqlite, postgresql
/**
 * Object-level authorization as a property (RELIABILITY.md §2, docs/decisions.md §3, OWASP API1): random orgs,
 * users of every role and posts in both states; random principals (every seeded user, tokens
 * naming an org that does not exist, an unknown role) and random reads over REST lists, REST
 * lookups, GraphQL lists, nested relations and lookups, and subscriptions. No answer may carry a
 * row of another org, a draft the caller may not read, or a field the grant excludes; every
 * refusal uses the documented code. Rows are checked against the seed, not against what the
 * answer claims about them.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mintToken } from '../../runtime/auth/authentication.js';
import { testProvider } from '../support/database.js';
import { TEST_SECRET } from '../support/project.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SEED = PROPERTY_SEED;
const RUNS = PROPERTY_RUNS;
const TIMEOUT = 60_000 + RUNS * 400;

/** The seed's sizes, drawn once from the seed: 2–4 orgs, 3–6 users each (every role), 2–4 posts per user. */
const [SIZES] = fc.sample(
  fc.record({ orgs: fc.integer({ min: 2, max: 4 }), users: fc.integer({ min: 3, max: 6 }), posts: fc.integer({ min: 2, max: 4 }) }),
  { seed: SEED, numRuns: 1 },
);

interface Principal {
  readonly label: string;
  readonly sub: string;
  readonly orgId: string;
  readonly role: string;
  /** The org exists and the role is one the grants know. */
  readonly grounded: boolean;
}

interface Truth {
  readonly orgOfUser: Map<string, string>;
  readonly post: Map<string, { orgId: string; authorId: string; status: 'draft' | 'published' }>;
  readonly orgs: Set<string>;
}

type Kind = 'User' | 'Post' | 'Org';

/**
 * Every violation of the grants in one answer: rows as `{ kind, row }` found anywhere in it.
 * `unmasked` holds rows a public operation returned: public is deliberately ungated (docs/behaviour.md §1,
 * §5.7), so their fields are not masked, but they must still be of the caller's org.
 */
function violations(
  principal: Principal,
  truth: Truth,
  rows: { kind: Kind; row: Record<string, unknown> }[],
  unmasked: ReadonlySet<object> = new Set(),
): string[] {
  const found: string[] = [];
  for (const { kind, row } of rows) {
    const id = String(row.id);
    const where = `${principal.label} got ${kind} ${id}`;
    if (!principal.grounded) {
      found.push(`${where}, though its token names no real org or role`);
      continue;
    }
    if (kind === 'Org' && id !== principal.orgId) found.push(`${where}: another org`);
    if (kind === 'User') {
      const org = truth.orgOfUser.get(id);
      if (org !== principal.orgId) found.push(`${where} of org ${org}: another org`);
      if ('email' in row && principal.role === 'viewer' && !unmasked.has(row))
        found.push(`${where} with email, which a viewer's grant excludes`);
    }
    if (kind === 'Post') {
      const post = truth.post.get(id);
      if (!post) continue; // created during the run by this principal's org (checked by orgId below)
      if (post.orgId !== principal.orgId) found.push(`${where} of org ${post.orgId}: another org`);
      if (post.status === 'draft' && principal.role === 'viewer') found.push(`${where}: a draft, which a viewer may not read`);
      if (post.status === 'draft' && principal.role === 'member' && post.authorId !== principal.sub)
        found.push(`${where}: another member's draft`);
    }
    if ('orgId' in row && row.orgId !== principal.orgId) found.push(`${where} claiming org ${String(row.orgId)}`);
  }
  return found;
}

/** Rows of a GraphQL answer: every object carrying `__typename` and `id`. */
function graphqlRows(
  value: unknown,
  into: { kind: Kind; row: Record<string, unknown> }[] = [],
): { kind: Kind; row: Record<string, unknown> }[] {
  if (Array.isArray(value)) for (const item of value) graphqlRows(item, into);
  else if (value && typeof value === 'object') {
    const row = value as Record<string, unknown>;
    if (typeof row.__typename === 'string' && ['User', 'Post', 'Org'].includes(row.__typename) && typeof row.id === 'string')
      into.push({ kind: row.__typename as Kind, row });
    for (const child of Object.values(row)) graphqlRows(child, into);
  }
  return into;
}

const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'COMPLEXITY_LIMIT']);

describe('authorization as a property', () => {
  let server: TestServer;
  let truth: Truth;
  let principals: Principal[];
  let tokens: Map<string, string>;
  let ids: { users: string[]; posts: string[]; orgs: string[] };
  const tally = { requests: 0, rows: 0, refusals: 0, principals: 0, deliveries: 0 };

  beforeAll(async () => {
    server = await startTestServer({ seed: SIZES! });
    const { seeded } = server;
    const orgOfUser = new Map(seeded.users.map((user) => [user.id, user.orgId]));
    truth = {
      orgOfUser,
      post: new Map(
        seeded.posts.map((post) => [post.id, { orgId: orgOfUser.get(post.authorId)!, authorId: post.authorId, status: post.status }]),
      ),
      orgs: new Set(seeded.orgs.map((org) => org.id)),
    };
    principals = seeded.users.map((user) => ({
      label: `${user.role} ${user.id} of org ${user.orgId}`,
      sub: user.id,
      orgId: user.orgId,
      role: user.role,
      grounded: true,
    }));
    for (const role of ['admin', 'member', 'viewer'])
      principals.push({ label: `${role} of a nonexistent org`, sub: randomUUID(), orgId: randomUUID(), role, grounded: false });
    principals.push({
      label: 'a seeded user with an unknown role',
      sub: seeded.users[0]!.id,
      orgId: seeded.users[0]!.orgId,
      role: 'owner',
      grounded: false,
    });
    tokens = new Map(
      await Promise.all(
        principals.map(
          async (principal) =>
            [principal.label, await mintToken(TEST_SECRET, { sub: principal.sub, org_id: principal.orgId, role: principal.role })] as const,
        ),
      ),
    );
    ids = {
      users: seeded.users.map((user) => user.id),
      posts: seeded.posts.map((post) => post.id),
      orgs: seeded.orgs.map((org) => org.id),
    };
    tally.principals = principals.length;
  });
  afterAll(async () => {
    await server?.stop();
    reportFigures({ suite: `authorization (${testProvider()})`, seed: SEED, sizes: SIZES, ...tally });
  });

  const principal = (): fc.Arbitrary<Principal> => fc.nat().map((index) => principals[index % principals.length]!);

  it(
    'REST lists and lookups never show another org, a hidden draft or an excluded field',
    async () => {
      const route = fc.oneof(
        fc.tuple(fc.constantFrom('/v1/posts', '/v2/posts', '/users'), fc.option(fc.integer({ min: 1, max: 100 }))).map(([path, first]) => ({
          path: first ? `${path}?first=${first}` : path,
          kind: path === '/users' ? ('User' as const) : ('Post' as const),
          list: true,
        })),
        fc.constant({ path: '/orgs', kind: 'Org' as const, list: true }),
        fc.nat().map((index) => ({ path: `/users/${ids.users[index % ids.users.length]}`, kind: 'User' as const, list: false })),
        fc.nat().map((index) => ({ path: `/v2/posts/${ids.posts[index % ids.posts.length]}`, kind: 'Post' as const, list: false })),
      );
      await fc.assert(
        fc.asyncProperty(principal(), route, async (who, { path, kind, list }) => {
          tally.requests += 1;
          const response = await server.fetch(path, { token: tokens.get(who.label) });
          const body = (await response.json()) as Record<string, unknown> | Record<string, unknown>[];
          if (response.status !== 200) {
            tally.refusals += 1;
            expect([401, 403, 404], `${who.label} ${path}`).toContain(response.status);
            expect((body as { code: string }).code).toBe({ 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[response.status]);
            return;
          }
          const rows = (list ? (body as Record<string, unknown>[]) : [body as Record<string, unknown>]).map((row) => ({ kind, row }));
          tally.rows += rows.length;
          expect(violations(who, truth, rows), path).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    TIMEOUT,
  );

  it(
    'GraphQL lists, lookups and nested relations never show another org, a hidden draft or an excluded field',
    async () => {
      const userFields = fc.subarray(['name', 'email', 'orgId'], { minLength: 0 });
      const page = fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }).map((first) => (first ? `(first: ${first})` : ''));
      const postSelection = fc
        .tuple(fc.boolean(), userFields)
        .map(
          ([withAuthor, fields]) =>
            `__typename id orgId authorId status title${withAuthor ? ` author { __typename id ${fields.join(' ')} org { __typename id } }` : ''}`,
        );
      const userSelection = fc
        .tuple(userFields, page, postSelection, fc.boolean())
        .map(
          ([fields, first, posts, nested]) =>
            `__typename id ${fields.join(' ')} org { __typename id name }${nested ? ` posts${first} { edges { node { ${posts} } } } reviews { edges { node { __typename id status } } }` : ''}`,
        );
      const query = fc.oneof(
        fc.tuple(page, userSelection).map(([first, selection]) => `{ users${first} { ${selection} } }`),
        fc.tuple(page, postSelection).map(([first, selection]) => `{ posts${first} { ${selection} } }`),
        fc
          .tuple(page, userSelection)
          .map(
            ([first, selection]) =>
              `{ orgs { __typename id name users${first} { edges { cursor node { ${selection} } } pageInfo { hasNextPage } } } }`,
          ),
        fc
          .tuple(fc.nat(), userSelection)
          .map(([index, selection]) => `{ user(id: "${ids.users[index % ids.users.length]}") { ${selection} } }`),
        fc
          .tuple(fc.nat(), postSelection)
          .map(([index, selection]) => `{ post(id: "${ids.posts[index % ids.posts.length]}") { ${selection} } }`),
        fc
          .tuple(page, postSelection)
          .map(([first, selection]) => `{ searchPosts(term: "by"${first ? `, first: ${first.slice(8, -1)}` : ''}) { ${selection} } }`),
        userSelection.map((selection) => `{ me { ${selection} } }`),
      );
      await fc.assert(
        fc.asyncProperty(principal(), query, async (who, document) => {
          tally.requests += 1;
          const answer = await server.graphql(document, { token: tokens.get(who.label) });
          expect(answer.status, document).toBe(200);
          for (const error of answer.errors ?? []) {
            tally.refusals += 1;
            expect(REFUSALS, `${who.label} ${document}: ${JSON.stringify(error)}`).toContain(error.extensions?.code);
            if (error.extensions?.code === 'FORBIDDEN' && error.extensions.field !== undefined)
              expect(error.extensions.field).toBe('email');
          }
          const rows = graphqlRows(answer.data);
          tally.rows += rows.length;
          const me = (answer.data as { me?: object | null } | null | undefined)?.me;
          expect(violations(who, truth, rows, new Set(me ? [me] : [])), document).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    TIMEOUT,
  );

  it('a viewer asking for email is refused FORBIDDEN naming the field, everywhere', async () => {
    const viewer = principals.find((candidate) => candidate.role === 'viewer' && candidate.grounded)!;
    for (const document of [
      '{ users { id email } }',
      '{ orgs { users { edges { node { email } } } } }',
      '{ posts { author { email } } }',
      '{ me { posts { edges { node { author { email } } } } } }',
    ]) {
      const answer = await server.graphql(document, { token: tokens.get(viewer.label) });
      expect(answer.errors?.[0]?.extensions, document).toMatchObject({ code: 'FORBIDDEN', field: 'email' });
      expect(JSON.stringify(answer.data ?? null)).not.toContain('@');
    }
  });

  it(
    'subscribers receive exactly the published posts of their own org, masked to their grant',
    async () => {
      const subscribers = principals.filter((candidate) => candidate.role !== 'owner');
      const received = new Map<string, Record<string, unknown>[]>();
      const clients: Client[] = [];
      const ready: Promise<void>[] = [];
      for (const subscriber of subscribers) {
        received.set(subscriber.label, []);
        const client = createClient({
          url: `${server.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams: { authToken: tokens.get(subscriber.label) },
          retryAttempts: 0,
        });
        clients.push(client);
        const email = subscriber.role === 'viewer' ? '' : ' email';
        ready.push(
          new Promise((resolve) => {
            client.on('connected', () => setTimeout(resolve, 300));
            client.subscribe<{ postPublished: Record<string, unknown> }>(
              { query: `subscription { postPublished { __typename id orgId authorId status author { __typename id orgId${email} } } }` },
              {
                next: (message) => {
                  if (message.errors) for (const error of message.errors) expect(REFUSALS).toContain(error.extensions?.code);
                  if (message.data) received.get(subscriber.label)!.push(message.data.postPublished);
                },
                error: () => resolve(),
                complete: () => resolve(),
              },
            );
          }),
        );
      }
      await Promise.all(ready);

      // Random authors (admins and members of random orgs) write and publish posts.
      const writers = server.seeded.users.filter((user) => user.role !== 'viewer');
      const picks = fc.sample(fc.nat({ max: writers.length - 1 }), { seed: SEED, numRuns: Math.min(40, RUNS) });
      const publishedByOrg = new Map<string, string[]>();
      for (const pick of picks) {
        const author = writers[pick]!;
        const token = await server.tokenFor(author);
        const created = await server.fetch('/v2/posts', {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `published by ${author.role}` }),
        });
        const { id } = (await created.json()) as { id: string };
        truth.post.set(id, { orgId: author.orgId, authorId: author.id, status: 'published' });
        expect((await server.fetch(`/v2/posts/${id}/publish`, { method: 'POST', token })).status).toBe(200);
        publishedByOrg.set(author.orgId, [...(publishedByOrg.get(author.orgId) ?? []), id]);
      }

      for (const subscriber of subscribers) {
        const expected = subscriber.grounded ? (publishedByOrg.get(subscriber.orgId) ?? []) : [];
        await expect.poll(() => received.get(subscriber.label)!.length, { timeout: 10_000 }).toBe(expected.length);
        const items = received.get(subscriber.label)!;
        tally.deliveries += items.length;
        expect(items.map((item) => item.id)).toEqual(expected);
        expect(violations(subscriber, truth, graphqlRows(items))).toEqual([]);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const subscriber of subscribers)
        expect(received.get(subscriber.label)!.length, subscriber.label).toBe(
          subscriber.grounded ? (publishedByOrg.get(subscriber.orgId) ?? []).length : 0,
        );
      await Promise.all(clients.map(async (client) => client.dispose()));
    },
    TIMEOUT,
  );
});
