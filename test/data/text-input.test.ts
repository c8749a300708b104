// Runs on: sqlite, postgresql
/**
 * A NUL character behind the transports (docs/hostile-input.md §17): what a hand-written service
 * writes or filters on through a repository is refused as `BAD_USER_INPUT` naming the column, on both
 * databases alike — SQLite would store it, PostgreSQL refuse it as a fault of its own — and
 * PostgreSQL's refusal of a NUL that reaches it some other way (Prisma's own queries, the SQL runner)
 * is classified as the caller's bad input, never as `database error`.
 */
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../generated/database.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { UserRepository } from '../../generated/repositories/user.repository.js';
import { runUnscoped } from '../../runtime/auth/context.js';
import { createAdapterFactory } from '../../runtime/data/database.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { singleTableSchema, sqltag, whereToSql } from '../../runtime/data/sql-scope.js';
import { NUL_TEXT_MESSAGE, nulIssues } from '../../runtime/data/text-input.js';
import { createSqlRunner, DIALECTS } from '../../runtime/dialects/index.js';
import { classifyError } from '../../runtime/failures/errors.js';
import { FailureError } from '../../runtime/failures/result.js';
import { createLogger } from '../../runtime/server/logger.js';
import { createTestDatabase, seedDatabase, testProvider } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';

const provider = testProvider();
let database: Database;
let runner: SqlRunner;
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  const url = await createTestDatabase();
  seeded = await seedDatabase(url, { orgs: 1, users: 2, posts: 1 });
  const factory = await createAdapterFactory(url);
  database = await createDatabase(factory);
  runner = await createSqlRunner(url, { writesThrough: factory });
});

afterAll(async () => {
  await Promise.all([database?.$disconnect(), runner?.close()]);
});

/** A text with at least one NUL, at generated places among generated characters. */
const nulText = fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 4 }).map((parts) => parts.join('\u0000'));
const settings = { seed: PROPERTY_SEED, numRuns: Math.min(PROPERTY_RUNS, 60) };

describe('nulIssues', () => {
  it('names every text and key holding a NUL, at any depth, and nothing else', () => {
    expect(nulIssues({ title: 'a\u0000', tags: ['ok', '\u0000'], nested: { 'k\u0000': 1 }, n: 5 }, 'body')).toEqual([
      { path: 'body.title', message: NUL_TEXT_MESSAGE },
      { path: 'body.tags.1', message: NUL_TEXT_MESSAGE },
      { path: 'body.nested.k\u0000', message: NUL_TEXT_MESSAGE },
    ]);
    expect(nulIssues({ title: 'fine', list: [1, null, true] }, 'body')).toEqual([]);
    // As deep as JSON.parse goes: no recursion to exhaust.
    let deep: unknown = 'x\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(nulIssues(deep, 'data')).toHaveLength(1);
  });
});

describe.each(DIALECTS.map((dialect) => [dialect.name, dialect.sql] as const))('a filter holding a NUL (%s SQL)', (_name, sql) => {
  const schema = singleTableSchema('Post', ['id', 'title', 'body']);
  it('is BAD_USER_INPUT naming the column, for every operator that binds a text (generated)', () => {
    const condition = fc.oneof(
      nulText.map((text) => ({ title: text })),
      fc
        .constantFrom('equals', 'not', 'lt', 'lte', 'gt', 'gte', 'contains', 'startsWith', 'endsWith')
        .chain((operator) => nulText.map((text) => ({ title: { [operator]: text } }))),
      fc.constantFrom('in', 'notIn').chain((operator) => nulText.map((text) => ({ title: { [operator]: ['fine', text] } }))),
      nulText.map((text) => ({ OR: [{ body: 'fine' }, { NOT: { title: { contains: text } } }] })),
    );
    fc.assert(
      fc.property(condition, (where) => {
        let thrown: unknown;
        try {
          whereToSql(sql, where, 't', 'Post', schema);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(FailureError);
        expect((thrown as FailureError).failure).toMatchObject({ code: 'BAD_USER_INPUT', issues: [{ message: NUL_TEXT_MESSAGE }] });
        expect(['title', 'body']).toContain((thrown as FailureError).failure.field);
      }),
      settings,
    );
  });
});

describe(`repositories (${provider})`, () => {
  const author = (): { orgId: string; authorId: string } => {
    const user = seeded.users[0];
    if (!user) throw new Error('no seeded user');
    return { orgId: user.orgId, authorId: user.id };
  };

  it('refuse a create or an update setting a text holding a NUL, naming the column, writing nothing (generated)', async () => {
    const posts = new PostRepository(database, runner, logger);
    const users = new UserRepository(database, runner, logger);
    const postId = seeded.posts[0]?.id ?? '';
    const before = { posts: await database.post.count(), users: await database.user.count() };
    const original = await database.post.findUniqueOrThrow({ where: { id: postId } });
    const write = fc.oneof(
      fc.record({ column: fc.constantFrom('title', 'body'), text: nulText }).map(({ column, text }) => ({
        column,
        run: (): Promise<unknown> => posts.create({ ...author(), title: 'fine', [column]: text }),
      })),
      fc.record({ column: fc.constantFrom('name', 'email'), text: nulText }).map(({ column, text }) => ({
        column,
        run: (): Promise<unknown> =>
          users.create({ orgId: author().orgId, name: 'fine', email: `${uuidv7()}@example.com`, [column]: text }),
      })),
      fc.record({ column: fc.constantFrom('title', 'body'), text: nulText }).map(({ column, text }) => ({
        column,
        run: (): Promise<unknown> => posts.update(postId, { [column]: text }),
      })),
    );
    await fc.assert(
      fc.asyncProperty(write, async ({ column, run }) => {
        const result = await runUnscoped(run);
        expect(result).toEqual({
          ok: false,
          failure: {
            code: 'BAD_USER_INPUT',
            message: `invalid data: ${column} ${NUL_TEXT_MESSAGE}`,
            field: column,
            issues: [{ path: column, message: NUL_TEXT_MESSAGE }],
          },
        });
      }),
      settings,
    );
    expect({ posts: await database.post.count(), users: await database.user.count() }).toEqual(before);
    expect(await database.post.findUniqueOrThrow({ where: { id: postId } })).toEqual(original);
  });

  it("refuse a page filtered on a text holding a NUL (a hand-written search's `contains: term`), before any statement", async () => {
    const posts = new PostRepository(database, runner, logger);
    await fc.assert(
      fc.asyncProperty(nulText, async (term) => {
        const refused = await runUnscoped(() => posts.page({ first: 5 }, { title: { contains: term } })).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(FailureError);
        expect((refused as FailureError).failure).toMatchObject({ code: 'BAD_USER_INPUT', field: 'title' });
      }),
      settings,
    );
  });
});

describe(`the database's own answer to a NUL (${provider})`, () => {
  it.runIf(provider === 'postgresql')(
    "is PostgreSQL's refusal (22021), classified as the caller's BAD_USER_INPUT, through Prisma and through the SQL runner",
    async () => {
      const throughPrisma = await database.org.findMany({ where: { name: 'a\u0000b' } }).catch((error: unknown) => error);
      expect(throughPrisma).toBeInstanceOf(Error);
      const throughRunner = await runner.read(sqltag`SELECT ${'a\u0000b'}::text AS t`).catch((error: unknown) => error);
      expect(throughRunner).toBeInstanceOf(Error);
      for (const error of [throughPrisma, throughRunner])
        expect(classifyError(error)).toEqual({
          kind: 'failure',
          failure: { code: 'BAD_USER_INPUT', message: `a text ${NUL_TEXT_MESSAGE}` },
        });
    },
  );

  it.runIf(provider === 'sqlite')('is none on SQLite, which stores it: what the checks before it make alike', async () => {
    const org = await database.org.create({ data: { id: uuidv7(), name: 'a\u0000b' } });
    expect((await database.org.findUniqueOrThrow({ where: { id: org.id } })).name).toBe('a\u0000b');
  });
});
