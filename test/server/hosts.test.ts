// Runs on: postgresql
/**
 * Three application hosts behind HAProxy (round-robin, health-checked), each running the compiled
 * server with two workers on one PostgreSQL host, in network namespaces (test/support/hosts.ts):
 * a `postPublished` subscriber on any host receives a post published through another host, and
 * never another org's (docs/behaviour.md §5.11); a job runs once per publish wherever it was
 * enqueued, a listener once per event, and a scheduled task once per tick for all the hosts
 * together (docs/behaviour.md §10); and a host cut off the network is taken out of the rotation by
 * the balancer's health check and put back once it answers again. Skipped with one line where
 * namespaces cannot be made, unless `REQUIRE_HOSTS=1`.
 */
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryOnce, readDigestTicks, subscribeThrough, through } from '../support/bed-clients.js';
import { type HostBed, hostsRequired, hostsUnavailable, startHostBed } from '../support/hosts.js';

const unavailable = hostsUnavailable();
if (unavailable) process.stderr.write(`${unavailable}\n`);

describe.skipIf(unavailable !== undefined && !hostsRequired())('three application hosts behind HAProxy', () => {
  let bed: HostBed | undefined;
  const clients: Client[] = [];

  /** The bed; fails the test when setup did. */
  const hosts = (): HostBed => {
    if (!bed) throw new Error('the bed did not start');
    return bed;
  };

  /** A GraphQL operation through the balancer: its data and the host that answered. */
  async function graphql(
    text: string,
    token: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ data: Record<string, { id: string }>; host: string }> {
    const answer = await through(hosts(), '/graphql', token, { method: 'POST', body: { query: text, variables } });
    expect(answer.body?.errors).toBeUndefined();
    return { data: answer.body?.data as Record<string, { id: string }>, host: answer.host };
  }

  /** A new draft in the admin's org (`orgIndex`), through the balancer. */
  async function draft(orgIndex: number, title: string): Promise<string> {
    const created = await graphql(
      'mutation ($title: String!) { createPost(input: { title: $title }) { id } }',
      await hosts().token('admin', orgIndex),
      { title },
    );
    return created.data.createPost?.id ?? '';
  }

  /**
   * A `postPublished` subscriber of org `orgIndex` connected through the balancer: the items it
   * receives, and the host the balancer sent its WebSocket to (HAProxy's `x-served-by` on the upgrade).
   */
  async function subscriber(
    orgIndex: number,
  ): Promise<{ orgIndex: number; host: string; items: { postPublished: { id: string; orgId: string } }[]; client: Client }> {
    const opened = await subscribeThrough<{ postPublished: { id: string; orgId: string } }>(
      hosts(),
      await hosts().token('member', orgIndex),
      'subscription { postPublished { id orgId } }',
    );
    clients.push(opened.client);
    return { orgIndex, ...opened };
  }

  beforeAll(async () => {
    if (unavailable) throw new Error(unavailable);
    bed = await startHostBed({ hosts: 3, pooler: true, env: { APP_CRON__WRITE_DIGESTS: '* * * * * *' } });
    process.stderr.write(`host bed up: ${JSON.stringify(bed.timings)} ms\n`);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
    if (bed) process.stderr.write(`host bed torn down in ${await bed.close()} ms\n`);
  }, 60_000);

  it('serves through the balancer from every host, round-robin, each UP by its health check', async () => {
    expect(Object.values(await hosts().balancerStates())).toEqual(['UP', 'UP', 'UP']);
    const token = await hosts().token('member');
    const answered: string[] = [];
    for (let request = 0; request < 6; request++) answered.push((await through(hosts(), '/v2/posts?first=1', token)).host);
    expect(new Set(answered)).toEqual(new Set(hosts().hosts.map((host) => host.name)));
  });

  it("the bed's PgBouncer answers a parameterised query in transaction mode", async () => {
    const { poolerUrl, seeded } = hosts();
    if (poolerUrl === undefined) throw new Error('the bed has no pooler');
    const rows = await queryOnce<{ count: string }>(poolerUrl, 'SELECT count(*) AS count FROM "Post" WHERE "orgId" = $1', [
      seeded.orgs[0]?.id,
    ]);
    expect(Number(rows[0]?.count)).toBe(
      seeded.posts.filter((post) => seeded.users.find((user) => user.id === post.authorId)?.orgId === seeded.orgs[0]?.id).length,
    );
  });

  it("subscriptions: a subscriber on each host receives a post of its org published through another host, and no other org's", async () => {
    const names = hosts().hosts.map((host) => host.name);
    // Subscribers of both orgs on every host: connections through the balancer until each host holds one of each.
    const subscribers: Awaited<ReturnType<typeof subscriber>>[] = [];
    const of = (orgIndex: number): typeof subscribers => subscribers.filter((held) => held.orgIndex === orgIndex);
    for (const orgIndex of [0, 1]) {
      for (let attempt = 0; attempt < 12 && of(orgIndex).length < names.length; attempt++) {
        const opened = await subscriber(orgIndex);
        if (of(orgIndex).some((held) => held.host === opened.host)) await opened.client.dispose();
        else subscribers.push(opened);
      }
    }
    for (const orgIndex of [0, 1])
      expect(
        of(orgIndex)
          .map((held) => held.host)
          .sort(),
      ).toEqual(names);
    // graphql-ws starts the subscription after the acknowledgement; give the servers a moment to register it.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const orgs = hosts().seeded.orgs.map((org) => org.id);
    for (const orgIndex of [0, 1]) {
      const id = await draft(orgIndex, `Across hosts ${orgIndex}`);
      const published = await graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', await hosts().token('admin', orgIndex), {
        id,
      });
      expect(published.data.publishPost?.id).toBe(id);
      const local = of(orgIndex);
      // Every subscriber of the org receives it: on the host that published it and on the two others.
      await expect
        .poll(() => local.map((held) => held.items.filter((item) => item.postPublished.id === id).length), { timeout: 10_000 })
        .toEqual([1, 1, 1]);
      expect(local.filter((held) => held.host !== published.host)).toHaveLength(2);
    }
    // Nothing crossed orgs, after a moment for anything late to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const held of subscribers) {
      expect(held.items.map((item) => item.postPublished.orgId)).toEqual([orgs[held.orgIndex]]);
    }
  }, 60_000);

  it('jobs: one job per publish and one audit record per event, whichever host took the request', async () => {
    const admin = await hosts().token('admin');
    const ids: string[] = [];
    for (let index = 0; index < 6; index++) ids.push(await draft(0, `Job ${index}`));
    const publishedOn: string[] = [];
    for (const id of ids) {
      const answer = await through(hosts(), `/v2/posts/${id}/publish`, admin, { method: 'POST' });
      expect(answer.status).toBe(200);
      publishedOn.push(answer.host);
    }
    expect(new Set(publishedOn).size).toBe(3);
    const url = hosts().databaseUrl;
    await expect
      .poll(
        async () =>
          (await queryOnce<{ postId: string }>(url, 'SELECT "postId" FROM "Notification" WHERE "postId" = ANY($1::uuid[])', [ids])).length,
        { timeout: 20_000 },
      )
      .toBe(ids.length);
    await expect
      .poll(
        async () =>
          (await queryOnce<{ subjectId: string }>(url, 'SELECT "subjectId" FROM "AuditRecord" WHERE "subjectId" = ANY($1::text[])', [ids]))
            .length,
        { timeout: 20_000 },
      )
      .toBe(ids.length);
    // Nothing more arrives later, though every worker on every host hears each event over LISTEN/NOTIFY.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const notifications = await queryOnce<{ postId: string }>(url, 'SELECT "postId" FROM "Notification" WHERE "postId" = ANY($1::uuid[])', [
      ids,
    ]);
    const audit = await queryOnce<{ subjectId: string }>(url, 'SELECT "subjectId" FROM "AuditRecord" WHERE "subjectId" = ANY($1::text[])', [
      ids,
    ]);
    expect(notifications.map((row) => row.postId).sort()).toEqual([...ids].sort());
    expect(audit.map((row) => row.subjectId).sort()).toEqual([...ids].sort());
  }, 60_000);

  it('a scheduled task every second fires once per tick for the three hosts together', async () => {
    // The bed has run for a few seconds already; give it a few more ticks.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const digests = await readDigestTicks(hosts().databaseUrl);
    expect(digests.ticks).toBeGreaterThanOrEqual(3);
    // One digest per org per tick: a tick fired on two hosts (or two workers) would write two.
    expect(digests.doubled).toEqual([]);
    expect(digests.settled).toBe((digests.ticks - 1) * hosts().seeded.orgs.length);
    const ran = hosts().hosts.flatMap((host) =>
      host.logs.filter((entry) => entry.msg === 'scheduled task writeDigests ran').map((entry) => ({ host: host.name, tick: entry.tick })),
    );
    expect(new Set(ran.map((entry) => entry.tick)).size).toBe(ran.length);
  }, 30_000);

  it('a host whose link is cut is taken out by the health check, the others answer, and it is back once restored', async () => {
    const [, , lost] = hosts().hosts;
    if (!lost) throw new Error('the bed has fewer than three hosts');
    const token = await hosts().token('member');
    const answeredBy = async (count: number): Promise<string[]> => {
      const answered: string[] = [];
      for (let request = 0; request < count; request++) {
        const answer = await through(hosts(), '/v2/posts?first=1', token);
        expect(answer.status).toBe(200);
        answered.push(answer.host);
      }
      return [...new Set(answered)].sort();
    };
    lost.cutLink();
    try {
      await expect.poll(async () => (await hosts().balancerStates())[lost.name], { timeout: 10_000, interval: 200 }).toBe('DOWN');
      expect(await answeredBy(6)).toEqual(
        hosts()
          .hosts.filter((host) => host !== lost)
          .map((host) => host.name),
      );
    } finally {
      lost.restoreLink();
    }
    await expect.poll(async () => (await hosts().balancerStates())[lost.name], { timeout: 10_000, interval: 200 }).toBe('UP');
    expect(await answeredBy(6)).toEqual(hosts().hosts.map((host) => host.name));
  }, 40_000);

  it('MCP: one SDK client initializes, lists and calls tools through the balancer, each request answered, by more than one host', async () => {
    // The MCP client is loaded here, beside the only test that uses it.
    const { Client: McpClient } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const admin = hosts().user('admin');
    const served: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${hosts().url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${await hosts().token('admin')}` } },
      // Which host answered each JSON-RPC POST (HAProxy's x-served-by).
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (init?.method === 'POST') served.push(response.headers.get('x-served-by') ?? '');
        return response;
      },
    });
    const client = new McpClient({ name: 'through-the-balancer', version: '1' });
    const started = Date.now();
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['me', 'posts', 'createPost']));
      for (let index = 0; index < 6; index++) {
        const result =
          index % 2 === 0
            ? await client.callTool({ name: 'me', arguments: {} })
            : await client.callTool({ name: 'posts', arguments: { first: 1 } });
        expect(result.isError, JSON.stringify(result)).toBeFalsy();
        if (index % 2 === 0) expect(result.structuredContent).toMatchObject({ id: admin.id, orgId: admin.orgId });
        else expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(1);
      }
    } finally {
      await client.close();
    }
    expect(Date.now() - started).toBeLessThan(20_000);
    // initialize, initialized, tools/list and six calls, each named by the host that answered it.
    expect(served).toHaveLength(9);
    expect(served.filter((host) => !hosts().hosts.some((known) => known.name === host))).toEqual([]);
    expect(new Set(served).size).toBeGreaterThan(1);
  }, 30_000);
});
