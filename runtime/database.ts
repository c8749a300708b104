/**
 * Opening the database (PRODUCT.md §2): the driver adapter is chosen from the URL scheme —
 * `file:` → SQLite through better-sqlite3 (WAL mode), `postgres://` → PostgreSQL through pg —
 * and handed to the generated Prisma client of that provider.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { RawQueryClient } from './repository.js';

/** Database providers the generated server runs on. */
export type DatabaseProvider = 'sqlite' | 'postgresql';

/** The minimum of a Prisma client the runtime itself calls. */
export interface DatabaseClient extends RawQueryClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $disconnect(): Promise<void>;
}

/** Options of the generated `createDatabase`. */
export interface DatabaseOptions {
  /** Called with the text of every SQL statement the client sends (tests, benchmarks). */
  readonly onQuery?: (sql: string) => void;
}

/** The provider a database URL selects. Throws for an unsupported scheme. */
export function providerOf(url: string): DatabaseProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`unsupported database URL ${JSON.stringify(url.replace(/\/\/[^@]*@/, '//…@'))}: use file:<path> or postgres://…`);
}

/** The absolute path of a `file:` URL's SQLite database, resolved against `cwd`. */
export function sqliteFilePath(url: string, cwd = process.cwd()): string {
  return path.resolve(cwd, url.slice('file:'.length).replace(/\?.*$/, ''));
}

/**
 * The Prisma driver adapter factory for `url`. For SQLite, creates the database folder; the
 * file itself is created by the first connection.
 */
export function createAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  if (providerOf(url) === 'sqlite') {
    const file = sqliteFilePath(url);
    mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 5000 });
  }
  return new PrismaPg({ connectionString: url });
}

/**
 * Per-connection settings for a freshly opened client. SQLite: WAL journal (readers do not block
 * the writer; a crash loses no acknowledged write), `synchronous=NORMAL` (durable against
 * process crashes in WAL mode), foreign keys enforced.
 */
export async function configureConnection(client: DatabaseClient, provider: DatabaseProvider): Promise<void> {
  if (provider !== 'sqlite') return;
  await client.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await client.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
  await client.$queryRawUnsafe('PRAGMA foreign_keys = ON');
}

/** Whether the database answers a trivial query (`/health`). */
export async function isDatabaseReachable(client: DatabaseClient): Promise<boolean> {
  try {
    await client.$queryRawUnsafe('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
