// Runs on: sqlite, postgresql
/**
 * Work with no caller (docs/behaviour.md §10), on the database under test: publishing a post
 * enqueues a `notifications` job whose handler notifies the author (read back over GraphQL and
 * REST, own user only); a listener on `postPublished` appends an audit record admins read; the
 * `writeDigests` schedule, sped up by its setting, writes a digest per org per tick. Beside the
 * demo, queues and listeners built in the test show the rules every job and listener runs by:
 * payloads refused at the caller, unscoped and without a caller, retried then dead-lettered,
 * errors kept away from the request and the process, shutdown waiting for running work.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { currentContext } from '../../runtime/auth/context.js';
import { JobPayloadError, Queue } from '../../runtime/jobs/queue.js';
import { defineJobHandler, jobs } from '../../runtime/transports/jobs/index.js';
import { listeners } from '../../runtime/transports/listeners/index.js';
import { testProvider } from '../support/database.js';
import { type InProcessServer, startInProcessServer, startTestServer, type TestServer } from '../support/server.js';

const provider = testProvider();

/** Messages of the log lines so far. */
const messages = (logs: readonly Record<string, unknown>[]): string[] => logs.map((entry) => String(entry.msg));

describe(`the demo's job, listener and schedule (${provider})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ seed: { orgs: 2, users: 3, posts: 2 }, env: { APP_CRON__WRITE_DIGESTS: '* * * * * *' } });
  });

  afterAll(async () => {
    await server.stop();
  });

  const draftOf = (role: 'admin' | 'member' | 'viewer', orgIndex = 0): string => {
    const author = server.user(role, orgIndex);
    const draft = server.seeded.posts.find((post) => post.authorId === author.id && post.status === 'draft');
    if (!draft) throw new Error(`no draft of the ${role}`);
    return draft.id;
  };

  it('says at boot where jobs are kept and how durable they are', () => {
    const line = server.logs.find((entry) => String(entry.msg).startsWith('jobs: notifications on '));
    expect(line?.storage).toContain(provider === 'postgresql' ? 'pg-boss' : 'not durable');
  });

  it('publishing a post notifies its author through a job; each user reads only their own notifications', async () => {
    const member = await server.token('member');
    const postId = draftOf('member');
    const published = await server.fetch(`/v2/posts/${postId}/publish`, { method: 'POST', token: member });
    expect(published.status).toBe(200);

    const query = '{ notifications(first: 10) { postId userId message } }';
    await expect
      .poll(
        async () =>
          (await server.graphql<{ notifications: { postId: string }[] }>(query, { token: member })).data?.notifications.map(
            (row) => row.postId,
          ),
        { timeout: 15_000 },
      )
      .toEqual([postId]);
    const rest = await server.fetch('/v2/notifications', { token: member });
    expect(rest.status).toBe(200);
    const rows = (await rest.json()) as { postId: string; userId: string; message: string }[];
    expect(rows).toEqual([
      expect.objectContaining({ postId, userId: server.user('member').id, message: expect.stringContaining('was published') as unknown }),
    ]);

    // The admin of the same org, and anyone of another org, see none of it.
    expect((await server.graphql<{ notifications: unknown[] }>(query, { token: await server.token('admin') })).data?.notifications).toEqual(
      [],
    );
    expect(await (await server.fetch('/v2/notifications', { token: await server.token('member', 1) })).json()).toEqual([]);
    expect((await server.fetch('/v2/notifications')).status).toBe(401);

    const done = server.logs.find((entry) => entry.msg === 'job post-published done');
    expect(done).toMatchObject({ queue: 'notifications', attempt: 1, handler: 'NotificationsProcessor.postPublished' });
    expect(typeof done?.jobId).toBe('string');
  });

  it('a listener on postPublished appends an audit record that admins of the org read', async () => {
    const admin = await server.token('admin');
    const postId = draftOf('admin');
    expect(
      (await server.graphql('mutation ($id: ID!) { publishPost(id: $id) { id } }', { token: admin, variables: { id: postId } })).errors,
    ).toBeUndefined();

    const query = '{ auditRecords(first: 50) { action subjectId userId } }';
    await expect
      .poll(
        async () =>
          (await server.graphql<{ auditRecords: { subjectId: string }[] }>(query, { token: admin })).data?.auditRecords.map(
            (row) => row.subjectId,
          ),
        { timeout: 10_000 },
      )
      .toContain(postId);
    const rest = (await (await server.fetch('/v2/audit-records', { token: admin })).json()) as {
      action: string;
      subjectId: string;
      userId: string;
    }[];
    expect(rest.filter((row) => row.subjectId === postId)).toEqual([
      expect.objectContaining({ action: 'post.published', userId: server.user('admin').id }),
    ]);

    // A member has no grant on the audit trail; another org's admin sees none of this org's.
    expect((await server.fetch('/v2/audit-records', { token: await server.token('member') })).status).toBe(403);
    expect((await server.graphql(query, { token: await server.token('viewer') })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = (await (await server.fetch('/v2/audit-records', { token: await server.token('admin', 1) })).json()) as {
      subjectId: string;
    }[];
    expect(other.map((row) => row.subjectId)).not.toContain(postId);
  });

  it('the digest schedule (every second through APP_CRON__WRITE_DIGESTS) writes a digest per org per tick, read by admins', async () => {
    const admin = await server.token('admin');
    type Digest = { orgId: string; periodStart: string | null; periodEnd: string; publishedPosts: number };
    await expect
      .poll(async () => ((await (await server.fetch('/v2/digests?first=100', { token: admin })).json()) as Digest[]).length, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(2);
    const digests = (await (await server.fetch('/v2/digests?first=100', { token: admin })).json()) as Digest[];
    expect(new Set(digests.map((digest) => digest.orgId))).toEqual(new Set([server.user('admin').orgId]));
    // One per tick: consecutive periods, each starting where the previous one ended.
    const ends = digests.map((digest) => digest.periodEnd);
    expect(new Set(ends).size).toBe(ends.length);
    expect(digests.slice(1).every((digest, index) => digest.periodStart === digests[index]?.periodEnd)).toBe(true);
    const graphql = await server.graphql<{ digests: Digest[] }>('{ digests(first: 5) { orgId periodEnd publishedPosts } }', {
      token: admin,
    });
    expect(graphql.data?.digests.length).toBeGreaterThan(0);
    expect((await server.fetch('/v2/digests', { token: await server.token('member') })).status).toBe(403);
    const ran = server.logs.find((entry) => entry.msg === 'scheduled task writeDigests ran');
    expect(ran).toMatchObject({ task: 'writeDigests', handler: 'DigestService.writeDigests' });
    expect(String(ran?.tick)).toMatch(/\.000Z$/);
  });
});

describe(`a schedule's setting (${provider})`, () => {
  it('switches a task off', async () => {
    const server = await startTestServer({ seed: { orgs: 1, users: 3, posts: 1 }, env: { APP_CRON__WRITE_DIGESTS: 'off' } });
    try {
      expect(messages(server.logs)).toContain('scheduled task writeDigests is off (APP_CRON__WRITE_DIGESTS=off)');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await (await server.fetch('/v2/digests', { token: await server.token('admin') })).json()).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('stops the server at boot when it names no task or holds no schedule, with a did-you-mean', async () => {
    for (const [env, expected] of [
      [
        { APP_CRON__WRITE_DIGEST: 'off' },
        'APP_CRON__WRITE_DIGEST: no scheduled task has this setting; did you mean APP_CRON__WRITE_DIGESTS?',
      ],
      [
        { APP_CRON__WRITE_DIGESTS: '61 * * * *' },
        "APP_CRON__WRITE_DIGESTS: expected off or a cron expression such as '0 * * * *' (CronPattern: Invalid value for minute: 61)",
      ],
    ] as const) {
      await expect(startTestServer({ seed: { orgs: 1, users: 1, posts: 0 }, env })).rejects.toThrow(expected);
    }
  });
});

describe(`jobs and listeners, whatever the application (${provider})`, () => {
  const ProbeSchema = z.object({ n: z.number().int() });
  const runs: { n: number; attempt: number; unscoped: boolean; principal: unknown }[] = [];
  const heard: { unscoped: boolean; principal: unknown; id: unknown }[] = [];
  const probe = new Queue<{ probe: z.input<typeof ProbeSchema> }>('probe', { probe: ProbeSchema });
  let slowFinished = false;
  let server: InProcessServer;

  beforeAll(async () => {
    server = await startInProcessServer({
      seed: { orgs: 1, users: 3, posts: 2 },
      env: { APP_JOBS__RETRY_LIMIT: '2', APP_JOBS__RETRY_DELAY: '0', APP_HTTP__SHUTDOWN_TIMEOUT: '5000' },
      adjust: (application) => ({
        ...application,
        transports: [
          ...application.transports,
          jobs(() => ({
            queues: [probe],
            handlers: [
              defineJobHandler({
                queue: 'probe',
                job: 'probe',
                handler: 'Test.probe',
                schema: ProbeSchema,
                handle: async (payload, job) => {
                  const context = currentContext();
                  runs.push({ n: payload.n, attempt: job.attempt, unscoped: context.unscoped, principal: context.principal });
                  job.logger.info({ n: payload.n }, 'probe ran');
                  if (payload.n < 0) throw new Error(`probe ${payload.n} fails on purpose`);
                  if (payload.n === 1000) {
                    await new Promise((resolve) => setTimeout(resolve, 1_500));
                    slowFinished = true;
                  }
                },
              }),
            ],
          })),
          listeners(() => [
            {
              event: 'postPublished',
              handler: 'Test.record',
              handle: (payload) => {
                const context = currentContext();
                heard.push({ unscoped: context.unscoped, principal: context.principal, id: (payload as { id: unknown }).id });
              },
            },
            {
              event: 'postPublished',
              handler: 'Test.explode',
              handle: () => {
                throw new Error('the listener fails on purpose');
              },
            },
          ]),
        ],
      }),
    });
  });

  afterAll(async () => {
    if (!slowFinished) await server.stop();
  });

  it('refuses a payload its schema rejects, or an unknown job, at the caller: nothing is enqueued', async () => {
    await expect(probe.add('probe', { n: 1.5 })).rejects.toBeInstanceOf(JobPayloadError);
    await expect(probe.add('probe', { n: 'one' } as unknown as { n: number })).rejects.toThrow(
      /job probe on queue probe: the payload does not match its schema \(n: /,
    );
    await expect(probe.add('prob' as 'probe', { n: 1 })).rejects.toThrow(
      'job prob on queue probe: no processor handles it; did you mean probe?',
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(runs).toEqual([]);
  });

  it('runs a job unscoped, with no caller, and a logger carrying its id', async () => {
    const id = await probe.add('probe', { n: 1 });
    await expect
      .poll(() => runs.filter((run) => run.n === 1), { timeout: 10_000 })
      .toEqual([{ n: 1, attempt: 1, unscoped: true, principal: undefined }]);
    await expect
      .poll(() => server.logs.find((entry) => entry.msg === 'probe ran' && entry.n === 1))
      .toMatchObject({ jobId: id, queue: 'probe', job: 'probe', attempt: 1 });
  });

  it('retries a failing job with back-off, then moves it to the dead-letter queue; the process keeps serving', async () => {
    const id = await probe.add('probe', { n: -1 });
    await expect.poll(() => runs.filter((run) => run.n === -1).map((run) => run.attempt), { timeout: 20_000 }).toEqual([1, 2, 3]);
    await expect
      .poll(() => server.logs.find((entry) => entry.jobId === id && entry.level === 50)?.msg, { timeout: 10_000 })
      .toBe('job probe failed on its last attempt (3); moved to probe-dead-letter');
    expect(server.logs.filter((entry) => entry.jobId === id && entry.level === 40).map((entry) => entry.msg)).toEqual([
      'job probe failed (attempt 1 of 3); it runs again after a back-off',
      'job probe failed (attempt 2 of 3); it runs again after a back-off',
    ]);
    if (provider === 'postgresql') {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      try {
        const dead = await client.query<{ data: { payload: { n: number } } }>(
          "SELECT data FROM pgboss.job WHERE name = 'probe-dead-letter'",
        );
        expect(dead.rows.map((row) => row.data.payload.n)).toEqual([-1]);
      } finally {
        await client.end();
      }
    }
    expect((await server.graphql('{ orgs { name } }', { token: await server.token('admin') })).errors).toBeUndefined();
  });

  it('runs listeners after the publish, unscoped and with no caller; a failing one is logged and never reaches the request', async () => {
    const admin = await server.token('admin');
    const draft = server.seeded.posts.find((post) => post.status === 'draft');
    const published = await server.graphql<{ publishPost: { id: string } }>('mutation ($id: ID!) { publishPost(id: $id) { id } }', {
      token: admin,
      variables: { id: draft?.id },
    });
    expect(published.errors).toBeUndefined();
    await expect.poll(() => heard, { timeout: 10_000 }).toEqual([{ unscoped: true, principal: undefined, id: draft?.id }]);
    await expect
      .poll(() => server.logs.find((entry) => entry.msg === 'listener Test.explode failed on postPublished'))
      .toMatchObject({ event: 'postPublished', eventId: draft?.id, listener: 'Test.explode' });
  });

  it('at shutdown stops taking jobs and waits for the running one; requests still draining may enqueue', async () => {
    await probe.add('probe', { n: 1000 });
    await expect.poll(() => runs.some((run) => run.n === 1000), { timeout: 10_000 }).toBe(true);
    const stopped = server.stop();
    // Shutdown has begun and waits for the running job: a request finishing now still enqueues.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(typeof (await probe.add('probe', { n: 3 }))).toBe('string');
    await stopped;
    expect(slowFinished).toBe(true);
    expect(runs.some((run) => run.n === 3)).toBe(false);
    if (provider === 'sqlite')
      expect(
        server.logs.find((entry) => String(entry.msg).endsWith('lost at shutdown: the in-process queue (SQLite) is not durable')),
      ).toMatchObject({ lost: 1 });
    await expect(probe.add('probe', { n: 2 })).rejects.toThrow('queue probe is not open');
  });
});
