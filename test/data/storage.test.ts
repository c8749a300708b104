// Runs on: sqlite, postgresql
/**
 * Storage on the provider under test (docs/behaviour.md §7, docs/decisions.md §2): the committed migrations applied
 * through the wasm schema engine, and database failures reaching clients only as `database error`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterFactory } from '../../runtime/data/database.js';
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
