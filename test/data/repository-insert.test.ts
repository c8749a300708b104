// Runs on: sqlite, postgresql
/**
 * Creates written by the runtime's own `INSERT … RETURNING` (runtime/data/sql-insert.ts; docs/decisions.md §6
 * "Creates without Prisma's query interpreter"), on the database under test: the row stored and the
 * row returned are the ones Prisma's `create` stores and returns for the same data, for generated
 * text too; constraint violations are CONFLICT and NOT_FOUND (a key naming no row); anything the statement cannot
 * write as Prisma would goes to Prisma, which accepts or refuses it as before.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../generated/database.js';
import { DigestRepository } from '../../generated/repositories/digest.repository.js';
import { OrgRepository } from '../../generated/repositories/org.repository.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { UserRepository } from '../../generated/repositories/user.repository.js';
import { runUnscoped } from '../../runtime/auth/context.js';
import { createAdapterFactory } from '../../runtime/data/database.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { sqltag } from '../../runtime/data/sql-scope.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import { createLogger } from '../../runtime/server/logger.js';
import { createTestDatabase, runSql, seedDatabase, testProvider } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { startInProcessServer } from '../support/server.js';

let url: string;
let database: Database;
let runner: SqlRunner;
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
/** Statements the runner sent (its inserts), and those the Prisma client sent. */
const runnerStatements: string[] = [];
const prismaStatements: string[] = [];
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  url = await createTestDatabase();
  seeded = await seedDatabase(url, { orgs: 2, users: 2, posts: 1 });
  // As startServer opens them: the runner inserts where the client writes.
  const factory = await createAdapterFactory(url);
  database = await createDatabase(factory, { onQuery: (sql) => prismaStatements.push(sql) });
  runner = await createSqlRunner(url, { writesThrough: factory, onQuery: (sql) => runnerStatements.push(sql) });
});

afterAll(async () => {
  await Promise.all([database.$disconnect(), runner.close()]);
});

/** What `run` sent: the runner's inserts and the client's statements. */
async function statementsOf<T>(run: () => Promise<T>): Promise<{ result: T; inserts: string[]; prisma: string[] }> {
  const [fromRunner, fromPrisma] = [runnerStatements.length, prismaStatements.length];
  const result = await run();
  return {
    result,
    inserts: runnerStatements.slice(fromRunner).filter((sql) => sql.startsWith('INSERT')),
    prisma: prismaStatements.slice(fromPrisma),
  };
}

function author(): { orgId: string; authorId: string } {
  const user = seeded.users[0];
  if (!user) throw new Error('no seeded user');
  return { orgId: user.orgId, authorId: user.id };
}

/** A stored value's kind and shape (digits blanked), so two rows' encodings compare though ids and instants differ. */
function encoding(value: unknown): string {
  if (value instanceof Date) return 'Date';
  return `${typeof value}:${typeof value === 'string' ? value.replace(/[0-9a-f]/g, 'x') : ''}`;
}

/** The two rows of `table` as stored, read with the driver outside any client. */
async function storedRows(table: string, first: string, second: string): Promise<[Record<string, unknown>, Record<string, unknown>]> {
  const rows = await runSql(url, `SELECT * FROM "${table}" WHERE "id" IN ('${first}', '${second}')`);
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  const a = byId.get(first);
  const b = byId.get(second);
  if (!a || !b) throw new Error('a created row is missing');
  return [a, b];
}

/** A row with the columns every demo entity's create fills. */
type CreatedRow = { readonly id: string; readonly createdAt: Date };

/**
 * Creates `data` in `table` through `repository` (the insert) and through Prisma's `create`, then
 * checks both stored and returned the same row, and that Prisma reads the inserted row back as
 * the repository returned it.
 */
async function createBothWays<Data extends object, Row extends CreatedRow>(
  table: string,
  repository: { create(data: Data): Promise<{ ok: true; value: Row } | { ok: false; failure: { message: string } }> },
  prisma: { create(args: { data: Data }): PromiseLike<Row>; findUnique(args: { where: { id: string } }): PromiseLike<Row | null> },
  data: Data,
): Promise<void> {
  const direct = await statementsOf(() => runUnscoped(() => repository.create(data)));
  expect(direct.inserts).toHaveLength(1);
  expect(direct.prisma).toEqual([]);
  if (!direct.result.ok) throw new Error(direct.result.failure.message);
  const created = direct.result.value;
  const viaPrisma = await prisma.create({ data });
  // Returned as Prisma returns a row, and Prisma reads the stored row back as the repository returned it.
  const { id: _id, createdAt, ...returned } = created;
  const { id: prismaId, createdAt: prismaCreatedAt, ...expected } = viaPrisma;
  expect(returned).toEqual(expected);
  expect(createdAt).toBeInstanceOf(Date);
  expect(Math.abs(createdAt.getTime() - prismaCreatedAt.getTime())).toBeLessThan(60_000);
  expect(await prisma.findUnique({ where: { id: created.id } })).toEqual(created);
  // Stored with the same encodings: ISO text on SQLite, timestamps on PostgreSQL, the same text.
  const [storedDirect, storedPrisma] = await storedRows(table, created.id, prismaId);
  expect(Object.keys(storedDirect).sort()).toEqual(Object.keys(storedPrisma).sort());
  for (const column of Object.keys(storedDirect)) {
    if (column === 'id' || column === 'createdAt') expect(encoding(storedDirect[column]), column).toBe(encoding(storedPrisma[column]));
    else expect(storedDirect[column], column).toEqual(storedPrisma[column]);
  }
  expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
}

/** {@link createBothWays} for a post. */
function createPostBothWays(data: Parameters<PostRepository['create']>[0]): Promise<void> {
  return createBothWays('Post', new PostRepository(database, runner, logger), database.post, data);
}

describe(`creates inserted by the runtime (${testProvider()})`, () => {
  it('store and return the row Prisma stores and returns, defaults and NULLs included', async () => {
    await createPostBothWays({
      ...author(),
      title: 'Hello',
      body: 'World',
      status: 'published',
      publishedAt: new Date('2026-01-02T03:04:05.678Z'),
      reviewerId: null,
    });
    // `body` and `status` left to the table's defaults, `publishedAt` and `reviewerId` to NULL.
    await createPostBothWays({ ...author(), title: 'Defaults' });
    // An integer column and a nullable instant.
    const digests = new DigestRepository(database, runner, logger);
    const { orgId } = author();
    await createBothWays('Digest', digests, database.digest, {
      orgId,
      periodStart: new Date('2026-05-01T00:00:00.000Z'),
      periodEnd: new Date('2026-05-02T00:00:00.000Z'),
      publishedPosts: 2_147_483_647,
    });
    await createBothWays('Digest', digests, database.digest, { orgId, periodStart: null, periodEnd: new Date(0), publishedPosts: -7 });
  });

  it('store any text and instant exactly as Prisma does (generated values)', async () => {
    // Without NUL: the repository refuses a text holding one on both databases (test/data/text-input.test.ts).
    const text = fc.string({ unit: 'binary', maxLength: 60 }).filter((value) => !value.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.option(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })),
        async (title, body, publishedAt) => {
          await createPostBothWays({ ...author(), title, body, publishedAt });
        },
      ),
      { seed: PROPERTY_SEED, numRuns: Math.min(PROPERTY_RUNS, 40) },
    );
  });

  it('answer a unique violation with CONFLICT and a missing referenced row with NOT_FOUND naming it, writing nothing', async () => {
    const users = new UserRepository(database, runner, logger);
    const existing = seeded.users[0];
    if (!existing) throw new Error('no seeded user');
    const email = (await database.user.findUniqueOrThrow({ where: { id: existing.id } })).email;
    const duplicate = await statementsOf(() => runUnscoped(() => users.create({ orgId: existing.orgId, name: 'Twin', email })));
    expect(duplicate.inserts).toHaveLength(1);
    expect(duplicate.result).toEqual({
      ok: false,
      failure: { code: 'CONFLICT', message: 'a User with the same orgId, email already exists' },
    });
    expect(await database.user.count({ where: { orgId: existing.orgId, email } })).toBe(1);

    const posts = new PostRepository(database, runner, logger);
    const before = await database.post.count();
    const missing = uuidv7();
    const orphan = await runUnscoped(() => posts.create({ ...author(), authorId: missing, title: 'Orphan' }));
    expect(orphan).toEqual({ ok: false, failure: { code: 'NOT_FOUND', message: `User ${missing} was not found` } });
    expect(await database.post.count()).toBe(before);
  });

  it('leave to Prisma what the statement cannot write as Prisma would', async () => {
    const posts = new PostRepository(database, runner, logger);
    // A value outside the enum: Prisma refuses it, as it always did.
    const outside = await statementsOf(() =>
      runUnscoped(() => posts.create({ ...author(), title: 'Odd', status: 'archived' as 'draft' }).catch((error: unknown) => error)),
    );
    expect(outside.inserts).toEqual([]);
    expect((outside.result as Error).name).toBe('PrismaClientValidationError');
    // An instant given as text: Prisma accepts it.
    const text = await statementsOf(() =>
      runUnscoped(() => posts.create({ ...author(), title: 'Text date', publishedAt: '2026-03-04T05:06:07.000Z' })),
    );
    expect(text.inserts).toEqual([]);
    expect(text.result.ok && text.result.value.publishedAt).toEqual(new Date('2026-03-04T05:06:07.000Z'));
    // A required column missing: Prisma says which.
    const missing = await statementsOf(() => runUnscoped(() => posts.create({ ...author() } as never).catch((error: unknown) => error)));
    expect(missing.inserts).toEqual([]);
    expect(String(missing.result)).toContain('title');
  });

  it('go through Prisma where the runner has no connection of the client to write on', async () => {
    // A runner opened without the client's factory: on SQLite it inserts nothing, and Prisma writes.
    const detached = await createSqlRunner(url);
    try {
      const posts = new PostRepository(database, detached, logger);
      const result = await runUnscoped(() => posts.create({ ...author(), title: 'Detached' }));
      expect(result.ok && result.value.title).toBe('Detached');
      expect(await database.post.count({ where: { title: 'Detached' } })).toBe(1);
    } finally {
      await detached.close();
    }
  });

  it.runIf(testProvider() === 'sqlite')(
    'share one writer connection with the client on SQLite, whichever connects first, and close it',
    async () => {
      const ownUrl = await createTestDatabase();
      const file = sqliteFilePath(ownUrl);
      const orgId = uuidv7();
      await runSql(ownUrl, `INSERT INTO "Org" ("id", "name") VALUES ('${orgId}', 'Own')`);
      const factory = await createAdapterFactory(ownUrl);
      const client = await createDatabase(factory);
      const ownRunner = await createSqlRunner(ownUrl, { writesThrough: factory });
      const orgs = new OrgRepository(client, ownRunner, logger);
      // The runner inserts first (the client has not connected yet), then the client connects: a
      // temporary table, which only its own connection sees, is one the runner's inserts see too.
      expect((await runUnscoped(() => orgs.create({ name: 'First' }))).ok).toBe(true);
      await client.$executeRawUnsafe('CREATE TEMP TABLE "probe" ("x" INTEGER)');
      expect(await ownRunner.insert?.(sqltag`INSERT INTO temp."probe" ("x") VALUES (${1}) RETURNING "x"`)).toEqual([{ x: 1n }]);
      await Promise.all([client.$disconnect(), ownRunner.close()]);
      // Every connection closed: the last one checkpointed the WAL and removed it.
      expect(existsSync(`${file}-wal`)).toBe(false);
      // Never claimed by the client: the runner closes the connection it opened.
      const lone = await createSqlRunner(ownUrl, { writesThrough: factory });
      expect((await runUnscoped(() => new OrgRepository(client, lone, logger).create({ name: 'Alone' }))).ok).toBe(true);
      expect(existsSync(`${file}-wal`)).toBe(true);
      await lone.close();
      expect(existsSync(`${file}-wal`)).toBe(false);
      expect((await runSql(ownUrl, 'SELECT "name" FROM "Org" ORDER BY "name"')).map((row) => row.name)).toEqual(['Alone', 'First', 'Own']);
    },
  );

  it.runIf(testProvider() === 'sqlite')(
    'open one writer connection on SQLite when the client connects while the runner opens, in either order',
    async () => {
      const ownUrl = await createTestDatabase();
      const file = sqliteFilePath(ownUrl);
      const ticks = async (count: number): Promise<void> => {
        for (let tick = 0; tick < count; tick++) await Promise.resolve();
      };
      for (const clientFirst of [true, false]) {
        for (const delay of [0, 1, 2, 3]) {
          const factory = await createAdapterFactory(ownUrl);
          const client = await createDatabase(factory);
          const ownRunner = await createSqlRunner(ownUrl, { writesThrough: factory });
          const orgs = new OrgRepository(client, ownRunner, logger);
          const create = async (): Promise<void> => {
            await ticks(delay);
            expect((await runUnscoped(() => orgs.create({ name: `Race ${String(clientFirst)} ${delay}` }))).ok).toBe(true);
          };
          const connect = async (): Promise<void> => {
            await ticks(clientFirst ? 0 : delay);
            await client.$connect();
          };
          await Promise.all(clientFirst ? [connect(), create()] : [create(), connect()]);
          // One connection: a temporary table the client makes is one the runner's inserts see.
          await client.$executeRawUnsafe('CREATE TEMP TABLE "probe" ("x" INTEGER)');
          expect(await ownRunner.insert?.(sqltag`INSERT INTO temp."probe" ("x") VALUES (${delay}) RETURNING "x"`)).toEqual([
            { x: BigInt(delay) },
          ]);
          await Promise.all([client.$disconnect(), ownRunner.close()]);
          // Nothing left open: the last connection closed removed the WAL.
          expect(existsSync(`${file}-wal`), `client first: ${String(clientFirst)}, ${delay} ticks`).toBe(false);
          // A closed runner opens nothing more.
          await expect(ownRunner.insert?.(sqltag`SELECT 1`)).rejects.toThrow('closed');
        }
      }
    },
  );

  it('are how a running server creates: one INSERT of its own per createUser over HTTP, read back by the API', async () => {
    const server = await startInProcessServer();
    try {
      const admin = await server.token('admin');
      const before = server.statements.length;
      const created = await server.graphql<{ createUser: { id: string; name: string; email: string } }>(
        'mutation { createUser(input: { name: "Inserted", email: "inserted@acme.example" }) { id name email } }',
        { token: admin },
      );
      expect(created.errors).toBeUndefined();
      const inserts = server.statements.slice(before).filter((sql) => /^\s*INSERT/i.test(sql));
      expect(inserts).toHaveLength(1);
      expect(inserts[0]).toMatch(/^INSERT INTO "User" \(/);
      const id = created.data?.createUser.id ?? '';
      const read = await server.graphql<{ user: { id: string; name: string; email: string } }>(`{ user(id: "${id}") { id name email } }`, {
        token: admin,
      });
      expect(read.data?.user).toEqual({ id, name: 'Inserted', email: 'inserted@acme.example' });
      const twin = await server.graphql('mutation { createUser(input: { name: "Twin", email: "inserted@acme.example" }) { id } }', {
        token: admin,
      });
      expect(twin.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    } finally {
      await server.stop();
    }
  });
});
