/**
 * The benchmark's databases (BENCHMARKS.md): real SQLite files with the committed migrations applied.
 *
 * - main: 10 orgs × 1 000 users × 10 posts (100 000 posts), for lists, relations, lookups, writes;
 * - deep: 1 org × 10 users × 100 000 posts each (1 000 000 posts), for keyset depth.
 *
 * Rows are written with better-sqlite3 in one transaction per table (the seed command's Prisma
 * path would take minutes at this size), in the storage format Prisma reads (ISO text dates),
 * then `ANALYZE` and `PRAGMA optimize`. Ids are UUID v7 in insertion order, as the app creates them.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { createAdapterFactory } from '../runtime/data/database.js';
import { applyMigrations } from '../runtime/data/migrations.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** A principal of the seeded data. */
interface BenchUser {
  readonly id: string;
  readonly orgId: string;
  readonly role: 'admin' | 'member' | 'viewer';
}

/** One seeded database. */
interface BenchDatabase {
  readonly url: string;
  readonly file: string;
  readonly member: BenchUser;
  readonly admin: BenchUser;
  /** Post rows in the file. */
  readonly posts: number;
}

/** Both databases, plus the cursor 900 000 rows into the member's readable posts of `deep`. */
export interface BenchData {
  readonly main: BenchDatabase;
  readonly deep: BenchDatabase;
  readonly deepCursor: string;
}

/** Sizes of one database. */
interface Shape {
  readonly orgs: number;
  readonly usersPerOrg: number;
  readonly postsPerUser: number;
  /** One post in this many is a draft. */
  readonly draftEvery: number;
}

/** Role of the user at `index` in its org: admin, member, viewer, then members. */
const roleOf = (index: number): BenchUser['role'] => (index === 0 ? 'admin' : index === 2 ? 'viewer' : 'member');

async function createDatabase(file: string, shape: Shape): Promise<BenchDatabase> {
  mkdirSync(path.dirname(file), { recursive: true });
  const url = `file:${file}`;
  const schema = readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8');
  await applyMigrations(schema, path.join(ROOT, 'generated/prisma/sqlite/migrations'), await createAdapterFactory(url));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const insertOrg = sqlite.prepare('INSERT INTO "Org" ("id", "name") VALUES (?, ?)');
  const insertUser = sqlite.prepare('INSERT INTO "User" ("id", "orgId", "name", "email") VALUES (?, ?, ?, ?)');
  const insertPost = sqlite.prepare('INSERT INTO "Post" ("id", "orgId", "authorId", "title", "body", "status", "publishedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const users: BenchUser[] = [];
  const created = new Date('2026-01-01T00:00:00.000Z');
  const stamp = (offset: number): string => new Date(created.getTime() + offset * 1000).toISOString().replace('Z', '+00:00');
  sqlite.transaction(() => {
    for (let org = 0; org < shape.orgs; org++) {
      const orgId = uuidv7();
      insertOrg.run(orgId, `Org ${org + 1}`);
      for (let index = 0; index < shape.usersPerOrg; index++) {
        const user = { id: uuidv7(), orgId, role: roleOf(index) };
        insertUser.run(user.id, orgId, `User ${index + 1} of org ${org + 1}`, `user${index + 1}@org${org + 1}.example`);
        users.push(user);
      }
    }
  })();
  // Posts interleave their authors (round-robin), so every user's posts spread over the id range.
  let written = 0;
  sqlite.transaction(() => {
    for (let round = 0; round < shape.postsPerUser; round++) {
      for (const user of users) {
        const published = (written + round) % shape.draftEvery !== shape.draftEvery - 1;
        insertPost.run(uuidv7(), user.orgId, user.id, `Post ${round + 1} by ${user.id.slice(-6)}`, 'Seeded for the benchmark.', published ? 'published' : 'draft', published ? stamp(written) : null, stamp(written));
        written++;
      }
    }
  })();
  sqlite.exec('ANALYZE');
  sqlite.pragma('optimize');
  sqlite.close();
  const member = users.find((user) => user.role === 'member');
  const admin = users.find((user) => user.role === 'admin');
  if (!member || !admin) throw new Error('the bench seed needs at least two users per org');
  return { url, file, member, admin, posts: written };
}

/** Creates both databases under `dir` and finds the deep cursor. */
export async function createBenchData(dir: string): Promise<BenchData> {
  const main = await createDatabase(path.join(dir, 'main.db'), { orgs: 10, usersPerOrg: 1_000, postsPerUser: 10, draftEvery: 4 });
  const deep = await createDatabase(path.join(dir, 'deep.db'), { orgs: 1, usersPerOrg: 10, postsPerUser: 100_000, draftEvery: 20 });
  const sqlite = new Database(deep.file, { readonly: true });
  const row = sqlite
    .prepare(`SELECT "id" FROM "Post" WHERE "orgId" = ? AND ("status" = 'published' OR "authorId" = ?) ORDER BY "id" LIMIT 1 OFFSET 899999`)
    .get(deep.member.orgId, deep.member.id) as { id: string } | undefined;
  sqlite.close();
  if (!row) throw new Error('the deep database has fewer than 900 000 readable posts');
  return { main, deep, deepCursor: row.id };
}
