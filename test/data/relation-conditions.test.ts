// Runs on: sqlite, postgresql
/**
 * Relation conditions in grants (docs/behaviour.md §5.5): `is`/`isNot` on a belongs_to and
 * `some`/`every`/`none` on a has_many become `EXISTS` sub-queries in SQL. On random data and
 * random conditions, the SQL translation selects exactly the rows Prisma's own reading of the same
 * `where` selects and CASL's Prisma interpreter admits (relations loaded); and on random grants
 * mixing such conditions with field lists, every read path of a repository — pages, `findById`,
 * `findManyByIds`, primary-key and per-parent loader batches — answers the rows `accessibleBy`
 * gives Prisma, each masked to the fields CASL permits on it.
 */
import { subject } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
import { accessibleBy } from '@casl/prisma/runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../generated/database.js';
import { COMMENT_FIELDS, SCOPE_SCHEMA, USER_FIELDS } from '../../generated/entities.js';
import { CommentRepository } from '../../generated/repositories/comment.repository.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { UserRepository } from '../../generated/repositories/user.repository.js';
import { type AppAbility, defineAbility, type WhereCondition } from '../../runtime/auth/ability.js';
import { type RequestContext, runInContext } from '../../runtime/auth/context.js';
import { unmaskedRow } from '../../runtime/auth/originals.js';
import { pageWindow } from '../../runtime/data/keyset.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { quoteIdentifier, sqltag, whereToSql } from '../../runtime/data/sql-scope.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { createLogger } from '../../runtime/server/logger.js';
import { createTestDatabase, openDatabase, testProvider } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';

const logger = createLogger({ level: 'silent' });
const TITLES = ['alpha', 'beta', 'Alpha beta', 'gamma'];
const STATUSES = ['draft', 'published'] as const;

let database: Database;
let runner: SqlRunner;
let orgs: string[];
let users: { id: string; orgId: string; name: string }[];
let posts: { id: string; orgId: string; authorId: string }[];

/** A small deterministic PRNG (mulberry32): the data is the same on every run. */
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
  database = await openDatabase(url);
  runner = await createSqlRunner(url);
  const next = random(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  orgs = [];
  for (let index = 0; index < 3; index++) orgs.push((await database.org.create({ data: { name: `Org ${index}` } })).id);
  users = [];
  for (let index = 0; index < 12; index++)
    users.push(
      await database.user.create({
        data: { orgId: pick(orgs), name: pick(['Ann', 'Bob', 'Cy']), email: `u${index}@example.com` },
        select: { id: true, orgId: true, name: true },
      }),
    );
  posts = [];
  for (let index = 0; index < 40; index++) {
    const author = pick(users);
    const colleagues = users.filter((user) => user.orgId === author.orgId);
    posts.push(
      await database.post.create({
        data: {
          orgId: author.orgId,
          authorId: author.id,
          reviewerId: next() < 0.5 ? pick(colleagues).id : null,
          title: pick(TITLES),
          status: pick(STATUSES),
        },
        select: { id: true, orgId: true, authorId: true },
      }),
    );
  }
  for (let index = 0; index < 60; index++) {
    const post = pick(posts);
    await database.comment.create({
      data: { orgId: post.orgId, postId: post.id, authorId: pick(users).id, body: pick(['ok', 'nice', 'OK then']) },
    });
  }
});

afterAll(async () => {
  await Promise.all([database?.$disconnect(), runner?.close()]);
});

type Entity = 'Org' | 'User' | 'Post' | 'Comment';

/** Conditions on `entity`'s own columns, as a grant writes them. */
function columnCondition(entity: Entity): fc.Arbitrary<WhereCondition> {
  const org = fc.constantFrom(...orgs);
  const user = fc.constantFrom(...users.map((row) => row.id));
  switch (entity) {
    case 'Org':
      return fc.oneof(
        org.map((id) => ({ id })),
        fc.constantFrom('Org 0', 'Org 1').map((name) => ({ name: { not: name } })),
      );
    case 'User':
      return fc.oneof(
        org.map((orgId) => ({ orgId })),
        fc.constantFrom('Ann', 'Bob').map((name) => ({ name })),
        fc.subarray(['Ann', 'Cy']).map((names) => ({ name: { in: names } })),
      );
    case 'Post':
      return fc.oneof(
        org.map((orgId) => ({ orgId })),
        fc.constantFrom(...STATUSES).map((status) => ({ status })),
        user.map((authorId) => ({ authorId })),
        fc.constantFrom(null, { not: null }).map((reviewerId) => ({ reviewerId })),
        fc.constantFrom('alpha', 'beta', 'a').map((text) => ({ title: { contains: text } })),
        fc.constantFrom('alpha', 'Alpha').map((text) => ({ title: { startsWith: text } })),
      );
    case 'Comment':
      return fc.oneof(
        org.map((orgId) => ({ orgId })),
        user.map((authorId) => ({ authorId })),
        fc.constantFrom('ok', 'nice').map((body) => ({ body: { not: body } })),
      );
  }
}

/** The relations of each entity a condition may follow (the demo's, as SCOPE_SCHEMA lists them). */
const RELATIONS: Record<Entity, readonly { name: string; kind: 'belongsTo' | 'hasMany'; target: Entity; optional?: boolean }[]> = {
  Org: [{ name: 'users', kind: 'hasMany', target: 'User' }],
  User: [
    { name: 'org', kind: 'belongsTo', target: 'Org' },
    { name: 'posts', kind: 'hasMany', target: 'Post' },
    { name: 'reviews', kind: 'hasMany', target: 'Post' },
  ],
  Post: [
    { name: 'org', kind: 'belongsTo', target: 'Org' },
    { name: 'author', kind: 'belongsTo', target: 'User' },
    { name: 'reviewer', kind: 'belongsTo', target: 'User', optional: true },
  ],
  Comment: [{ name: 'post', kind: 'belongsTo', target: 'Post' }],
};

/**
 * A random `where` on `entity`: columns, relation filters (to `depth` levels) and combinators;
 * with `nulls`, also `is: null` / `isNot: null` on an optional belongs_to, which Prisma and the SQL
 * translation take but CASL's interpreter refuses (so a grant may not use it: `generate` says to
 * test the key column instead).
 */
function condition(entity: Entity, depth: number, nulls = false): fc.Arbitrary<WhereCondition> {
  const relations = depth === 0 ? [] : RELATIONS[entity];
  const related =
    relations.length === 0
      ? []
      : [
          fc.constantFrom(...relations).chain((relation): fc.Arbitrary<WhereCondition> => {
            const inner = condition(relation.target, depth - 1, nulls);
            if (relation.kind === 'hasMany')
              return fc
                .tuple(fc.constantFrom('some', 'every', 'none'), fc.oneof(inner, fc.constant({})))
                .map(([filter, where]) => ({ [relation.name]: { [filter]: where } }));
            const filters: fc.Arbitrary<WhereCondition>[] = [
              inner.map((where) => ({ is: where })),
              inner.map((where) => ({ isNot: where })),
              ...(relation.optional && nulls ? [fc.constant({ is: null }), fc.constant({ isNot: null })] : []),
            ];
            return fc.oneof(...filters).map((filter) => ({ [relation.name]: filter }));
          }),
        ];
  const leaf: fc.Arbitrary<WhereCondition> = fc.oneof(columnCondition(entity), ...related);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([a, b]) => ({ ...a, ...b })) },
    { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([a, b]) => ({ OR: [a, b] })) },
    { weight: 1, arbitrary: leaf.map((a) => ({ NOT: a })) },
  );
}

/** Prisma's delegate of `entity`, as this test uses it. */
function delegate(entity: Entity): { findMany(args: object): Promise<Record<string, unknown>[]> } {
  const delegates = { Org: database.org, User: database.user, Post: database.post, Comment: database.comment };
  return delegates[entity];
}

/** What Prisma includes to load every relation `entity` may follow, to `depth` levels (for CASL's in-memory test). */
function includeOf(entity: Entity, depth: number): Record<string, unknown> | undefined {
  if (depth === 0) return undefined;
  return Object.fromEntries(
    RELATIONS[entity].map((relation) => {
      const nested = includeOf(relation.target, depth - 1);
      return [relation.name, nested ? { include: nested } : true];
    }),
  );
}

/** A condition holding a text match (its JSON text names the operator). */
const TEXT_MATCH = /"(contains|startsWith|endsWith)"/;

const sortedIds = (rows: readonly { id?: unknown }[]): string[] => rows.map((row) => String(row.id)).sort();

describe('relation conditions in SQL (docs/behaviour.md §5.5)', () => {
  for (const entity of ['Post', 'User', 'Comment', 'Org'] as const) {
    it(`select on ${entity} exactly the rows Prisma and CASL's interpreter select (generated conditions)`, async () => {
      const every = await delegate(entity).findMany({ include: includeOf(entity, 3) });
      await fc.assert(
        fc.asyncProperty(
          fc.boolean().chain((nulls) => condition(entity, 3, nulls).map((where) => ({ nulls, where }))),
          async ({ nulls, where }) => {
            const label = JSON.stringify(where);
            const sql = whereToSql(runner.sql, where, 't', entity, SCOPE_SCHEMA);
            const translated = sortedIds(
              await runner.read(
                sqltag`SELECT t.${quoteIdentifier(runner.sql, 'id')} FROM ${quoteIdentifier(runner.sql, entity)} t WHERE ${sql}`,
              ),
            );
            // Prisma on SQLite matches text with LIKE, which folds ASCII case; the translation does not, on either database.
            if (testProvider() === 'postgresql' || !TEXT_MATCH.test(label))
              expect(translated, label).toEqual(sortedIds(await delegate(entity).findMany({ where, select: { id: true } })));
            if (nulls) return;
            const ability = defineAbility(({ can }) => can('read', entity, where));
            expect(translated, label).toEqual(sortedIds(every.filter((row) => ability.can('read', subject(entity, row)))));
          },
        ),
        { numRuns: Math.ceil(PROPERTY_RUNS / 2), seed: PROPERTY_SEED },
      );
    });
  }
});

/** A grant of `read` on Comment: a condition (with relations) and, sometimes, a field list. */
const commentGrant = (): fc.Arbitrary<{ fields: string[] | undefined; where: WhereCondition }> =>
  fc.record({
    fields: fc.option(fc.subarray([...COMMENT_FIELDS], { minLength: 1 }), { nil: undefined }),
    where: condition('Comment', 2),
  });

/** Generated read grants on Comment, Post and User (a `cannot` taking comment fields back at times). */
interface Grants {
  readonly comment: readonly { fields: string[] | undefined; where: WhereCondition }[];
  readonly post: WhereCondition | undefined;
  readonly hiddenCommentFields: readonly string[];
  readonly user: string[] | undefined;
  /** Which comment `findById` asks for (an index into every comment). */
  readonly pick: number;
}

const grants = (): fc.Arbitrary<Grants> =>
  fc.record({
    comment: fc.array(commentGrant(), { minLength: 1, maxLength: 3 }),
    post: fc.option(condition('Post', 1), { nil: undefined }),
    hiddenCommentFields: fc.subarray(['authorId', 'body']),
    user: fc.option(fc.subarray([...USER_FIELDS], { minLength: 1 }), { nil: undefined }),
    pick: fc.nat(),
  });

function abilityOf(generated: Grants): AppAbility {
  return defineAbility(({ can, cannot }) => {
    for (const grant of generated.comment) {
      if (grant.fields) can('read', 'Comment', grant.fields, grant.where);
      else can('read', 'Comment', grant.where);
    }
    if (generated.hiddenCommentFields.length > 0) cannot('read', 'Comment', generated.hiddenCommentFields);
    if (generated.post) can('read', 'Post', generated.post);
    if (generated.user) can('read', 'User', generated.user, { orgId: { in: orgs } });
  });
}

/** The Prisma `where` CASL's `accessibleBy` makes of `ability`'s read rules on `entity`. */
function scopeOf(ability: AppAbility, entity: Entity): never {
  return accessibleBy(ability, 'read').ofType(entity as never) as never;
}

/** The fields CASL permits on `row` (relations loaded), as masking must leave them. */
function permitted(ability: AppAbility, entity: Entity, row: object, fields: readonly string[]): string[] {
  return permittedFieldsOf(ability, 'read', subject(entity, { ...row }), {
    fieldsFrom: (rule: { fields?: string | string[] }) =>
      rule.fields === undefined ? [...fields] : Array.isArray(rule.fields) ? rule.fields : [rule.fields],
  }).sort();
}

/** The wire fields a masked row still carries (enumerable, not refused). */
const visibleFields = (row: object, fields: readonly string[]): string[] =>
  fields.filter((field) => Object.keys(row).includes(field)).sort();

describe('every read path under grants with relation conditions (docs/behaviour.md §5.5, §5.8)', () => {
  it('answers the rows accessibleBy gives Prisma, each masked to the fields CASL permits (generated grants)', async () => {
    const comments = new CommentRepository(database, runner, logger);
    const postRepository = new PostRepository(database, runner, logger);
    const userRepository = new UserRepository(database, runner, logger);
    const everyComment = await database.comment.findMany({ include: { post: { include: includeOf('Post', 1) } } });
    const everyPost = await database.post.findMany({ include: includeOf('Post', 1) });
    const wholeUsers = new Map((await database.user.findMany()).map((row) => [row.id, row]));
    await fc.assert(
      fc.asyncProperty(grants(), async (generated) => {
        const ability = abilityOf(generated);
        const principal = { sub: users[0]?.id ?? '', org_id: orgs[0] ?? '', role: 'generated' };
        const context: RequestContext = { principal, ability, unscoped: false };
        const label = JSON.stringify(generated);
        // CASL's interpreter on the rows with their relations loaded; Prisma too, but where its LIKE folds case (SQLite).
        const expected = sortedIds(everyComment.filter((row) => ability.can('read', subject('Comment', row))));
        if (testProvider() === 'postgresql' || !TEXT_MATCH.test(label))
          expect(sortedIds(await database.comment.findMany({ where: scopeOf(ability, 'Comment'), select: { id: true } })), label).toEqual(
            expected,
          );
        const fieldsOf = new Map(everyComment.map((row) => [row.id, permitted(ability, 'Comment', row, COMMENT_FIELDS)]));
        const checkMasks = (rows: readonly object[]): void => {
          for (const row of rows) {
            const id = String(unmaskedRow(row as { id: unknown }).id);
            expect(visibleFields(row, COMMENT_FIELDS), `${label} row ${id}`).toEqual(fieldsOf.get(id));
          }
        };
        // A keyset page over everything, then findById and findManyByIds of every comment.
        const page = await runInContext(context, () => comments.page({ first: 100 }));
        expect(sortedIds(page.items.map(unmaskedRow)), label).toEqual(expected);
        checkMasks(page.items);
        const all = everyComment.map((row) => row.id);
        const byIds = await runInContext(context, () => comments.findManyByIds(all));
        expect(sortedIds(byIds.map(unmaskedRow)), label).toEqual(expected);
        checkMasks(byIds);
        const one = all[generated.pick % all.length] ?? '';
        const found = await runInContext(context, () => comments.findById(one));
        expect(found === null ? [] : [unmaskedRow(found).id], label).toEqual(expected.includes(one) ? [one] : []);
        if (found) checkMasks([found]);
        // The loader batches: by primary key, and per parent (comments have no has_many; posts by author do).
        const loaded = await comments.loadByIds(context, all);
        expect(sortedIds(loaded.map(unmaskedRow)), label).toEqual(expected);
        checkMasks(loaded);
        const readablePosts = new Set(sortedIds(everyPost.filter((row) => ability.can('read', subject('Post', row)))));
        const pages = await postRepository.loadPagesByParent(
          context,
          'authorId',
          users.map((user) => user.id),
          pageWindow({ first: 100 }),
        );
        for (const user of users) {
          const ids = everyPost
            .filter((post) => post.authorId === user.id && readablePosts.has(post.id))
            .map((post) => post.id)
            .sort();
          expect(sortedIds((pages.get(user.id)?.items ?? []).map(unmaskedRow)), label).toEqual(ids);
        }
        const people = await userRepository.loadByIds(
          context,
          users.map((user) => user.id),
        );
        for (const person of people)
          expect(visibleFields(person, USER_FIELDS), label).toEqual(
            permitted(ability, 'User', wholeUsers.get(unmaskedRow(person).id) ?? {}, USER_FIELDS),
          );
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 3), seed: PROPERTY_SEED },
    );
  });
});
