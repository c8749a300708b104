// Runs on: postgresql
/**
 * PostgreSQL in production (docs/decisions.md §4): several worker processes behind one port, with
 * subscription events fanned out through LISTEN/NOTIFY, a crashed worker replaced, and a database
 * outage answered with `database error` / `/health` 503 and recovered from without a restart.
 * Runs in the postgresql project only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cliArguments } from '../support/cli.js';
import { createPostgresDatabase, createTestDatabase } from '../support/database.js';
import { ROOT, TEST_SECRET } from '../support/project.js';
import { destroyCluster, type PostgresCluster, startCluster } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The committed migrations of PostgreSQL, in order. */
const MIGRATIONS = readdirSync(path.join(ROOT, 'generated/prisma/postgresql/migrations'))
  .filter((name) => /^\d{4}_/.test(name))
  .sort();

const eventually = async (check: () => boolean | Promise<boolean>, timeout = 10_000): Promise<void> => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeout) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/**
 * One request on a connection of its own (no keep-alive), so the cluster's scheduler may hand it
 * to any worker. Resolves with the status and parsed JSON body.
 */
function request(
  url: string,
  options: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          connection: 'close',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const graphql = (server: TestServer, query: string, token?: string, variables?: Record<string, unknown>) =>
  request(`${server.url}/graphql`, { method: 'POST', token, body: { query, variables } }) as Promise<{
    status: number;
    body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] };
  }>;

/** A graphql-ws subscriber on a WebSocket of its own; collects the ids of published posts. */
function subscriber(server: TestServer, token: string): { client: Client; ids: string[]; ready: Promise<void> } {
  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authToken: token },
    retryAttempts: 0,
  });
  const ids: string[] = [];
  let acknowledged = (): void => undefined;
  const ready = new Promise<void>((resolve) => (acknowledged = resolve));
  client.on('connected', () => setTimeout(acknowledged, 200));
  client.subscribe<{ postPublished: { id: string } }>(
    { query: 'subscription { postPublished { id } }' },
    { next: (value) => value.data && ids.push(value.data.postPublished.id), error: () => undefined, complete: () => undefined },
  );
  return { client, ids, ready };
}

/** Creates a draft in the admin's org and publishes it, each on a fresh connection; returns its id. */
async function createAndPublish(server: TestServer, token: string, title: string): Promise<string> {
  const created = await graphql(server, 'mutation ($input: CreatePost) { createPost(input: $input) { id } }', token, { input: { title } });
  const id = (created.body.data?.createPost as { id: string } | undefined)?.id;
  if (!id) throw new Error(`createPost failed: ${JSON.stringify(created.body)}`);
  const published = await request(`${server.url}/v2/posts/${id}/publish`, { method: 'POST', token });
  expect(published.status).toBe(200);
  return id;
}

/** Runs one query on a connection of its own to `url`. */
async function query<Row>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** The row count the planner assumes for `table` (`pg_class.reltuples`: -1 until it is first analyzed). */
const plannerRows = async (url: string, table: string): Promise<number> =>
  Number(
    (await query<{ reltuples: number }>(url, 'SELECT reltuples FROM pg_class WHERE oid = $1::regclass', [`"${table}"`]))[0]?.reltuples,
  );

/** The columns of `table` that have planner statistics (`pg_stats`, filled by ANALYZE). */
const columnStatistics = async (url: string, table: string): Promise<string[]> =>
  (
    await query<{ attname: string }>(url, "SELECT attname FROM pg_stats WHERE schemaname = 'public' AND tablename = $1 ORDER BY attname", [
      table,
    ])
  ).map((row) => row.attname);

describe('migrate and seed on PostgreSQL', () => {
  const cli = (args: readonly string[], databaseUrl: string) =>
    spawnSync(process.execPath, cliArguments(args, ROOT), {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, APP_DATABASE__URL: databaseUrl, APP_AUTH__SECRET: TEST_SECRET },
      timeout: 120_000,
    });

  it('reports the migration pending, applies it through the schema engine, then reports it applied', async () => {
    const databaseUrl = await createPostgresDatabase();
    const before = cli(['migrate', 'status'], databaseUrl);
    expect(before.stdout).toBe(`${MIGRATIONS.map((name) => `pending  ${name}\n`).join('')}${MIGRATIONS.length} pending\n`);
    expect(before.status).toBe(1);
    const deployed = cli(['migrate', 'deploy'], databaseUrl);
    expect(deployed.stderr).toBe('');
    expect(deployed.stdout).toBe(`applied ${MIGRATIONS.length} migration(s): ${MIGRATIONS.join(', ')}\n`);
    // ANALYZE ran after the migration (docs/decisions.md §6): an analyzed table counts 0 rows, a never analyzed one -1.
    expect(await plannerRows(databaseUrl, 'Post')).toBe(0);
    const after = cli(['migrate', 'status'], databaseUrl);
    expect(after.stdout).toBe(`${MIGRATIONS.map((name) => `applied  ${name}\n`).join('')}0 pending\n`);
    expect(after.status).toBe(0);
    expect(cli(['migrate', 'deploy'], databaseUrl).stdout).toBe('no pending migrations\n');
    const seeded = cli(['seed', '--orgs', '1', '--users', '3', '--posts', '1', '--json'], databaseUrl);
    expect(seeded.status).toBe(0);
    expect((JSON.parse(seeded.stdout) as { posts: unknown[] }).posts).toHaveLength(3);
    // …and again after the seed: the planner knows the rows and the spread of each column.
    expect(await plannerRows(databaseUrl, 'Post')).toBe(3);
    expect(await columnStatistics(databaseUrl, 'Post')).toEqual(expect.arrayContaining(['authorId', 'orgId', 'reviewerId']));
  });
});

describe('two workers behind one port (APP_HTTP__WORKERS=2)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { APP_HTTP__WORKERS: '2' } });
  });

  afterAll(async () => {
    await server.stop();
  });

  const workerPids = (): number[] =>
    server.logs.filter((entry) => String(entry.msg).match(/^worker \d+ listening$/)).map((entry) => Number(entry.workerPid));

  it('starts both workers, each listening for events on its own PostgreSQL connection', async () => {
    expect(new Set(workerPids()).size).toBe(2);
    const database = new pg.Client({ connectionString: server.databaseUrl });
    await database.connect();
    try {
      const listeners = await database.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'",
      );
      expect(listeners.rowCount).toBe(2);
    } finally {
      await database.end();
    }
  });

  it('forks the workers from a primary that never loads the application, which holds far less memory than they do', () => {
    const residentBytes = (pid: number): number =>
      Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
    const workers = workerPids().map(residentBytes);
    expect(workers).toHaveLength(2);
    // A primary that imported the application (its schema, the Prisma client, the transports) holds
    // about what a worker does (117 MB beside 126–130 MB); one that did not, about 60% of it.
    expect(server.rss()).toBeLessThan(Math.min(...workers) * 0.75);
  });

  it('answers the same on every worker', async () => {
    const token = await server.token('member');
    const answers = await Promise.all(Array.from({ length: 8 }, () => request(`${server.url}/v2/posts?first=5`, { token })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
  });

  it('delivers a post published through any worker to subscribers on every worker', async () => {
    const [viewer, member, admin] = await Promise.all([server.token('viewer'), server.token('member'), server.token('admin')]);
    // Four WebSockets and four publishes on fresh connections: the round-robin scheduler spreads
    // them over both workers, so most deliveries cross from one worker to the other.
    const subscribers = [subscriber(server, viewer), subscriber(server, member), subscriber(server, viewer), subscriber(server, member)];
    try {
      await Promise.all(subscribers.map((each) => each.ready));
      const published: string[] = [];
      for (let index = 0; index < 4; index++) published.push(await createAndPublish(server, admin, `Across workers ${index}`));
      await eventually(() => subscribers.every((each) => each.ids.length >= published.length));
      for (const each of subscribers) expect([...each.ids].sort()).toEqual([...published].sort());
    } finally {
      await Promise.all(subscribers.map(async (each) => each.client.dispose()));
    }
  });

  it('replaces a worker that dies and keeps answering', async () => {
    const [victim] = workerPids();
    process.kill(victim ?? 0, 'SIGKILL');
    await eventually(() => server.logs.some((entry) => String(entry.msg).startsWith('worker') && String(entry.msg).includes('died')));
    await eventually(() => new Set(workerPids()).size === 3);
    const token = await server.token('member');
    const answers = await Promise.all(Array.from({ length: 6 }, () => request(`${server.url}/v2/posts?first=1`, { token })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('a database outage under a running server', () => {
  let cluster: PostgresCluster;
  let server: TestServer;

  beforeAll(async () => {
    // A cluster of its own: stopping it must not disturb the suites sharing the test cluster.
    cluster = await startCluster();
    const databaseUrl = await createTestDatabase('postgresql', cluster.url);
    server = await startTestServer({ databaseUrl, seed: { orgs: 1, users: 3, posts: 2 } });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  it('answers /health 503 and `database error` while the database is down, and recovers by itself', async () => {
    const token = await server.token('admin');
    expect(await request(`${server.url}/health`)).toEqual({ status: 200, body: { status: 'ok', db: 'ok', jobs: 'ok' } });
    const watcher = subscriber(server, token);
    await watcher.ready;
    try {
      cluster.stop();

      // The check behind /health is at most a second old (runtime/transports/health/index.ts).
      await eventually(async () => (await request(`${server.url}/health`)).status === 503, 5_000);
      // pg-boss's own connections cannot reach it either: `jobs` is down with the database.
      await eventually(async () => ((await request(`${server.url}/health`)).body as { jobs?: string }).jobs === 'down', 5_000);
      expect(await request(`${server.url}/health`)).toEqual({ status: 503, body: { status: 'unavailable', db: 'down', jobs: 'down' } });
      const rest = await request(`${server.url}/v2/posts`, { token });
      expect(rest.status).toBe(503);
      expect(rest.body).toMatchObject({ status: 503, code: 'INTERNAL_SERVER_ERROR', detail: 'database error' });
      const query = await graphql(server, '{ posts(first: 2) { id } }', token);
      expect(query.status).toBe(200);
      expect(query.body.errors?.[0]).toMatchObject({ message: 'database error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      const write = await graphql(server, 'mutation { createPost(input: { title: "During the outage" }) { id } }', token);
      expect(write.body.errors?.[0]).toMatchObject({ message: 'database error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });

      cluster.start();

      await eventually(async () => (await request(`${server.url}/health`)).status === 200, 20_000);
      await eventually(async () => (await request(`${server.url}/v2/posts`, { token })).status === 200, 20_000);
      expect((await graphql(server, '{ posts(first: 2) { id } }', token)).body.errors).toBeUndefined();
      // The event listener reconnected too: a publish after the outage reaches the open socket.
      await eventually(async () => {
        const id = await createAndPublish(server, token, 'After the outage');
        await new Promise((resolve) => setTimeout(resolve, 500));
        return watcher.ids.includes(id);
      }, 20_000);
    } finally {
      await watcher.client.dispose();
    }
  }, 90_000);
});

describe('throwaway clusters (test/support/postgres.ts: tests, CI and the benchmark start them)', () => {
  it('leave no folder behind once destroyed, running or stopped, and refuse to remove a folder they did not make', async () => {
    for (const stopFirst of [false, true]) {
      const cluster = await startCluster();
      const folder = path.dirname(cluster.dataDir);
      expect(existsSync(cluster.dataDir)).toBe(true);
      if (stopFirst) cluster.stop();
      cluster.destroy();
      expect(existsSync(folder)).toBe(false);
    }
    expect(() => destroyCluster(os.tmpdir())).toThrow(/not the data folder/);
    expect(() => destroyCluster(path.join(ROOT, 'data'))).toThrow(/not the data folder/);
  }, 60_000);
});
