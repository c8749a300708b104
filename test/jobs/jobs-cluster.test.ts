// Runs on: postgresql
/**
 * Jobs, schedules and listeners across processes on PostgreSQL (docs/behaviour.md §10): with
 * two workers a scheduled task fires once per tick for the whole cluster and a listener runs once
 * per event, in the process that raised it; and a worker killed with SIGKILL in the middle of a job
 * leaves the job to expire and run again on another server process, whose handler finds the effect
 * already written — the notification exists exactly once; and processes setting up their queues
 * on a fresh database at once all start. Runs in the postgresql project only.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgBossQueues } from '../../runtime/dialects/postgresql-jobs.js';
import { queryOnce, readDigestTicks } from '../support/bed-clients.js';
import { createPostgresDatabase } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('two workers (APP_HTTP__WORKERS=2), a schedule every second', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      seed: { orgs: 2, users: 3, posts: 2 },
      env: { APP_HTTP__WORKERS: '2', APP_CRON__WRITE_DIGESTS: '* * * * * *' },
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('fires each tick once for the cluster, not once per worker', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const digests = await readDigestTicks(server.databaseUrl);
    expect(digests.ticks).toBeGreaterThanOrEqual(3);
    // One digest per org per tick: a tick fired by both workers would write two.
    expect(digests.doubled).toEqual([]);
    expect(digests.settled).toBe((digests.ticks - 1) * server.seeded.orgs.length);
    const ran = server.logs.filter((entry) => entry.msg === 'scheduled task writeDigests ran');
    expect(new Set(ran.map((entry) => entry.tick)).size).toBe(ran.length);
    const claims = await queryOnce<{ count: string }>(
      server.databaseUrl,
      "SELECT count(*) AS count FROM resource_service.schedule_ticks WHERE task = 'writeDigests'",
    );
    expect(Number(claims[0]?.count)).toBeGreaterThanOrEqual(digests.ticks);
  });

  it('runs a listener once per event, in the worker that raised it, and the job once per publish', async () => {
    const token = await server.token('admin');
    const drafts = server.seeded.posts.filter(
      (post) =>
        post.status === 'draft' && server.seeded.users.find((user) => user.id === post.authorId)?.orgId === server.user('admin').orgId,
    );
    for (const draft of drafts)
      expect(
        (await server.fetch(`/v2/posts/${draft.id}/publish`, { method: 'POST', token, headers: { connection: 'close' } })).status,
      ).toBe(200);
    const ids = drafts.map((draft) => draft.id);
    await expect
      .poll(
        async () =>
          (
            await queryOnce<{ subjectId: string }>(
              server.databaseUrl,
              'SELECT "subjectId" FROM "AuditRecord" WHERE "subjectId" = ANY($1::text[])',
              [ids],
            )
          ).length,
        { timeout: 10_000 },
      )
      .toBe(ids.length);
    await expect
      .poll(
        async () =>
          (
            await queryOnce<{ postId: string }>(
              server.databaseUrl,
              'SELECT "postId" FROM "Notification" WHERE "postId" = ANY($1::uuid[])',
              [ids],
            )
          ).length,
        { timeout: 10_000 },
      )
      .toBe(ids.length);
    // Nothing more arrives later: one audit record per publish, though both workers hear every event over LISTEN/NOTIFY.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const audit = await queryOnce<{ subjectId: string }>(
      server.databaseUrl,
      'SELECT "subjectId" FROM "AuditRecord" WHERE "subjectId" = ANY($1::text[])',
      [ids],
    );
    expect(audit.map((row) => row.subjectId).sort()).toEqual([...ids].sort());
  });
});

describe('kill -9 of a server process in the middle of a job', () => {
  const servers: TestServer[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('runs the job again on another process, and its effect happens exactly once', async () => {
    const env = { APP_JOBS__EXPIRE: '3', APP_JOBS__RETRY_DELAY: '0' };
    const first = await startTestServer({ seed: { orgs: 1, users: 3, posts: 2 }, entry: 'test/fixtures/holding-job-server.ts', env });
    servers.push(first);
    const second = await startTestServer({ databaseUrl: first.databaseUrl, entry: 'test/fixtures/holding-job-server.ts', env });
    servers.push(second);
    const member = first.user('member');
    const draft = first.seeded.posts.find((post) => post.authorId === member.id && post.status === 'draft');
    const token = await first.tokenFor(member);
    expect((await first.fetch(`/v2/posts/${draft?.id}/publish`, { method: 'POST', token })).status).toBe(200);

    // Whichever process took the job writes the notification, then holds the job: kill it there.
    const holding = (server: TestServer): Record<string, unknown> | undefined =>
      server.logs.find((entry) => entry.msg === 'effect written; holding the job');
    await expect.poll(() => servers.some((server) => holding(server) !== undefined), { timeout: 10_000 }).toBe(true);
    const [victim, survivor] = holding(first) ? [first, second] : [second, first];
    const jobId = holding(victim)?.jobId;
    victim.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    servers.splice(servers.indexOf(victim), 1);

    // The job expires (APP_JOBS__EXPIRE=3) and runs again on the survivor, which finds the notification written.
    await expect
      .poll(() => survivor.logs.find((entry) => entry.msg === 'job post-published done' && entry.jobId === jobId), { timeout: 30_000 })
      .toMatchObject({ attempt: 2 });
    expect(
      survivor.logs.some((entry) => entry.jobId === jobId && entry.msg === 'the author was already notified (an earlier run of this job)'),
    ).toBe(true);
    const notifications = await queryOnce<{ id: string }>(survivor.databaseUrl, 'SELECT id FROM "Notification" WHERE "postId" = $1', [
      draft?.id,
    ]);
    expect(notifications).toHaveLength(1);
    const read = await survivor.graphql<{ notifications: { postId: string }[] }>('{ notifications { postId } }', { token });
    expect(read.data?.notifications.map((row) => row.postId)).toEqual([draft?.id]);
  }, 90_000);
});

describe('several processes setting up their queues on a fresh database at once', () => {
  it('all start, each queue and its dead-letter queue made once, and none deadlocks', async () => {
    const logger = pino({ level: 'silent' });
    const policy = { retryLimit: 2, retryDelay: 1, expire: 30 };
    const queues = ['notifications', 'digests', 'exports', 'imports'];
    // Fresh databases, as a first deploy of two or more workers meets them; each round starts several at once.
    for (let round = 0; round < 3; round++) {
      const url = await createPostgresDatabase();
      const backends = await Promise.all(Array.from({ length: 4 }, () => startPgBossQueues({ url, logger, policy })));
      try {
        // As the jobs transport does in each process: one queue after another.
        await Promise.all(
          backends.map(async (backend) => {
            for (const queue of [...queues].sort(() => Math.random() - 0.5)) await backend.createQueue(queue);
          }),
        );
      } finally {
        await Promise.all(backends.map((backend) => backend.close()));
      }
      const made = await queryOnce<{ name: string }>(url, 'SELECT name FROM pgboss.queue ORDER BY name');
      expect(made.map((row) => row.name)).toEqual(queues.flatMap((queue) => [queue, `${queue}-dead-letter`]).sort());
    }
  }, 90_000);
});
