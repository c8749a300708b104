/**
 * bench/jobs (docs/behaviour.md §10; docs/guide/jobs.md "Measured" quotes its figures): two figures.
 *
 * 1. Jobs per second through a queue on each database: the jobs transport itself (schema check at
 *    `add`, storage, fetch, the unscoped run, completion) with a handler that does nothing, so
 *    what is measured is the queue. `JOBS` jobs are enqueued by 16 concurrent callers; the clock
 *    runs from the first `add` to the last completion. SQLite: the in-process queue; PostgreSQL:
 *    pg-boss on a throwaway cluster (or `TEST_POSTGRES_URL`).
 * 2. Cron ticks across two workers on PostgreSQL: the demo server with `APP_HTTP__WORKERS=2` and
 *    `APP_CRON__WRITE_DIGESTS` firing every second, for `TICKS` seconds; each tick writes one
 *    digest per org, so a tick fired twice shows as two digests for one (org, tick), and a tick
 *    missed as a second with none.
 *
 * Run: npm run bench:jobs [-- --jobs 5000 --ticks 30]
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { Queue } from '../runtime/jobs/queue.js';
import { loadConfig } from '../runtime/server/config.js';
import { Observability } from '../runtime/observability/index.js';
import { createLogger } from '../runtime/server/logger.js';
import type { Transport, TransportContext } from '../runtime/transports/index.js';
import { defineJobHandler, jobs } from '../runtime/transports/jobs/index.js';
import { createPostgresDatabase, createTestDatabase } from '../test/support/database.js';
import { type PostgresCluster, startCluster } from '../test/support/postgres.js';
import { startTestServer } from '../test/support/server.js';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '5000' }, ticks: { type: 'string', default: '30' } } });
const JOBS = Number(values.jobs);
const TICKS = Number(values.ticks);
const CALLERS = 16;

/** Enqueues `JOBS` jobs through the jobs transport on `url` and waits for all of them; returns jobs per second. */
async function throughput(url: string): Promise<{ enqueuePerSecond: number; endToEndPerSecond: number }> {
  const schema = z.object({ n: z.number().int() });
  const queue = new Queue<{ tick: z.input<typeof schema> }>('bench', { tick: schema });
  let done = 0;
  let finished: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const { config } = loadConfig({ APP_DATABASE__URL: url, APP_JOBS__CONCURRENCY: '16', APP_LOG__LEVEL: 'silent' });
  const logger = createLogger({ level: 'silent', format: 'json' });
  const factory = jobs(() => ({
    queues: [queue],
    handlers: [
      defineJobHandler({
        queue: 'bench',
        job: 'tick',
        handler: 'Bench.tick',
        schema,
        handle: () => {
          done += 1;
          if (done === JOBS) finished();
        },
      }),
    ],
  }));
  const observability = await Observability.start(config, logger);
  const transport: Transport = await factory({
    config,
    logger,
    container: undefined,
    observability,
  } as unknown as TransportContext<undefined>);
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (next < JOBS) await queue.add('tick', { n: next++ });
      }),
    );
    const enqueued = performance.now();
    await all;
    const ended = performance.now();
    return {
      enqueuePerSecond: Math.round(JOBS / ((enqueued - started) / 1000)),
      endToEndPerSecond: Math.round(JOBS / ((ended - started) / 1000)),
    };
  } finally {
    await transport.close?.();
    await transport.release?.();
  }
}

/** The demo on PostgreSQL with two workers and a per-second schedule for `TICKS` seconds. */
async function cronAcrossWorkers(
  admin: string,
): Promise<{ ticks: number; expected: number; duplicates: number; missed: number; byWorker: Record<string, number> }> {
  const databaseUrl = await createTestDatabase('postgresql', admin);
  const server = await startTestServer({
    databaseUrl,
    seed: { orgs: 3, users: 3, posts: 1 },
    env: { APP_HTTP__WORKERS: '2', APP_CRON__WRITE_DIGESTS: '* * * * * *', APP_LOG__LEVEL: 'info' },
  });
  await new Promise((resolve) => setTimeout(resolve, TICKS * 1000 + 500));
  await server.stop();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = (
      await client.query<{ orgId: string; periodEnd: Date; count: string }>(
        'SELECT "orgId", "periodEnd", count(*) AS count FROM "Digest" GROUP BY 1, 2',
      )
    ).rows;
    const ticks = [...new Set(rows.map((row) => row.periodEnd.getTime()))].sort((a, b) => a - b);
    const first = ticks[0] ?? 0;
    const last = ticks[ticks.length - 1] ?? 0;
    const expected = ticks.length === 0 ? 0 : (last - first) / 1000 + 1;
    const ran = server.logs.filter((entry) => entry.msg === 'scheduled task writeDigests ran');
    const byWorker: Record<string, number> = {};
    for (const entry of ran) byWorker[String(entry.pid)] = (byWorker[String(entry.pid)] ?? 0) + 1;
    return {
      ticks: ticks.length,
      expected,
      duplicates: rows.filter((row) => Number(row.count) !== 1).length,
      missed: expected - ticks.length,
      byWorker,
    };
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const sqlite = `file:${path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-jobs-')), 'app.db')}`;
  process.stdout.write(`jobs through one queue (${JOBS} jobs, ${CALLERS} callers, 16 at once per process)\n`);
  const onSqlite = await throughput(sqlite);
  process.stdout.write(
    `  SQLite (in-process queue):   enqueue ${onSqlite.enqueuePerSecond} jobs/s, end to end ${onSqlite.endToEndPerSecond} jobs/s\n`,
  );
  let cluster: PostgresCluster | undefined;
  const admin = process.env.TEST_POSTGRES_URL ?? (cluster = await startCluster()).url;
  try {
    const onPostgres = await throughput(await createPostgresDatabase(admin));
    process.stdout.write(
      `  PostgreSQL (pg-boss):        enqueue ${onPostgres.enqueuePerSecond} jobs/s, end to end ${onPostgres.endToEndPerSecond} jobs/s\n`,
    );
    process.stdout.write(`cron every second, two workers on PostgreSQL, ${TICKS} s\n`);
    const cron = await cronAcrossWorkers(admin);
    process.stdout.write(
      `  ticks fired ${cron.ticks} of ${cron.expected} seconds, fired twice: ${cron.duplicates}, missed: ${cron.missed}; ticks run per worker process: ${JSON.stringify(cron.byWorker)}\n`,
    );
  } finally {
    cluster?.destroy();
  }
}

await main();
