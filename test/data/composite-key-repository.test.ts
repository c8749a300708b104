// Runs on: sqlite, postgresql
/**
 * A join table's repository against a real database (docs/behaviour.md §2.6): the demo's
 * `PostCategory`, keyed by `(postId, categoryId)`, migrated by the committed migrations. Its table
 * is keyed by both columns with an index for the other side; reads are filtered by the caller's
 * read scope (fail closed, relation conditions as `EXISTS`) and masked to the read grant, on the
 * composite key too; creates are checked against the create rule and against the read scope of the
 * rows their keys name (docs/hostile-input.md §11), whether the runtime writes the row or Prisma
 * does; a duplicate key is CONFLICT; deletes stay inside the delete rules.
 */
import { Writable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppAbilities } from '../../entities/abilities.js';
import { createDatabase, type Database } from '../../generated/database.js';
import { PostCategoryRepository } from '../../generated/repositories/post-category.repository.js';
import { type AppAbility, defineAbility, type Principal } from '../../runtime/auth/ability.js';
import { ANONYMOUS, type RequestContext, runInContext, runUnscoped } from '../../runtime/auth/context.js';
import { createAdapterFactory } from '../../runtime/data/database.js';
import { LIST_CAP } from '../../runtime/data/keyset.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { createLogger } from '../../runtime/server/logger.js';
import { createTestDatabase, runSql, seedDatabase, testProvider } from '../support/database.js';

let url: string;
let database: Database;
let runner: SqlRunner;
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
/** Two categories per org: `[org][index]`. */
let categories: string[][];
const logLines: string[] = [];
const logger = createLogger(
  { level: 'info', format: 'json' },
  new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString());
      done();
    },
  }),
);

beforeAll(async () => {
  url = await createTestDatabase();
  seeded = await seedDatabase(url, { orgs: 2, users: 3, posts: 2 });
  // As startServer opens them: the runner writes a create's row where the client writes.
  const factory = await createAdapterFactory(url);
  database = await createDatabase(factory);
  runner = await createSqlRunner(url, { writesThrough: factory });
  categories = [];
  for (const org of seeded.orgs) {
    const made: string[] = [];
    for (const name of ['News', 'Guides']) made.push((await database.category.create({ data: { orgId: org.id, name } })).id);
    categories.push(made);
  }
});

afterAll(async () => {
  await Promise.all([database.$disconnect(), runner.close()]);
});

type Role = 'admin' | 'member' | 'viewer';

const userOf = (role: Role, org = 0) => {
  const user = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === seeded.orgs[org]?.id);
  if (!user) throw new Error(`no ${role} in org ${org}`);
  return user;
};
const principalOf = (role: Role, org = 0): Principal => {
  const user = userOf(role, org);
  return { sub: user.id, org_id: user.orgId, role };
};
/** A request of `role` in org `org` under the demo's grants (entities/abilities.ts). */
const demo = (role: Role, org = 0): RequestContext => {
  const principal = principalOf(role, org);
  return { principal, ability: new AppAbilities().for(principal), unscoped: false };
};
/** A request of org 0's admin under `ability` instead. */
const granted = (ability: AppAbility): RequestContext => ({ principal: principalOf('admin'), ability, unscoped: false });

/** The seeded posts of `role` in org `org`: its published one and its draft. */
const postsOf = (role: Role, org = 0) => {
  const author = userOf(role, org).id;
  const posts = seeded.posts.filter((post) => post.authorId === author);
  const published = posts.find((post) => post.status === 'published');
  const draft = posts.find((post) => post.status === 'draft');
  if (!published || !draft) throw new Error('missing seeded posts');
  return { published: published.id, draft: draft.id };
};
const orgId = (org = 0): string => seeded.orgs[org]?.id ?? '';
const category = (org: number, index: number): string => categories[org]?.[index] ?? '';

/** A repository whose creates the runtime writes itself (`INSERT … RETURNING`), or one whose creates Prisma writes. */
const repositories = {
  runtime: () => new PostCategoryRepository(database, runner, logger),
  prisma: () =>
    new PostCategoryRepository(
      database,
      { sql: runner.sql, read: (statement) => runner.read(statement), close: () => Promise.resolve() },
      logger,
    ),
};

/** Files `postId` under `categoryId` in org `org`, unscoped (as a job would). */
async function file(postId: string, categoryId: string, org = 0): Promise<void> {
  await runUnscoped(() => database.postCategory.create({ data: { postId, categoryId, orgId: orgId(org) } }));
}

/** Removes every join row, so each test starts from the same table. */
async function clear(): Promise<void> {
  await runSql(url, 'DELETE FROM "PostCategory"');
}

describe('the table (docs/behaviour.md §2.6)', () => {
  it('is keyed by (postId, categoryId), with an index leading with categoryId for the other side', async () => {
    if (testProvider() === 'sqlite') {
      const key = await runSql(url, `SELECT name FROM pragma_table_info('PostCategory') WHERE pk > 0 ORDER BY pk`);
      expect(key.map((row) => row.name)).toEqual(['postId', 'categoryId']);
      const indexes = await runSql(url, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'PostCategory' ORDER BY name`);
      expect(indexes.map((row) => row.name)).toEqual(['PostCategory_categoryId_postId_idx', 'sqlite_autoindex_PostCategory_1']);
    } else {
      const key = await runSql(
        url,
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = '"PostCategory"'::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      );
      expect(key).toEqual([
        { name: 'postId', type: 'uuid' },
        { name: 'categoryId', type: 'uuid' },
      ]);
      const indexes = await runSql(url, `SELECT indexdef FROM pg_indexes WHERE tablename = 'PostCategory' ORDER BY indexname`);
      expect(indexes.map((row) => row.indexdef)).toEqual([
        expect.stringContaining('("categoryId", "postId")'),
        expect.stringContaining('UNIQUE INDEX "PostCategory_pkey"'),
      ]);
    }
  });
});

describe('reads (docs/behaviour.md §5.5, §5.6)', () => {
  beforeAll(async () => {
    await clear();
    // Org 0: every seeded post of its member and viewer under News, the member's published one under Guides too; org 1: one.
    for (const role of ['member', 'viewer'] as const) {
      const { published, draft } = postsOf(role);
      await file(published, category(0, 0));
      await file(draft, category(0, 0));
    }
    await file(postsOf('member').published, category(0, 1));
    await file(postsOf('member', 1).published, category(1, 0), 1);
  });

  it('find nothing outside a request, or in one without an ability', async () => {
    const links = repositories.runtime();
    const key = { postId: postsOf('member').published, categoryId: category(0, 0) };
    expect(await links.findByKey(key)).toBeNull();
    expect(await links.list()).toEqual([]);
    expect(await runInContext(ANONYMOUS, () => links.findByKey(key))).toBeNull();
    expect(await runInContext(ANONYMOUS, () => links.list())).toEqual([]);
    expect(await runUnscoped(() => links.findByKey(key))).toMatchObject({ ...key, orgId: orgId() });
  });

  it('find nothing for a caller whose grant does not name the join table', async () => {
    const links = repositories.runtime();
    const context = granted(defineAbility(({ can }) => can('read', ['Post', 'Category'], { orgId: orgId() })));
    const key = { postId: postsOf('member').published, categoryId: category(0, 0) };
    expect(await runInContext(context, () => links.list())).toEqual([]);
    expect(await runInContext(context, () => links.findByKey(key))).toBeNull();
  });

  it('follow the post: a viewer reads the rows of published posts, a member also those of their drafts, nobody another org’s', async () => {
    const links = repositories.runtime();
    const keys = async (context: RequestContext): Promise<string[]> =>
      (await runInContext(context, () => links.list())).map((row) => `${row.postId}/${row.categoryId}`).sort();
    const member = postsOf('member');
    const viewer = postsOf('viewer');
    const news = category(0, 0);
    const guides = category(0, 1);
    const published = [`${member.published}/${news}`, `${member.published}/${guides}`, `${viewer.published}/${news}`];
    expect(await keys(demo('viewer'))).toEqual([...published].sort());
    expect(await keys(demo('member'))).toEqual([...published, `${member.draft}/${news}`].sort());
    expect(await keys(demo('admin'))).toEqual([...published, `${member.draft}/${news}`, `${viewer.draft}/${news}`].sort());
    expect(await keys(demo('admin', 1))).toEqual([`${postsOf('member', 1).published}/${category(1, 0)}`]);
    // The same scope for one row: a viewer finds a published post's row, not a draft's.
    expect(await runInContext(demo('viewer'), () => links.findByKey({ postId: viewer.published, categoryId: news }))).toMatchObject({
      postId: viewer.published,
      categoryId: news,
    });
    expect(await runInContext(demo('viewer'), () => links.findByKey({ postId: viewer.draft, categoryId: news }))).toBeNull();
    expect(await runInContext(demo('admin', 1), () => links.findByKey({ postId: viewer.published, categoryId: news }))).toBeNull();
  });

  it('keep to a grant’s condition on the join row itself, in key order', async () => {
    const links = repositories.runtime();
    const context = granted(defineAbility(({ can }) => can('read', 'PostCategory', { categoryId: category(0, 1) })));
    expect(await runInContext(context, () => links.list())).toEqual([
      expect.objectContaining({ postId: postsOf('member').published, categoryId: category(0, 1) }),
    ]);
    const all = await runInContext(demo('admin'), () => links.list());
    const order = all.map((row) => [row.postId, row.categoryId]);
    expect(order).toEqual([...order].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1]))));
  });

  it('filter with a Prisma where, straight in SQL or through Prisma alike, and find by a key in any case', async () => {
    const links = repositories.runtime();
    const context = demo('member');
    const news = category(0, 0);
    const direct = await runInContext(context, () => links.list({ categoryId: news }));
    const throughPrisma = await runInContext(context, () => links.list({ category: { name: 'News' } }));
    expect(direct.map((row) => row.postId).sort()).toEqual(
      [postsOf('member').published, postsOf('member').draft, postsOf('viewer').published].sort(),
    );
    expect(throughPrisma).toEqual(direct);
    for (const row of direct) expect(row.createdAt).toBeInstanceOf(Date);
    const [first] = direct;
    const upper = { postId: (first?.postId ?? '').toUpperCase(), categoryId: (first?.categoryId ?? '').toUpperCase() };
    expect(await runInContext(context, () => links.findByKey(upper))).toEqual(first);
    expect(await runInContext(context, () => links.list({ categoryId: news.toUpperCase() }))).toEqual(direct);
  });

  it('answer a key that is no UUID as not found, on both databases', async () => {
    const links = repositories.runtime();
    const context = demo('admin');
    expect(await runInContext(context, () => links.findByKey({ postId: 'nope', categoryId: category(0, 0) }))).toBeNull();
    expect(await runInContext(context, () => links.list({ postId: 'nope' }))).toEqual([]);
    expect(await runInContext(context, () => links.delete({ postId: postsOf('member').published, categoryId: '1; DROP' }))).toEqual({
      ok: false,
      failure: { code: 'NOT_FOUND', message: `PostCategory (postId ${postsOf('member').published}, categoryId 1; DROP) was not found` },
    });
    expect(await runInContext(context, () => links.deleteWhere({ categoryId: 'nope' }))).toBe(0);
  });

  it('mask what the read grant excludes, testing rules through a relation by the composite key', async () => {
    const links = repositories.runtime();
    // Rows of drafts whole; rows of published posts only their key.
    const ability = defineAbility(({ can }) => {
      can('read', 'PostCategory', ['postId', 'categoryId'], { orgId: orgId() });
      can('read', 'PostCategory', { orgId: orgId(), post: { is: { status: 'draft' } } });
    });
    const rows = await runInContext(granted(ability), () => links.list());
    const drafts = new Set([postsOf('member').draft, postsOf('viewer').draft]);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const wire = JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
      if (drafts.has(row.postId)) expect(Object.keys(wire).sort()).toEqual(['categoryId', 'createdAt', 'orgId', 'postId']);
      else expect(Object.keys(wire).sort()).toEqual(['categoryId', 'postId']);
    }
  });
});

for (const [writer, repository] of Object.entries(repositories)) {
  describe(`creates written by ${writer === 'runtime' ? 'the runtime' : 'Prisma'} (docs/behaviour.md §5.5, docs/hostile-input.md §11)`, () => {
    beforeAll(clear);

    it('write the row the create rule allows, and answer the same key again with CONFLICT', async () => {
      const links = repository();
      const postId = postsOf('viewer').draft;
      const created = await runInContext(demo('admin'), () => links.create({ postId, categoryId: category(0, 1), orgId: orgId() }));
      expect(created).toMatchObject({ ok: true, value: { postId, categoryId: category(0, 1), orgId: orgId() } });
      expect(created.ok && created.value.createdAt).toBeInstanceOf(Date);
      const again = await runInContext(demo('admin'), () => links.create({ postId, categoryId: category(0, 1), orgId: orgId() }));
      expect(again).toEqual({
        ok: false,
        failure: { code: 'CONFLICT', message: expect.stringMatching(/^a PostCategory with the same .+ already exists$/) as string },
      });
    });

    it('refuse a row the create rule does not allow: another org, no create grant, no ability', async () => {
      const links = repository();
      const row = { postId: postsOf('member').published, categoryId: category(0, 1), orgId: orgId(1) };
      const forbidden = { ok: false, failure: { code: 'FORBIDDEN', message: 'you may not create this PostCategory' } };
      expect(await runInContext(demo('admin'), () => links.create(row))).toEqual(forbidden);
      expect(await runInContext(demo('member'), () => links.create({ ...row, orgId: orgId() }))).toEqual(forbidden);
      expect(await runInContext(ANONYMOUS, () => links.create({ ...row, orgId: orgId() }))).toEqual(forbidden);
    });

    it('answer a key naming a row the caller may not read exactly as a missing one: NOT_FOUND', async () => {
      const links = repository();
      const context = demo('admin');
      const otherPost = postsOf('member', 1).published;
      const missing = uuidv7();
      const own = { postId: postsOf('member').draft, categoryId: category(0, 0), orgId: orgId() };
      expect(await runInContext(context, () => links.create({ ...own, postId: otherPost }))).toEqual({
        ok: false,
        failure: { code: 'NOT_FOUND', message: `Post ${otherPost} was not found` },
      });
      expect(await runInContext(context, () => links.create({ ...own, postId: missing }))).toEqual({
        ok: false,
        failure: { code: 'NOT_FOUND', message: `Post ${missing} was not found` },
      });
      expect(await runInContext(context, () => links.create({ ...own, categoryId: category(1, 0) }))).toEqual({
        ok: false,
        failure: { code: 'NOT_FOUND', message: `Category ${category(1, 0)} was not found` },
      });
      expect(await runInContext(context, () => links.create({ ...own, categoryId: 'no-such-category' }))).toEqual({
        ok: false,
        failure: { code: 'NOT_FOUND', message: 'Category no-such-category was not found' },
      });
      // A grant that reads no category: every key naming one is refused, before any statement.
      const blind = granted(
        defineAbility(({ can }) => {
          can('create', 'PostCategory', { orgId: orgId() });
          can('read', 'Post', { orgId: orgId() });
        }),
      );
      expect(await runInContext(blind, () => links.create(own))).toEqual({
        ok: false,
        failure: { code: 'NOT_FOUND', message: `Category ${category(0, 0)} was not found` },
      });
      expect(await runUnscoped(() => links.list())).not.toContainEqual(
        expect.objectContaining({ postId: own.postId, categoryId: own.categoryId }),
      );
    });
  });
}

describe('deletes (docs/behaviour.md §5.5)', () => {
  beforeAll(async () => {
    await clear();
    await file(postsOf('member').published, category(0, 0));
    await file(postsOf('member').draft, category(0, 0));
    await file(postsOf('viewer').published, category(0, 1));
  });

  it('remove a row the delete rules allow and answer anything else NOT_FOUND', async () => {
    const links = repositories.runtime();
    const key = { postId: postsOf('member').published, categoryId: category(0, 0) };
    const notFound = {
      ok: false,
      failure: { code: 'NOT_FOUND', message: `PostCategory (postId ${key.postId}, categoryId ${key.categoryId}) was not found` },
    };
    expect(await runInContext(demo('viewer'), () => links.delete(key))).toEqual(notFound);
    expect(await runInContext(demo('member'), () => links.delete(key))).toEqual(notFound);
    expect(await runInContext(demo('admin', 1), () => links.delete(key))).toEqual(notFound);
    expect(await runInContext(ANONYMOUS, () => links.delete(key))).toEqual(notFound);
    expect(await runInContext(demo('admin'), () => links.delete(key))).toEqual({ ok: true, value: key });
    expect(await runInContext(demo('admin'), () => links.delete(key))).toEqual(notFound);
    expect(await runUnscoped(() => links.findByKey(key))).toBeNull();
  });

  it('remove every row of a filter the delete rules allow, and none without a delete rule', async () => {
    const links = repositories.runtime();
    expect(await runInContext(demo('member'), () => links.deleteWhere({ categoryId: category(0, 0) }))).toBe(0);
    expect(await runInContext(demo('admin', 1), () => links.deleteWhere({}))).toBe(0);
    expect(await runInContext(demo('admin'), () => links.deleteWhere({ categoryId: category(0, 0) }))).toBe(1);
    expect((await runUnscoped(() => links.list())).map((row) => row.categoryId)).toEqual([category(0, 1)]);
  });
});

describe('lists (docs/behaviour.md §4.2)', () => {
  it('stop at LIST_CAP rows with a warning naming the entity', async () => {
    await clear();
    const many = await runUnscoped(async () => {
      await database.category.createMany({
        data: Array.from({ length: LIST_CAP + 2 }, (_, index) => ({ orgId: orgId(), name: `Bulk ${index}` })),
      });
      return database.category.findMany({ where: { name: { startsWith: 'Bulk ' } }, select: { id: true } });
    });
    const postId = postsOf('admin').published;
    await runUnscoped(() => database.postCategory.createMany({ data: many.map(({ id }) => ({ postId, categoryId: id, orgId: orgId() })) }));
    const links = repositories.runtime();
    logLines.length = 0;
    expect(await runInContext(demo('admin'), () => links.list({ postId }))).toHaveLength(LIST_CAP);
    const warnings = logLines
      .map((line) => JSON.parse(line) as { level: number; entity?: string; msg: string })
      .filter((entry) => entry.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({ entity: 'PostCategory', msg: expect.stringContaining('truncated to LIST_CAP (1000 rows)') as string }),
    ]);
  });
});
