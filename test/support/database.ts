/**
 * Real SQLite files for tests: a fresh temporary database with the committed migrations
 * applied, optionally seeded with the demo data.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Database } from '../../generated/database.js';
import { type SeedResult, seed } from '../../entities/seed.js';
import { runUnscoped } from '../../runtime/context.js';
import { configureConnection, createAdapterFactory } from '../../runtime/database.js';
import { applyMigrations } from '../../runtime/migrations.js';
import { ROOT } from './project.js';

/** Sizes of the demo seed. */
export interface SeedSizes {
  readonly orgs: number;
  readonly users: number;
  readonly posts: number;
}

/** A fresh migrated SQLite file in a temporary folder; returns its `file:` URL. */
export async function createTestDatabase(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rs-test-'));
  const url = `file:${path.join(dir, 'app.db')}`;
  const schema = readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8');
  await applyMigrations(schema, path.join(ROOT, 'generated/prisma/sqlite/migrations'), createAdapterFactory(url));
  return url;
}

/** Opens the generated Prisma client on `url` (close it with `$disconnect`). */
export async function openDatabase(url: string): Promise<Database> {
  const database = createDatabase(createAdapterFactory(url));
  await configureConnection(database, 'sqlite');
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
