/**
 * The floor (BENCHMARKS.md): `node:http` + the database's driver (`better-sqlite3`, or `pg` in
 * ./floor-postgres.ts) + `jose`, hand-written SQL, no framework — the least work that produces the
 * same answers as the generated server for the benchmark's requests. It knows its GraphQL documents by heart (no parser, no validation, no executor) and
 * implements only the member and admin grants the benchmark uses. Every other server is measured
 * as a ratio to this one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { DOCUMENTS } from '../scenarios.js';
import type { BenchServer, ServerOptions } from './types.js';

/** The caller, from the bearer token. */
export interface Principal {
  readonly sub: string;
  readonly orgId: string;
  readonly role: string;
}

/** A post as the REST list answers it (dates as the driver reads them). */
export interface PostRow {
  id: string;
  orgId: string;
  authorId: string;
  reviewerId: string | null;
  title: string;
  body: string;
  status: string;
  publishedAt: string | Date | null;
  createdAt: string | Date;
}

/** A user row of the benchmark's answers. */
export interface UserRow {
  id: string;
  orgId: string;
  name: string;
  email: string;
}

/**
 * The floor's hand-written SQL on one database: each method one statement (`count` is called once
 * per statement by the caller). The SQLite store answers synchronously, the PostgreSQL one with
 * promises; the floor awaits either.
 */
export interface FloorStore {
  /** The member's readable posts after `after` (`undefined`: the first page), at most `limit`, by id. */
  postsPage(principal: Principal, after: string | undefined, limit: number): PostRow[] | Promise<PostRow[]>;
  /** The org's users after `after`, at most `limit`, by id. */
  usersPage(orgId: string, after: string | undefined, limit: number): UserRow[] | Promise<UserRow[]>;
  userById(id: string, orgId: string): UserRow | undefined | Promise<UserRow | undefined>;
  orgById(id: string): { id: string; name: string } | undefined | Promise<{ id: string; name: string } | undefined>;
  /** The first `limit` readable posts of each of `userIds`, window-ranked in one statement, ordered by author then id. */
  postsOfUsers(
    userIds: readonly string[],
    principal: Principal,
    limit: number,
  ): { id: string; title: string; authorId: string }[] | Promise<{ id: string; title: string; authorId: string }[]>;
  /** Inserts a user; rejects (throws) on a unique violation. */
  insertUser(id: string, orgId: string, name: string, email: string): void | Promise<void>;
  close(): void | Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The page size of docs/behaviour.md §8: absent or unparseable 20, clamped to 1..100. */
function pageSize(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 20;
  const value = Number(raw);
  return Number.isFinite(value) ? Math.min(100, Math.max(1, Math.trunc(value))) : 20;
}

/** A stored date (SQLite's ISO text `…+00:00`, or pg's `Date`) as the wire's `…Z`. */
const isoDate = (value: string | Date | null): string | null =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/** The SQLite store: better-sqlite3 prepared statements. */
function sqliteStore(databaseUrl: string): FloorStore {
  const sqlite = new Database(databaseUrl.replace(/^file:/, ''));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Reads bind `+?`, as the generated server's SQL runner does (docs/decisions.md §6, "SQLite plans that
  // do not depend on bound values"): with STAT4 statistics a bare `?` in an indexed constraint has
  // SQLite prepare the statement again on every run.
  // Member scope of posts: published in the org, or the member's own.
  const postsPage = sqlite.prepare<[string, string, string, number]>(
    `SELECT "id", "orgId", "authorId", "reviewerId", "title", "body", "status", "publishedAt", "createdAt" FROM "Post"
     WHERE "orgId" = +? AND ("status" = 'published' OR "authorId" = +?) AND "id" > +? ORDER BY "id" LIMIT +?`,
  );
  const usersPage = sqlite.prepare<[string, string, number]>(
    'SELECT "id", "orgId", "name", "email" FROM "User" WHERE "orgId" = +? AND "id" > +? ORDER BY "id" LIMIT +?',
  );
  const userById = sqlite.prepare<[string, string]>('SELECT "id", "orgId", "name", "email" FROM "User" WHERE "id" = +? AND "orgId" = +?');
  const orgById = sqlite.prepare<[string]>('SELECT "id", "name" FROM "Org" WHERE "id" = +?');
  const insertUser = sqlite.prepare<[string, string, string, string]>(
    'INSERT INTO "User" ("id", "orgId", "name", "email") VALUES (?, ?, ?, ?)',
  );
  // One prepared window statement per parent count, as a hand-tuned server would keep them.
  const windows = new Map<number, Database.Statement>();
  const windowFor = (parents: number): Database.Statement => {
    let statement = windows.get(parents);
    if (!statement) {
      const placeholders = Array.from({ length: parents }, () => '+?').join(', ');
      statement = sqlite.prepare(
        `SELECT "id", "title", "authorId" FROM (
           SELECT "id", "title", "authorId", ROW_NUMBER() OVER (PARTITION BY "authorId" ORDER BY "id") AS "rank" FROM "Post"
           WHERE "authorId" IN (${placeholders}) AND "orgId" = +? AND ("status" = 'published' OR "authorId" = +?)
         ) WHERE "rank" <= +? ORDER BY "authorId", "id"`,
      );
      windows.set(parents, statement);
    }
    return statement;
  };
  return {
    postsPage: (principal, after, limit) => postsPage.all(principal.orgId, principal.sub, after ?? '', limit) as PostRow[],
    usersPage: (orgId, after, limit) => usersPage.all(orgId, after ?? '', limit) as UserRow[],
    userById: (id, orgId) => userById.get(id, orgId) as UserRow | undefined,
    orgById: (id) => orgById.get(id) as { id: string; name: string } | undefined,
    postsOfUsers: (userIds, principal, limit) =>
      windowFor(userIds.length).all(...userIds, principal.orgId, principal.sub, limit) as { id: string; title: string; authorId: string }[],
    insertUser: (id, orgId, name, email) => {
      insertUser.run(id, orgId, name, email);
    },
    close: () => {
      sqlite.close();
    },
  };
}

/** Starts the floor on `options.port`, on the store of `options.databaseUrl`'s database. */
export async function startFloor(options: ServerOptions): Promise<BenchServer> {
  const store = options.databaseUrl.startsWith('file:')
    ? sqliteStore(options.databaseUrl)
    : (await import('./floor-postgres.js')).postgresStore(options.databaseUrl);
  const secret = new TextEncoder().encode(options.secret);
  const count = (): void => options.onQuery?.('floor');

  const postsOfUsers = async (
    userIds: readonly string[],
    principal: Principal,
    first: number,
  ): Promise<Map<string, { id: string; title: string }[]>> => {
    const rows = await store.postsOfUsers(userIds, principal, first + 1);
    count();
    const byUser = new Map<string, { id: string; title: string }[]>();
    for (const row of rows) {
      const list = byUser.get(row.authorId) ?? [];
      list.push({ id: row.id, title: row.title });
      byUser.set(row.authorId, list);
    }
    return byUser;
  };

  const nested = async (principal: Principal, first: number): Promise<unknown> => {
    const users = await store.usersPage(principal.orgId, undefined, first);
    count();
    const org = await store.orgById(principal.orgId);
    count();
    const posts = await postsOfUsers(
      users.map((user) => user.id),
      principal,
      10,
    );
    return {
      users: users.map((user) => {
        const rows = posts.get(user.id) ?? [];
        const visible = rows.slice(0, 10);
        const last = visible.at(-1);
        return {
          id: user.id,
          name: user.name,
          org: user.orgId === principal.orgId && org ? { id: org.id, name: org.name } : null,
          posts: {
            edges: visible.map((post) => ({ cursor: post.id, node: { id: post.id, title: post.title } })),
            pageInfo: { hasNextPage: rows.length > 10, endCursor: last ? last.id : null },
          },
        };
      }),
    };
  };

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    response.end(text);
  };

  const authenticate = async (request: IncomingMessage): Promise<Principal | undefined> => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return undefined;
    try {
      const { payload } = await jwtVerify(header.slice(7), secret, { algorithms: ['HS256'] });
      return { sub: String(payload.sub), orgId: String(payload.org_id), role: String(payload.role) };
    } catch {
      return undefined;
    }
  };

  const readBody = (request: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (text += chunk));
      request.on('end', () => resolve(text));
      request.on('error', reject);
    });

  const graphql = async (
    principal: Principal,
    body: { query?: string; variables?: Record<string, unknown> },
  ): Promise<{ status: number; body: unknown }> => {
    switch (body.query) {
      case DOCUMENTS.nested:
        return { status: 200, body: { data: await nested(principal, 20) } };
      case DOCUMENTS.nested100:
        return { status: 200, body: { data: await nested(principal, 100) } };
      case DOCUMENTS.users: {
        const users = await store.usersPage(principal.orgId, undefined, 20);
        count();
        return { status: 200, body: { data: { users: users.map((user) => ({ id: user.id, name: user.name })) } } };
      }
      case DOCUMENTS.user: {
        const id = typeof body.variables?.id === 'string' ? body.variables.id : '';
        const user = UUID.test(id) ? await store.userById(id, principal.orgId) : undefined;
        count();
        return { status: 200, body: { data: { user: user ? { id: user.id, name: user.name, email: user.email } : null } } };
      }
      case DOCUMENTS.createUser: {
        const input = body.variables?.input as { name?: unknown; email?: unknown } | undefined;
        const name = typeof input?.name === 'string' ? input.name.trim() : '';
        const email = typeof input?.email === 'string' ? input.email : '';
        if (principal.role !== 'admin')
          return {
            status: 200,
            body: { errors: [{ message: 'forbidden', extensions: { code: 'FORBIDDEN' } }], data: { createUser: null } },
          };
        if (!name || name.length > 100 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
          return {
            status: 200,
            body: { errors: [{ message: 'invalid input', extensions: { code: 'BAD_USER_INPUT' } }], data: { createUser: null } },
          };
        const id = uuidv7();
        try {
          await store.insertUser(id, principal.orgId, name, email);
        } catch {
          return {
            status: 200,
            body: { errors: [{ message: 'email taken', extensions: { code: 'CONFLICT' } }], data: { createUser: null } },
          };
        }
        count();
        return { status: 200, body: { data: { createUser: { id, name, email } } } };
      }
      default:
        return { status: 400, body: { errors: [{ message: 'the floor answers only the benchmark documents' }] } };
    }
  };

  const server = createServer((request, response) => {
    void (async () => {
      const principal = await authenticate(request);
      if (!principal) {
        send(response, 401, { code: 'UNAUTHENTICATED' });
        return;
      }
      const url = new URL(request.url ?? '/', 'http://floor');
      if (request.method === 'GET' && (url.pathname === '/v2/posts' || url.pathname === '/users')) {
        const first = pageSize(url.searchParams.getAll('first').length === 1 ? url.searchParams.get('first') : undefined);
        const afterValues = url.searchParams.getAll('after');
        const after = afterValues.length === 1 && UUID.test(afterValues[0] ?? '') ? (afterValues[0] ?? '').toLowerCase() : undefined;
        const rows: { id: string }[] =
          url.pathname === '/users'
            ? await store.usersPage(principal.orgId, after, first + 1)
            : (await store.postsPage(principal, after, first + 1)).map((row) => ({
                ...row,
                publishedAt: isoDate(row.publishedAt),
                createdAt: isoDate(row.createdAt),
              }));
        count();
        const items = rows.slice(0, first);
        const more = rows.length > first;
        send(response, 200, items, more ? { 'x-next-cursor': String(items.at(-1)?.id) } : {});
        return;
      }
      if (request.method === 'POST' && url.pathname === '/graphql') {
        const answer = await graphql(
          principal,
          JSON.parse(await readBody(request)) as { query?: string; variables?: Record<string, unknown> },
        );
        send(response, answer.status, answer.body);
        return;
      }
      send(response, 404, { code: 'NOT_FOUND' });
    })().catch((error: unknown) => send(response, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
