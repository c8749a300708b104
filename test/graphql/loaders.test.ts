// Runs on: sqlite, postgresql
/**
 * The per-parent window (docs/behaviour.md §8, docs/decisions.md §6) against a real SQLite file: it returns exactly
 * what a per-parent Prisma `findMany` with the same scope and `first` returns, on random data and
 * random principals; it is one statement per chunk of parents however many parents there are;
 * and SQLite ranks through the relation's own `(fk, id)` index.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppAbilities } from '../../entities/abilities.js';
import type { Database } from '../../generated/database.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { UserRepository } from '../../generated/repositories/user.repository.js';
import { type RequestContext, runInContext } from '../../runtime/auth/context.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { pageWindow } from '../../runtime/data/keyset.js';
import { createLogger } from '../../runtime/server/logger.js';
import { MAX_KEYS_PER_STATEMENT } from '../../runtime/data/repository.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { raw, ScopeTranslationError, singleTableSchema, sqltag, whereToSql } from '../../runtime/data/sql-scope.js';
import { createTestDatabase, openDatabase, testProvider } from '../support/database.js';
import { ownIndexSearch, rankingStatement, sqlitePlan, tableSteps } from '../support/plans.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';

const logger = createLogger({ level: 'silent' });
let database: Database;
let runner: SqlRunner;
let statements: string[];
let orgs: string[];
let users: { id: string; orgId: string }[];
let posts: { id: string; orgId: string; authorId: string; reviewerId: string | null; status: 'draft' | 'published' }[];

/** A small deterministic PRNG (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  const url = await createTestDatabase();
  statements = [];
  database = await openDatabase(url, { onQuery: (sql) => statements.push(sql) });
  runner = await createSqlRunner(url, { onQuery: (sql) => statements.push(sql) });
  const next = random(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  orgs = [];
  for (let index = 0; index < 3; index++) orgs.push((await database.org.create({ data: { name: `Org ${index}` } })).id);
  users = [];
  for (let index = 0; index < 30; index++) {
    const orgId = pick(orgs);
    users.push(
      await database.user.create({
        data: { orgId, name: `User ${index}`, email: `u${index}@example.com` },
        select: { id: true, orgId: true },
      }),
    );
  }
  const rows = [];
  for (let index = 0; index < 600; index++) {
    const author = pick(users);
    const sameOrg = users.filter((user) => user.orgId === author.orgId);
    rows.push({
      orgId: author.orgId,
      authorId: author.id,
      reviewerId: next() < 0.5 ? pick(sameOrg).id : null,
      title: `Post ${index}`,
      status: next() < 0.5 ? ('draft' as const) : ('published' as const),
    });
  }
  await database.post.createMany({ data: rows });
  posts = await database.post.findMany({
    select: { id: true, orgId: true, authorId: true, reviewerId: true, status: true },
    orderBy: { id: 'asc' },
  });
  await database.$executeRawUnsafe('ANALYZE');
});

afterAll(async () => {
  await Promise.all([database.$disconnect(), runner.close()]);
});

const contextFor = (role: string, user: { id: string; orgId: string }): RequestContext => {
  const principal = { sub: user.id, org_id: user.orgId, role };
  return { principal, ability: new AppAbilities().for(principal), unscoped: false };
};

describe('the per-parent window equals per-parent Prisma findMany', () => {
  it('on 60 random cases (principal, parents, first, after, relation column)', async () => {
    const next = random(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const repository = new PostRepository(database, runner, logger);
    for (let run = 0; run < 60; run++) {
      const context = contextFor(pick(['admin', 'member', 'viewer', 'nobody']), pick(users));
      const parents = users.filter(() => next() < 0.4).map((user) => user.id);
      const first = pick([undefined, -3, 0, 1, 2, 5, 20, 150]);
      const after = pick([undefined, 'garbage', pick(posts).id, pick(posts).id]);
      const column = pick(['authorId', 'reviewerId'] as const);
      const window = pageWindow({ first, after });
      const pages = await repository.loadPagesByParent(context, column, parents, window);
      for (const parent of parents) {
        const reference = await runInContext(context, () => repository.page({ first, after }, { [column]: parent }));
        expect(pages.get(parent), `run ${run}, parent ${parent}`).toEqual(reference);
      }
    }
  });

  it("filters before ranking: hidden rows never use up a parent's page", async () => {
    const repository = new PostRepository(database, runner, logger);
    const viewer = users[0] ?? { id: '', orgId: '' };
    const author =
      users.find((user) => user.orgId === viewer.orgId && posts.some((post) => post.authorId === user.id && post.status === 'draft')) ??
      viewer;
    const pages = await repository.loadPagesByParent(contextFor('viewer', viewer), 'authorId', [author.id], pageWindow({ first: 2 }));
    const published = posts.filter((post) => post.authorId === author.id && post.status === 'published').map((post) => post.id);
    expect(pages.get(author.id)?.items.map((post) => post.id)).toEqual(published.slice(0, 2));
    expect(pages.get(author.id)?.has_more).toBe(published.length > 2);
  });
});

describe('bounded batches', () => {
  it(`splits parents past ${MAX_KEYS_PER_STATEMENT} keys into one statement per chunk`, async () => {
    const repository = new PostRepository(database, runner, logger);
    const context = contextFor('admin', users[0] ?? { id: '', orgId: '' });
    const parents = [
      ...users.map((user) => user.id),
      ...Array.from({ length: 40_000 }, (_, index) => `00000000-0000-7000-8000-${String(index).padStart(12, '0')}`),
    ];
    const before = statements.length;
    const pages = await repository.loadPagesByParent(context, 'authorId', parents, pageWindow({ first: 3 }));
    expect(statements.length - before).toBe(2);
    expect(pages.size).toBe(parents.length);
    const users_ = new UserRepository(database, runner, logger);
    const lookups = statements.length;
    await users_.loadByIds(context, parents);
    expect(statements.length - lookups).toBe(2);
  });
});

describe('query plan (docs/decisions.md §6)', () => {
  const statementFor = (column: 'authorId' | 'reviewerId', parents: number) =>
    rankingStatement(
      database,
      column,
      users.slice(0, parents).map((user) => user.id),
      users[3] ?? { id: '', orgId: '' },
      runner.sql,
    );

  it.each(['authorId', 'reviewerId'] as const)('ranks by the (%s, id) index alone: no full scan, no other index', async (column) => {
    if (testProvider() === 'sqlite') {
      const details = await sqlitePlan(database, statementFor(column, 20));
      expect(tableSteps(details)).toEqual([expect.stringMatching(ownIndexSearch(column))]);
    } else {
      // A page of parents is a small share of a table's rows; on a few hundred rows PostgreSQL would
      // rather scan sequentially, so that is disabled to show which index serves the ranking.
      const statement = statementFor(column, 2);
      const [, plan] = await database.$transaction([
        database.$executeRawUnsafe('SET LOCAL enable_seqscan = off'),
        database.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${statement.text}`, ...statement.values),
      ]);
      const text = plan.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(
        new RegExp(`Index (Only )?Scan using "Post_${column}_id_idx" on "Post" t|Bitmap Index Scan on "Post_${column}_id_idx"`),
      );
    }
  });

  it("on PostgreSQL, binds a batch's keys as one array: one statement text for any number of keys (`= ANY($1)`, not `IN ($1, …)`)", async () => {
    if (testProvider() !== 'postgresql') return;
    const repository = new PostRepository(database, runner, logger);
    const context = contextFor('member', users[3] ?? { id: '', orgId: '' });
    const before = statements.length;
    for (const parents of [2, 5])
      await repository.loadPagesByParent(
        context,
        'authorId',
        users.slice(0, parents).map((user) => user.id),
        pageWindow({ first: 2 }),
      );
    for (const parents of [1, 3])
      await new UserRepository(database, runner, logger).loadByIds(
        context,
        users.slice(0, parents).map((user) => user.id),
      );
    const run = statements.slice(before);
    expect(run).toHaveLength(4);
    // `IN ($1, …, $n)`: a text per count of parents, and a generic plan that intersected the key's index with the org's.
    expect(run[0]).toBe(run[1]);
    expect(run[2]).toBe(run[3]);
    for (const text of run) {
      expect(text).toMatch(/ = ANY\(\$1\)/);
      expect(text).not.toMatch(/ IN \(/);
    }
  });

  it('on SQLite, binds every value of a read behind unary plus, so no plan is remade from the value bound on each run', async () => {
    if (testProvider() !== 'sqlite') return;
    const repository = new PostRepository(database, runner, logger);
    const context = contextFor('member', users[3] ?? { id: '', orgId: '' });
    const before = statements.length;
    await repository.loadPagesByParent(
      context,
      'authorId',
      users.slice(0, 5).map((user) => user.id),
      pageWindow({ first: 2, after: posts[0]?.id }),
    );
    await new UserRepository(database, runner, logger).loadByIds(
      context,
      users.slice(0, 3).map((user) => user.id),
    );
    const run = statements.slice(before);
    expect(run).toHaveLength(2);
    for (const text of run) {
      expect(text).toContain('+?');
      // Every placeholder is `+?`: a bare `?` lets STAT4 samples mark the statement to be prepared again whenever it is bound.
      expect(text.replaceAll('+?', '')).not.toContain('?');
    }
  });
});

describe('scope translation to SQL', () => {
  const schema = singleTableSchema('Post', ['orgId', 'status', 'title', 'authorId']);
  const render = (where: Record<string, unknown>): { sql: string; values: unknown[] } => {
    const sql = whereToSql(runner.sql, where, 't', 'Post', schema);
    return { sql: sql.sql, values: sql.values };
  };

  it('translates the operators rules use', () => {
    expect(
      render({
        OR: [
          { orgId: 'o', authorId: 'u' },
          { orgId: 'o', status: 'published' },
        ],
      }),
    ).toEqual({
      sql: '(("t"."orgId" = ? AND "t"."authorId" = ?) OR ("t"."orgId" = ? AND "t"."status" = ?))',
      values: ['o', 'u', 'o', 'published'],
    });
    expect(render({ status: { in: ['a', 'b'] }, title: { not: null } })).toEqual({
      sql: '("t"."status" IN (?,?) AND "t"."title" IS NOT NULL)',
      values: ['a', 'b'],
    });
    // A text match is case-sensitive on both databases: GLOB on SQLite (whose LIKE folds ASCII case), LIKE on PostgreSQL.
    expect(render({ NOT: [{ status: 'draft' }], title: { startsWith: '50%_*?[' } })).toEqual(
      testProvider() === 'sqlite'
        ? { sql: '(NOT ("t"."status" = ?) AND "t"."title" GLOB ?)', values: ['draft', '50%_[*][?][[]*'] }
        : { sql: '(NOT ("t"."status" = ?) AND "t"."title" LIKE ? ESCAPE \'\\\')', values: ['draft', '50\\%\\_*?[%'] },
    );
    expect(render({ status: { in: [] } })).toEqual({ sql: '1 = 0', values: [] });
    expect(render({ OR: [] })).toEqual({ sql: '1 = 0', values: [] });
    expect(render({})).toEqual({ sql: '1 = 1', values: [] });
  });

  it('fails closed on anything it cannot translate', () => {
    expect(() => render({ author: { is: { orgId: 'x' } } })).toThrow(ScopeTranslationError);
    expect(() => render({ title: { contains: 'x', mode: 'insensitive' } })).toThrow(ScopeTranslationError);
    expect(() => render({ title: { search: 'x' } })).toThrow(ScopeTranslationError);
    expect(raw('x').sql).toBe('x');
  });
});

describe('text matches in scope conditions, as a property (docs/behaviour.md §5.8, docs/hostile-input.md §8)', () => {
  /** Characters of the titles and texts: LIKE's and GLOB's wildcards, LIKE's escape character, a quote, an ASCII letter in both cases (SQLite's LIKE folds them) and a non-ASCII one. */
  const ALPHABET = ['a', 'A', '%', '_', '*', '?', '[', '\\', "'", 'é'];
  const schema = singleTableSchema('Post', ['title', 'authorId']);
  let author: string;
  let titles: Map<string, string>;

  beforeAll(async () => {
    const strings = (length: number): string[] =>
      length === 0 ? [''] : strings(length - 1).flatMap((prefix) => ALPHABET.map((character) => prefix + character));
    const all = [1, 2, 3].flatMap(strings);
    const org = orgs[0] ?? '';
    author = (await database.user.create({ data: { orgId: org, name: 'Title writer', email: 'titles@example.com' }, select: { id: true } }))
      .id;
    await database.post.createMany({ data: all.map((title) => ({ orgId: org, authorId: author, title, status: 'draft' as const })) });
    const rows = await database.post.findMany({ where: { authorId: author }, select: { id: true, title: true } });
    titles = new Map(rows.map((row) => [row.id, row.title]));
    expect(titles.size).toBe(all.length);
  });

  it('matches a text literally, whatever wildcards and escape characters it holds, as the string operations do', async () => {
    const holds = {
      contains: (title: string, text: string) => title.includes(text),
      startsWith: (title: string, text: string) => title.startsWith(text),
      endsWith: (title: string, text: string) => title.endsWith(text),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('contains', 'startsWith', 'endsWith' as const),
        fc.array(fc.constantFrom(...ALPHABET), { maxLength: 4 }).map((characters) => characters.join('')),
        async (operator, text) => {
          const condition = whereToSql(runner.sql, { authorId: author, title: { [operator]: text } }, 't', 'Post', schema);
          const rows = await runner.read(sqltag`SELECT t."id" FROM "Post" t WHERE ${condition}`);
          const expected = [...titles].filter(([, title]) => holds[operator](title, text)).map(([id]) => id);
          expect(rows.map((row) => String(row.id)).sort()).toEqual(expected.sort());
        },
      ),
      { numRuns: PROPERTY_RUNS, seed: PROPERTY_SEED },
    );
  }, 120_000);
});
