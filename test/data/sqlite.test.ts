/**
 * SQLite specifics (docs/decisions.md §2): the embedded database runs in WAL mode, so readers do not
 * block the writer and a process crash loses no acknowledged write.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import { createTestDatabase, openDatabase } from '../support/database.js';
import { startTestServer } from '../support/server.js';

describe('SQLite', () => {
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

describe('SQLite connection settings', () => {
  it('opens every Prisma connection with synchronous=NORMAL, foreign keys on and a busy timeout', async () => {
    const database = await openDatabase(await createTestDatabase('sqlite'));
    try {
      const read = async (pragma: string): Promise<number> =>
        Number(Object.values((await database.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${pragma}`))[0] ?? {})[0]);
      expect(await read('synchronous')).toBe(1);
      expect(await read('foreign_keys')).toBe(1);
      expect(await read('busy_timeout')).toBe(5000);
      expect(String(Object.values((await database.$queryRawUnsafe<Record<string, unknown>[]>('PRAGMA journal_mode'))[0] ?? {})[0])).toBe(
        'wal',
      );
    } finally {
      await database.$disconnect();
    }
  });
});

describe('APP_HTTP__WORKERS on SQLite', () => {
  it('refuses several workers at boot, naming the variable and the fix, without a stack trace', async () => {
    const started = startTestServer({ env: { APP_HTTP__WORKERS: '2' } });
    const failure = await started.then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    expect(failure).toContain('server exited with 1');
    expect(failure).toContain('APP_HTTP__WORKERS: 2 workers need PostgreSQL (APP_DATABASE__URL=postgres://…)');
    expect(failure).toContain('set APP_HTTP__WORKERS=1');
    expect(failure).not.toMatch(/\n\s+at /);
  });
});
