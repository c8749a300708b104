// Runs on: sqlite, postgresql
/**
 * Storage on the provider under test (docs/behaviour.md §7, docs/decisions.md §2): the committed migrations applied
 * through the wasm schema engine, database failures reaching clients only as `database error`, and a
 * database with no room to write answered 503 `the database has no room to write` (SQLite's file at
 * its page limit; on PostgreSQL a full tablespace, where a small file system is at hand).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../generated/database.js';
import { createAdapterFactory } from '../../runtime/data/database.js';
import { classifyError } from '../../runtime/failures/errors.js';
import { migrationStatus, readMigrationFolders } from '../../runtime/data/migrations.js';
import { createTestDatabase, runSql, testProvider } from '../support/database.js';
import { ROOT } from '../support/project.js';
import { startTestServer, type TestServer } from '../support/server.js';

const provider = testProvider();
const schema = readFileSync(path.join(ROOT, `generated/prisma/${provider}/schema.prisma`), 'utf8');
const migrations = path.join(ROOT, `generated/prisma/${provider}/migrations`);

describe(`migrations (${provider})`, () => {
  it('applies every committed migration to a fresh database and reports none pending', async () => {
    const url = await createTestDatabase();
    const status = await migrationStatus(schema, migrations, await createAdapterFactory(url));
    expect(status.pending).toEqual([]);
    expect(status.applied).toEqual(readMigrationFolders(migrations).map((folder) => folder.name));
    const query =
      provider === 'sqlite'
        ? "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = \'public\' ORDER BY table_name COLLATE "C"';
    const tables = (await runSql(url, query)).map((table) => String(table.name));
    // SQLite keeps the planner statistics gathered after migrating in its own sqlite_stat tables.
    expect(tables.filter((name) => !name.startsWith('sqlite_stat'))).toEqual([
      'AuditRecord',
      'Category',
      'Comment',
      'Digest',
      'Notification',
      'Org',
      'Post',
      'PostCategory',
      'User',
      '_prisma_migrations',
    ]);
    if (provider === 'sqlite') expect(tables).toContain('sqlite_stat1');
  });
});

describe(`database failures (docs/behaviour.md §7, ${provider})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('say only "database error" on the wire and log the details', async () => {
    const token = await server.token('admin');
    // Notifications refer to posts: PostgreSQL drops the table only with what depends on it.
    await runSql(server.databaseUrl, provider === 'postgresql' ? 'DROP TABLE "Post" CASCADE' : 'DROP TABLE "Post"');

    const response = await server.fetch('/v2/posts', { token });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'database error',
      code: 'INTERNAL_SERVER_ERROR',
      requestId: expect.any(String) as unknown,
    });

    const result = await server.graphql('{ posts { id } orgs { name } }', { token });
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: 'database error',
        path: ['posts'],
        extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: expect.any(String) as unknown },
      }),
    ]);
    expect(JSON.stringify(result)).not.toMatch(/SQL|sqlite|postgres|prisma|no such table|does not exist|\.ts:/i);

    const logged = server.logs.filter((entry) => entry.level === 50).map((entry) => JSON.stringify(entry));
    expect(logged.some((line) => /no such table|does not exist/i.test(line))).toBe(true);
  });
});

describe(`a database with no room to write (docs/behaviour.md §7, ${provider})`, () => {
  /** Creates posts of 9 000 random characters (PostgreSQL compresses a repeated one to nothing) until one is refused; that answer, and how many went in. */
  async function fill(server: TestServer): Promise<{ refused: Response; written: number }> {
    const token = await server.token('admin');
    for (let written = 0; written < 400; written++) {
      const response = await server.fetch('/v2/posts', {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Filler ${String(written)}`, body: randomBytes(6_750).toString('base64') }),
      });
      if (response.status !== 201) return { refused: response, written };
      await response.arrayBuffer();
    }
    throw new Error('400 posts of 9 000 characters went in: the database never filled');
  }

  /** `/health`'s answer once it is `status` (its answer is reused for up to a second). */
  async function healthOnce(server: TestServer, status: number): Promise<Record<string, unknown>> {
    let answer: Response | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      answer = await server.fetch('/health');
      if (answer.status === status) return (await answer.json()) as Record<string, unknown>;
      await answer.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`/health never answered ${String(status)} (last ${String(answer?.status)})`);
  }

  const FULL = {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'the database has no room to write',
    code: 'INTERNAL_SERVER_ERROR',
  };

  it.runIf(provider === 'sqlite')(
    'refuses writes with 503 "the database has no room to write" (SQLITE_FULL), logged, reads kept, and /health says db: full',
    async () => {
      // The file may grow by 64 pages (256 KiB): /health says ok until fewer than 16 are left.
      const server = await startTestServer({ entry: 'test/fixtures/full-database-server.ts', env: { FULL_DATABASE_ROOM_PAGES: '64' } });
      try {
        expect(await healthOnce(server, 200)).toMatchObject({ status: 'ok', db: 'ok' });
        const { refused, written } = await fill(server);
        expect(written).toBeGreaterThan(3);
        expect(refused.status).toBe(503);
        expect(await refused.json()).toEqual({ ...FULL, requestId: expect.any(String) as unknown });
        const token = await server.token('admin');
        const graphql = await server.graphql('mutation { createPost(input: { title: "t", body: "x" }) { id } }', { token });
        if (graphql.errors)
          expect(graphql.errors[0]).toMatchObject({ message: FULL.detail, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
        expect((await server.fetch('/v2/posts?first=1', { token })).status).toBe(200);
        expect(await healthOnce(server, 503)).toMatchObject({ status: 'unavailable', db: 'full' });
        const logged = server.logs.filter((entry) => entry.level === 50).map((entry) => JSON.stringify(entry));
        expect(logged.some((line) => line.includes('SQLITE_FULL'))).toBe(true);
      } finally {
        await server.stop();
      }
    },
  );

  it.runIf(provider === 'sqlite')("classifies Prisma's own SQLITE_FULL as the database having no room to write", async () => {
    const url = await createTestDatabase();
    const factory = await createAdapterFactory(url);
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const connection = await connect();
      const driver = (connection as unknown as { client: { pragma(text: string, options?: { simple: boolean }): unknown } }).client;
      driver.pragma(`max_page_count = ${String(Number(driver.pragma('page_count', { simple: true })) + 2)}`);
      return connection;
    };
    const database = await createDatabase(factory);
    try {
      let refusal: unknown;
      for (let index = 0; index < 50 && refusal === undefined; index++)
        refusal = await database.org
          .create({ data: { id: uuidv7(), name: 'y'.repeat(5_000) } })
          .then(() => undefined)
          .catch((error: unknown) => error);
      expect((refusal as Error | undefined)?.name).toBe('PrismaClientKnownRequestError');
      expect(classifyError(refusal)).toEqual({ kind: 'database', unavailable: true, message: FULL.detail });
    } finally {
      await database.$disconnect();
    }
  });

  // A real full disk under PostgreSQL: a tablespace on a small file system, which the machine's
  // operator mounts and gives the server's user (the test needs no rights beyond the cluster's). The
  // server cannot see PostgreSQL's disk, so /health keeps saying what a read finds.
  const tablespaceDirectory = process.env.TEST_POSTGRES_FULL_TABLESPACE_DIR;
  it.runIf(provider === 'postgresql' && tablespaceDirectory !== undefined)(
    'refuses writes with 503 "the database has no room to write" (53100) on a full tablespace, reads kept, /health still db: ok',
    async () => {
      const server = await startTestServer();
      const tablespace = `rs_full_${uuidv7().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE TABLESPACE ${tablespace} LOCATION '${String(tablespaceDirectory)}'`);
        await runSql(server.databaseUrl, `ALTER TABLE "Post" SET TABLESPACE ${tablespace}`);
        const { refused } = await fill(server);
        expect(refused.status).toBe(503);
        expect(await refused.json()).toEqual({ ...FULL, requestId: expect.any(String) as unknown });
        expect((await server.fetch('/v2/posts?first=1', { token: await server.token('admin') })).status).toBe(200);
        expect(await healthOnce(server, 200)).toMatchObject({ status: 'ok', db: 'ok' });
        const logged = server.logs.filter((entry) => entry.level === 50).map((entry) => JSON.stringify(entry));
        expect(logged.some((line) => line.includes('53100'))).toBe(true);
      } finally {
        await server.stop();
        await runSql(server.databaseUrl, 'DROP TABLE "Post" CASCADE').catch(() => undefined);
        await admin.query(`DROP TABLESPACE IF EXISTS ${tablespace}`).catch(() => undefined);
        await admin.end();
      }
    },
  );
});
