/**
 * Storage (spec §7, PRODUCT.md §2): the committed migrations applied through the wasm schema
 * engine, and database failures reaching clients only as `database error`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterFactory, sqliteFilePath } from '../runtime/database.js';
import { migrationStatus, readMigrationFolders } from '../runtime/migrations.js';
import { createTestDatabase } from './support/database.js';
import { ROOT } from './support/project.js';
import { startTestServer, type TestServer } from './support/server.js';

const schema = readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8');
const migrations = path.join(ROOT, 'generated/prisma/sqlite/migrations');

describe('migrations', () => {
  it('applies every committed migration to a fresh SQLite file and reports none pending', async () => {
    const url = await createTestDatabase();
    const status = await migrationStatus(schema, migrations, createAdapterFactory(url));
    expect(status.pending).toEqual([]);
    expect(status.applied).toEqual(readMigrationFolders(migrations).map((folder) => folder.name));
    const tables = new Database(sqliteFilePath(url), { readonly: true }).prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    expect(tables.map((table) => table.name)).toEqual(['Org', 'Post', 'User', '_prisma_migrations']);
  });

  it('keeps the database in WAL mode once the server opened it', async () => {
    const server = await startTestServer();
    try {
      const journal = new Database(sqliteFilePath(server.databaseUrl), { readonly: true }).pragma('journal_mode', { simple: true });
      expect(journal).toBe('wal');
    } finally {
      await server.stop();
    }
  });
});

describe('database failures (spec §7)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('say only "database error" on the wire and log the details', async () => {
    const token = await server.token('admin');
    const sqlite = new Database(sqliteFilePath(server.databaseUrl));
    sqlite.exec('DROP TABLE "Post"');
    sqlite.close();

    const response = await server.fetch('/v2/posts', { token });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as Record<string, unknown>;
    expect(problem).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'database error', code: 'INTERNAL_SERVER_ERROR' });

    const result = await server.graphql('{ posts { id } orgs { name } }', { token });
    expect(result.errors).toEqual([expect.objectContaining({ message: 'database error', path: ['posts'], extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
    expect(JSON.stringify(result)).not.toMatch(/SQL|sqlite|prisma|no such table|\.ts:/i);

    const logged = server.logs.filter((entry) => entry.level === 50).map((entry) => JSON.stringify(entry));
    expect(logged.some((line) => /no such table/i.test(line))).toBe(true);
  });
});
