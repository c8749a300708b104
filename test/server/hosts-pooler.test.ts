// Runs on: postgresql
/**
 * Two application hosts behind HAProxy whose servers reach PostgreSQL through PgBouncer in
 * transaction mode (`APP_DATABASE__URL`) and directly for what needs a session of its own
 * (`APP_DATABASE__DIRECT_URL`: LISTEN/NOTIFY, pg-boss, schedule tick claims) — docs/guide/deployment.md
 * "A connection pooler". REST reads and writes, nested GraphQL, a subscription delivered across
 * hosts, a job run once per publish and a scheduled task once per tick all work, and the
 * application's statements are seen arriving through the pooler (PgBouncer's console lists the
 * hosts as its clients; PostgreSQL sees the application's queries from the pooler's address and
 * only session work from the hosts'). Test bed: test/support/hosts.ts. Skipped with one line where
 * namespaces cannot be made, unless `REQUIRE_HOSTS=1`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { type BedAnswer, queryOnce, readDigestTicks, subscribeThrough, through } from '../support/bed-clients.js';
import { type HostBed, hostsRequired, hostsUnavailable, startHostBed } from '../support/hosts.js';

const unavailable = hostsUnavailable();
if (unavailable) process.stderr.write(`${unavailable}\n`);

/** What a `postPublished` subscriber receives. */
interface Published {
  readonly postPublished: { id: string; orgId: string };
}

describe.skipIf(unavailable !== undefined && !hostsRequired())('two hosts through PgBouncer in transaction mode', () => {
  let bed: HostBed | undefined;
  const clients: Client[] = [];

  /** The bed; fails the test when setup did. */
  const hosts = (): HostBed => {
    if (!bed) throw new Error('the bed did not start');
    return bed;
  };
  const hostAddress = (url: string): string => new URL(url).hostname;

  /** A GraphQL operation through the balancer, its errors refused: its data and the host that answered. */
  async function graphql(
    text: string,
    token: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ data: Record<string, unknown>; host: string }> {
    const answer = await through(hosts(), '/graphql', token, { method: 'POST', body: { query: text, variables } });
    expect(answer.body?.errors).toBeUndefined();
    return { data: answer.body?.data as Record<string, unknown>, host: answer.host };
  }

  /** A new draft in the admin's org 0, through the balancer; resolves with its id. */
  async function draft(title: string): Promise<string> {
    const created = await graphql(
      'mutation ($title: String!) { createPost(input: { title: $title }) { id } }',
      await hosts().token('admin'),
      {
        title,
      },
    );
    return (created.data.createPost as { id: string }).id;
  }

  /** A seeded post of org 0. */
  const postOfFirstOrg = (): string => {
    const { seeded } = hosts();
    const post = seeded.posts.find(
      (candidate) => seeded.users.find((user) => user.id === candidate.authorId)?.orgId === seeded.orgs[0]?.id,
    );
    if (!post) throw new Error('no seeded post in org 0');
    return post.id;
  };

  beforeAll(async () => {
    if (unavailable) throw new Error(unavailable);
    bed = await startHostBed({ hosts: 2, serversUse: 'pooler', env: { APP_CRON__WRITE_DIGESTS: '* * * * * *' } });
    process.stderr.write(`host bed up: ${JSON.stringify(bed.timings)} ms\n`);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
    if (bed) process.stderr.write(`host bed torn down in ${await bed.close()} ms\n`);
  }, 60_000);

  it('REST reads and writes: 40 list reads from both hosts, then a comment created, read back and changed', async () => {
    const member = await hosts().token('member');
    // Many reads per worker: a named statement would be prepared on one server connection and missed on another.
    const reads: BedAnswer[] = [];
    for (let request = 0; request < 40; request++) reads.push(await through(hosts(), '/v2/posts?first=5', member));
    expect(reads.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(new Set(reads.map((answer) => answer.host))).toEqual(new Set(hosts().hosts.map((host) => host.name)));

    const created = await through(hosts(), '/v2/comments', member, {
      method: 'POST',
      body: { postId: postOfFirstOrg(), body: 'through the pooler' },
    });
    expect(created.status).toBe(201);
    const id = String(created.body?.id);
    for (let request = 0; request < 4; request++) {
      const read = await through(hosts(), `/v2/comments/${id}`, member);
      expect(read.status).toBe(200);
      expect(read.body?.body).toBe('through the pooler');
    }
    const changed = await through(hosts(), `/v2/comments/${id}`, member, { method: 'PATCH', body: { body: 'changed through the pooler' } });
    expect(changed.status).toBe(200);
    expect((await through(hosts(), `/v2/comments/${id}`, member)).body?.body).toBe('changed through the pooler');
  }, 60_000);

  it("nested GraphQL: users, each one's org and posts, on both hosts", async () => {
    const { seeded } = hosts();
    const admin = await hosts().token('admin');
    const answeredBy = new Set<string>();
    for (let request = 0; request < 6; request++) {
      const { data, host } = await graphql('{ users(first: 20) { id org { id } posts(first: 10) { edges { node { id } } } } }', admin);
      answeredBy.add(host);
      const users = data.users as { id: string; org: { id: string }; posts: { edges: { node: { id: string } }[] } }[];
      const orgUsers = seeded.users.filter((user) => user.orgId === seeded.orgs[0]?.id);
      expect(users.map((user) => user.id).sort()).toEqual(orgUsers.map((user) => user.id).sort());
      for (const user of users) {
        expect(user.org.id).toBe(seeded.orgs[0]?.id);
        expect(user.posts.edges.map((edge) => edge.node.id).sort()).toEqual(
          seeded.posts
            .filter((post) => post.authorId === user.id)
            .map((post) => post.id)
            .sort(),
        );
      }
    }
    expect(answeredBy.size).toBe(2);
  }, 30_000);

  it('a subscriber on each host receives a post published through one of them (LISTEN on the direct URL)', async () => {
    const subscribers: Awaited<ReturnType<typeof subscribeThrough<Published>>>[] = [];
    const token = await hosts().token('member');
    for (let attempt = 0; attempt < 8 && subscribers.length < 2; attempt++) {
      const opened = await subscribeThrough<Published>(hosts(), token, 'subscription { postPublished { id orgId } }');
      clients.push(opened.client);
      if (subscribers.some((held) => held.host === opened.host)) await opened.client.dispose();
      else subscribers.push(opened);
    }
    expect(subscribers.map((held) => held.host).sort()).toEqual(['app1', 'app2']);
    // graphql-ws starts the subscription after the acknowledgement; give the servers a moment to register it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const id = await draft('Across hosts, through the pooler');
    const published = await graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', await hosts().token('admin'), { id });
    expect((published.data.publishPost as { id: string }).id).toBe(id);
    await expect
      .poll(() => subscribers.map((held) => held.items.filter((item) => item.postPublished.id === id).length), { timeout: 10_000 })
      .toEqual([1, 1]);
  }, 60_000);

  it('jobs: one notification per publish, whichever host took it (pg-boss on the direct URL)', async () => {
    const admin = await hosts().token('admin');
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) ids.push(await draft(`Job through the pooler ${index}`));
    const publishedOn = new Set<string>();
    for (const id of ids) {
      const answer = await through(hosts(), `/v2/posts/${id}/publish`, admin, { method: 'POST' });
      expect(answer.status).toBe(200);
      publishedOn.add(answer.host);
    }
    expect(publishedOn.size).toBe(2);
    const notified = async (): Promise<string[]> =>
      (
        await queryOnce<{ postId: string }>(hosts().databaseUrl, 'SELECT "postId" FROM "Notification" WHERE "postId" = ANY($1::uuid[])', [
          ids,
        ])
      )
        .map((row) => row.postId)
        .sort();
    await expect.poll(async () => (await notified()).length, { timeout: 20_000 }).toBe(ids.length);
    // Nothing more arrives later.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await notified()).toEqual([...ids].sort());
  }, 60_000);

  it('a scheduled task every second fires once per tick for both hosts together (tick claims on the direct URL)', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const digests = await readDigestTicks(hosts().databaseUrl);
    expect(digests.ticks).toBeGreaterThanOrEqual(3);
    expect(digests.doubled).toEqual([]);
    expect(digests.settled).toBe((digests.ticks - 1) * hosts().seeded.orgs.length);
  }, 30_000);

  it("the application's statements go through PgBouncer; only LISTEN, jobs and ticks connect directly", async () => {
    const { poolerUrl, databaseUrl } = hosts();
    if (poolerUrl === undefined) throw new Error('the bed has no pooler');
    const database = new URL(databaseUrl).pathname.slice(1);
    const console = new URL(poolerUrl);
    console.pathname = '/pgbouncer';
    const member = await hosts().token('member');
    const read = async (): Promise<void> => {
      for (let request = 0; request < 10; request++) expect((await through(hosts(), '/v2/posts?first=5', member)).status).toBe(200);
    };
    await read();

    // PgBouncer's own view: every application host is its client on the application's database.
    const poolerClients = await queryOnce<{ database: string; addr: string }>(console.toString(), 'SHOW CLIENTS');
    const appAddresses = hosts().hosts.map((host) => hostAddress(host.url));
    expect(new Set(poolerClients.filter((client) => client.database === database).map((client) => client.addr))).toEqual(
      new Set(appAddresses),
    );

    // PostgreSQL's view: the application's reads arrive from the pooler's address… A session shows
    // only its last statement, and the hosts' health checks (`SELECT 1`, every 500 ms) reuse the
    // pooler's server connections: read and look again until a read is caught.
    const sample = () =>
      queryOnce<{ addr: string; query: string }>(
        databaseUrl,
        'SELECT host(client_addr) AS addr, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
    let sessions = await sample();
    const pooled = (rows: typeof sessions) => rows.filter((session) => session.addr === hostAddress(poolerUrl));
    for (let attempt = 0; attempt < 10 && !pooled(sessions).some((session) => session.query.includes('"Post"')); attempt++) {
      await read();
      sessions = await sample();
    }
    const fromPooler = pooled(sessions);
    const fromHosts = sessions.filter((session) => appAddresses.includes(session.addr));
    expect(fromPooler.some((session) => session.query.includes('"Post"'))).toBe(true);
    // …and each worker of each host holds its LISTEN on a direct connection, which no application read uses.
    expect(fromHosts.filter((session) => session.query === 'LISTEN resource_service_events')).toHaveLength(appAddresses.length * 2);
    expect(fromHosts.filter((session) => session.query.includes('"Post"') || session.query.includes('"Comment"'))).toEqual([]);
    expect(fromPooler.filter((session) => session.query.startsWith('LISTEN'))).toEqual([]);
  }, 30_000);
});
