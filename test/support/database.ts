/**
 * Real databases for tests — a SQLite file, or a database on the PostgreSQL test cluster — with the
 * committed migrations applied, optionally seeded with the demo data.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { createDatabase, type Database } from '../../generated/database.js';
import { type SeedResult, seed } from '../../entities/seed.js';
import { runUnscoped } from '../../runtime/auth/context.js';
import { createAdapterFactory, type DatabaseOptions } from '../../runtime/data/database.js';
import type { DatabaseName } from '../../runtime/dialects/index.js';
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import { applyMigrations } from '../../runtime/data/migrations.js';
import { ROOT, scratchDir } from './project.js';

/** Sizes of the demo seed. */
export interface SeedSizes {
  readonly orgs: number;
  readonly users: number;
  readonly posts: number;
}

/** The database provider this test run targets (`TEST_DATABASE`, set per vitest project). */
export function testProvider(): DatabaseName {
  return process.env.TEST_DATABASE === 'postgresql' ? 'postgresql' : 'sqlite';
}

/**
 * A new database on the cluster at `admin` (default `TEST_POSTGRES_URL`): empty, or a copy of the
 * database named `template` (which nothing may be connected to meanwhile). Returns its URL.
 */
export async function createPostgresDatabase(admin = process.env.TEST_POSTGRES_URL, template?: string): Promise<string> {
  if (!admin) throw new Error('TEST_POSTGRES_URL is not set: the postgresql project needs a cluster (test/support/postgres.ts)');
  const name = `rs_${randomUUID().replace(/-/g, '')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"${template === undefined ? '' : ` TEMPLATE "${template.replaceAll('"', '""')}"`}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh migrated database of the provider under test: a SQLite file in a temporary folder, or a
 * new database on the PostgreSQL test cluster (or on the cluster at `postgresUrl`). Returns its URL.
 */
export async function createTestDatabase(provider: DatabaseName = testProvider(), postgresUrl?: string): Promise<string> {
  const url = provider === 'postgresql' ? await createPostgresDatabase(postgresUrl) : `file:${path.join(scratchDir('rs-test-'), 'app.db')}`;
  const schema = readFileSync(path.join(ROOT, `generated/prisma/${provider}/schema.prisma`), 'utf8');
  await applyMigrations(schema, path.join(ROOT, `generated/prisma/${provider}/migrations`), await createAdapterFactory(url));
  return url;
}

/** Opens the generated Prisma client on `url` (close it with `$disconnect`). */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const database = await createDatabase(await createAdapterFactory(url), options);
  return database;
}

/** Seeds the demo data into `url` (unscoped, like a job) and closes the connection. */
export async function seedDatabase(url: string, sizes: SeedSizes): Promise<SeedResult> {
  const database = await openDatabase(url);
  try {
    return await runUnscoped(() => seed(database, sizes));
  } finally {
    await database.$disconnect();
  }
}

/**
 * Runs one SQL statement on the database at `url` (of the provider under test) with its driver,
 * outside any server; returns the rows of a `SELECT`, else none.
 */
export async function runSql(url: string, sql: string): Promise<Record<string, unknown>[]> {
  if (testProvider() === 'sqlite') {
    const sqlite = new Sqlite(sqliteFilePath(url));
    try {
      return sql.trim().toUpperCase().startsWith('SELECT')
        ? (sqlite.prepare(sql).all() as Record<string, unknown>[])
        : (sqlite.exec(sql), []);
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
