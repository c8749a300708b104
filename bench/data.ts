/**
 * The benchmark's databases (BENCHMARKS.md): real SQLite files, and real PostgreSQL databases in a
 * throwaway cluster, with the committed migrations applied and the same rows in each.
 *
 * - main: 10 orgs × 1 000 users × 10 posts (100 000 posts), for lists, relations, lookups, writes;
 * - deep: 1 org × 10 users × 100 000 posts each (1 000 000 posts), for keyset depth.
 *
 * Rows are written with the driver, not Prisma (the seed command's Prisma path would take minutes
 * at this size): on SQLite with better-sqlite3 in one transaction per table, in the storage format
 * Prisma reads (ISO text dates); on PostgreSQL 20 000 rows per `INSERT … SELECT FROM unnest(…)`.
 * Then the planner's statistics (`ANALYZE` and `PRAGMA optimize`; `VACUUM ANALYZE`). Ids are UUID
 * v7 in insertion order, as the app creates them.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { createAdapterFactory } from '../runtime/data/database.js';
import { applyMigrations } from '../runtime/data/migrations.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The databases the benchmark runs on. */
export type BenchDatabaseKind = 'sqlite' | 'postgresql';

/** A principal of the seeded data. */
interface BenchUser {
  readonly id: string;
  readonly orgId: string;
  readonly role: 'admin' | 'member' | 'viewer';
}

/** One seeded database. */
interface BenchDatabase {
  readonly url: string;
  readonly member: BenchUser;
  readonly admin: BenchUser;
  /** Post rows in the database. */
  readonly posts: number;
}

/** Both databases, plus the cursor 900 000 rows into the member's readable posts of `deep`. */
export interface BenchData {
  readonly kind: BenchDatabaseKind;
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

const MAIN: Shape = { orgs: 10, usersPerOrg: 1_000, postsPerUser: 10, draftEvery: 4 };
const DEEP: Shape = { orgs: 1, usersPerOrg: 10, postsPerUser: 100_000, draftEvery: 20 };

/** Role of the user at `index` in its org: admin, member, viewer, then members. */
const roleOf = (index: number): BenchUser['role'] => (index === 0 ? 'admin' : index === 2 ? 'viewer' : 'member');

type OrgRow = [id: string, name: string];
type UserRow = [id: string, orgId: string, name: string, email: string];
type PostRow = [
  id: string,
  orgId: string,
  authorId: string,
  title: string,
  body: string,
  status: string,
  publishedAt: string | null,
  createdAt: string,
];

/** The rows of one database: orgs and users at once, posts in batches (a million rows do not fit comfortably at once). */
function rowsOf(shape: Shape): {
  orgs: OrgRow[];
  users: UserRow[];
  principals: BenchUser[];
  posts: (batch: number) => Generator<PostRow[]>;
} {
  const orgs: OrgRow[] = [];
  const users: UserRow[] = [];
  const principals: BenchUser[] = [];
  for (let org = 0; org < shape.orgs; org++) {
    const orgId = uuidv7();
    orgs.push([orgId, `Org ${org + 1}`]);
    for (let index = 0; index < shape.usersPerOrg; index++) {
      const id = uuidv7();
      users.push([id, orgId, `User ${index + 1} of org ${org + 1}`, `user${index + 1}@org${org + 1}.example`]);
      principals.push({ id, orgId, role: roleOf(index) });
    }
  }
  const created = new Date('2026-01-01T00:00:00.000Z').getTime();
  const stamp = (offset: number): string => new Date(created + offset * 1000).toISOString();
  // Posts interleave their authors (round-robin), so every user's posts spread over the id range.
  function* posts(batch: number): Generator<PostRow[]> {
    let written = 0;
    let rows: PostRow[] = [];
    for (let round = 0; round < shape.postsPerUser; round++) {
      for (const user of principals) {
        const published = (written + round) % shape.draftEvery !== shape.draftEvery - 1;
        rows.push([
          uuidv7(),
          user.orgId,
          user.id,
          `Post ${round + 1} by ${user.id.slice(-6)}`,
          'Seeded for the benchmark.',
          published ? 'published' : 'draft',
          published ? stamp(written) : null,
          stamp(written),
        ]);
        written++;
        if (rows.length === batch) {
          yield rows;
          rows = [];
        }
      }
    }
    if (rows.length > 0) yield rows;
  }
  return { orgs, users, principals, posts };
}

function principalsOf(principals: readonly BenchUser[]): { member: BenchUser; admin: BenchUser } {
  const member = principals.find((user) => user.role === 'member');
  const admin = principals.find((user) => user.role === 'admin');
  if (!member || !admin) throw new Error('the bench seed needs at least two users per org');
  return { member, admin };
}

async function createSqliteDatabase(file: string, shape: Shape): Promise<BenchDatabase> {
  mkdirSync(path.dirname(file), { recursive: true });
  const url = `file:${file}`;
  const schema = readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8');
  await applyMigrations(schema, path.join(ROOT, 'generated/prisma/sqlite/migrations'), await createAdapterFactory(url));
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const insertOrg = sqlite.prepare('INSERT INTO "Org" ("id", "name") VALUES (?, ?)');
  const insertUser = sqlite.prepare('INSERT INTO "User" ("id", "orgId", "name", "email") VALUES (?, ?, ?, ?)');
  const insertPost = sqlite.prepare(
    'INSERT INTO "Post" ("id", "orgId", "authorId", "title", "body", "status", "publishedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const rows = rowsOf(shape);
  // SQLite keeps Prisma's ISO text with an explicit offset.
  const stored = (date: string | null): string | null => (date === null ? null : date.replace('Z', '+00:00'));
  let written = 0;
  sqlite.transaction(() => {
    for (const org of rows.orgs) insertOrg.run(...org);
    for (const user of rows.users) insertUser.run(...user);
  })();
  for (const batch of rows.posts(50_000)) {
    sqlite.transaction(() => {
      for (const [id, orgId, authorId, title, body, status, publishedAt, createdAt] of batch)
        insertPost.run(id, orgId, authorId, title, body, status, stored(publishedAt), stored(createdAt));
    })();
    written += batch.length;
  }
  sqlite.exec('ANALYZE');
  sqlite.pragma('optimize');
  sqlite.close();
  return { url, ...principalsOf(rows.principals), posts: written };
}

/** The same data in database `name` of the cluster at `clusterUrl` (created here). */
async function createPostgresDatabase(clusterUrl: string, name: string, shape: Shape): Promise<BenchDatabase> {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(clusterUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const schema = readFileSync(path.join(ROOT, 'generated/prisma/postgresql/schema.prisma'), 'utf8');
  await applyMigrations(schema, path.join(ROOT, 'generated/prisma/postgresql/migrations'), await createAdapterFactory(url));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = rowsOf(shape);
  const column = (table: readonly (readonly unknown[])[], index: number): unknown[] => table.map((row) => row[index]);
  let written = 0;
  try {
    await client.query('INSERT INTO "Org" ("id", "name") SELECT * FROM unnest($1::uuid[], $2::text[])', [
      column(rows.orgs, 0),
      column(rows.orgs, 1),
    ]);
    await client.query(
      'INSERT INTO "User" ("id", "orgId", "name", "email") SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[])',
      [0, 1, 2, 3].map((index) => column(rows.users, index)),
    );
    for (const batch of rows.posts(20_000)) {
      await client.query(
        `INSERT INTO "Post" ("id", "orgId", "authorId", "title", "body", "status", "publishedAt", "createdAt")
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::"PostStatus"[], $7::timestamp[], $8::timestamp[])`,
        [0, 1, 2, 3, 4, 5, 6, 7].map((index) => column(batch, index)),
      );
      written += batch.length;
    }
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  return { url, ...principalsOf(rows.principals), posts: written };
}

/** The id 900 000 rows into the member's readable posts, in keyset order. */
async function deepCursorOf(kind: BenchDatabaseKind, deep: BenchDatabase): Promise<string> {
  const text = `SELECT "id" FROM "Post" WHERE "orgId" = $1 AND ("status" = 'published' OR "authorId" = $2) ORDER BY "id" LIMIT 1 OFFSET 899999`;
  let id: string | undefined;
  if (kind === 'sqlite') {
    const sqlite = new Database(deep.url.replace(/^file:/, ''), { readonly: true });
    id = (sqlite.prepare(text.replace(/\$\d/g, '?')).get(deep.member.orgId, deep.member.id) as { id: string } | undefined)?.id;
    sqlite.close();
  } else {
    const client = new pg.Client({ connectionString: deep.url });
    await client.connect();
    id = (await client.query<{ id: string }>(text, [deep.member.orgId, deep.member.id])).rows[0]?.id;
    await client.end();
  }
  if (!id) throw new Error('the deep database has fewer than 900 000 readable posts');
  return id;
}

/**
 * Creates both databases: SQLite files under `dir`, or databases `bench_main` and `bench_deep` in
 * the PostgreSQL cluster at `clusterUrl`; and finds the deep cursor. `deep: false` seeds the main one only.
 */
export async function createBenchData(
  kind: BenchDatabaseKind,
  where: { dir: string; clusterUrl?: string },
  options: { deep?: boolean } = {},
): Promise<BenchData> {
  const create = (name: string, shape: Shape): Promise<BenchDatabase> => {
    if (kind === 'sqlite') return createSqliteDatabase(path.join(where.dir, `${name}.db`), shape);
    if (!where.clusterUrl) throw new Error('PostgreSQL data needs a cluster');
    return createPostgresDatabase(where.clusterUrl, `bench_${name}`, shape);
  };
  const main = await create('main', MAIN);
  // Without the deep database (profiles of one scenario), `deep` is the main one and has no cursor.
  if (options.deep === false) return { kind, main, deep: main, deepCursor: '' };
  const deep = await create('deep', DEEP);
  return { kind, main, deep, deepCursor: await deepCursorOf(kind, deep) };
}
