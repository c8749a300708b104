/**
 * The floor's PostgreSQL store (BENCHMARKS.md): `pg` with named (server-side prepared) statements,
 * the same hand-written SQL as the SQLite store with `$n` placeholders, a pool of 10 connections.
 */
import pg from 'pg';
import type { FloorStore, PostRow, UserRow } from './floor.js';

/** The first page has no cursor; on PostgreSQL the key is a `uuid`, so "after nothing" is the nil UUID. */
const BEFORE_EVERY_ID = '00000000-0000-0000-0000-000000000000';

/** The floor's store on the PostgreSQL database at `url`. */
export function postgresStore(url: string): FloorStore {
  // `timestamp without time zone` holds UTC (Prisma's `DateTime`): read it as UTC.
  const types: pg.CustomTypesConfig = {
    getTypeParser: (oid, format): unknown =>
      oid === pg.types.builtins.TIMESTAMP && format !== 'binary'
        ? (text: string) => new Date(`${text.replace(' ', 'T')}Z`)
        : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({ connectionString: url, max: 10, types });
  pool.on('error', () => undefined);
  const rows = async <Row>(name: string, text: string, values: unknown[]): Promise<Row[]> =>
    (await pool.query({ name, text, values })).rows as Row[];
  return {
    postsPage: (principal, after, limit) =>
      rows<PostRow>(
        'posts_page',
        `SELECT "id", "orgId", "authorId", "reviewerId", "title", "body", "status", "publishedAt", "createdAt" FROM "Post"
         WHERE "orgId" = $1 AND ("status" = 'published' OR "authorId" = $2) AND "id" > $3 ORDER BY "id" LIMIT $4`,
        [principal.orgId, principal.sub, after ?? BEFORE_EVERY_ID, limit],
      ),
    usersPage: (orgId, after, limit) =>
      rows<UserRow>(
        'users_page',
        'SELECT "id", "orgId", "name", "email" FROM "User" WHERE "orgId" = $1 AND "id" > $2 ORDER BY "id" LIMIT $3',
        [orgId, after ?? BEFORE_EVERY_ID, limit],
      ),
    userById: async (id, orgId) =>
      (
        await rows<UserRow>('user_by_id', 'SELECT "id", "orgId", "name", "email" FROM "User" WHERE "id" = $1 AND "orgId" = $2', [id, orgId])
      )[0],
    orgById: async (id) =>
      (await rows<{ id: string; name: string }>('org_by_id', 'SELECT "id", "name" FROM "Org" WHERE "id" = $1', [id]))[0],
    postsOfUsers: (userIds, principal, limit) =>
      rows<{ id: string; title: string; authorId: string }>(
        'posts_of_users',
        `SELECT "id", "title", "authorId" FROM (
           SELECT "id", "title", "authorId", ROW_NUMBER() OVER (PARTITION BY "authorId" ORDER BY "id") AS "rank" FROM "Post"
           WHERE "authorId" = ANY($1::uuid[]) AND "orgId" = $2 AND ("status" = 'published' OR "authorId" = $3)
         ) AS "ranked" WHERE "rank" <= $4 ORDER BY "authorId", "id"`,
        [userIds, principal.orgId, principal.sub, limit],
      ),
    insertUser: async (id, orgId, name, email) => {
      await pool.query({
        name: 'insert_user',
        text: 'INSERT INTO "User" ("id", "orgId", "name", "email") VALUES ($1, $2, $3, $4)',
        values: [id, orgId, name, email],
      });
    },
    close: () => pool.end(),
  };
}
