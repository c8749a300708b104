// Runs on: sqlite, postgresql
/**
 * Scoped repositories against a real SQLite file (docs/behaviour.md §5.6, §5.9, §2.5, §4.2): fail closed
 * without an ability, unscoped only through `runUnscoped`, the Page shape, LIST_CAP with its
 * warning, UUID v7 keys in creation order.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppAbilities } from '../../entities/abilities.js';
import type { Database } from '../../generated/database.js';
import { OrgRepository } from '../../generated/repositories/org.repository.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { UserRepository } from '../../generated/repositories/user.repository.js';
import { ANONYMOUS, type RequestContext, runInContext, runUnscoped } from '../../runtime/auth/context.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { LIST_CAP } from '../../runtime/data/keyset.js';
import { createLogger } from '../../runtime/server/logger.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { createTestDatabase, openDatabase, seedDatabase } from '../support/database.js';

let database: Database;
let runner: SqlRunner;
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
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
  const url = await createTestDatabase();
  seeded = await seedDatabase(url, { orgs: 2, users: 3, posts: 2 });
  database = await openDatabase(url);
  runner = await createSqlRunner(url);
});

afterAll(async () => {
  await Promise.all([database.$disconnect(), runner.close()]);
});

const contextOf = (role: 'admin' | 'member' | 'viewer', orgIndex = 0): RequestContext => {
  const org = seeded.orgs[orgIndex];
  const user = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === org?.id);
  if (!user) throw new Error('missing seeded user');
  const principal = { sub: user.id, org_id: user.orgId, role };
  return { principal, ability: new AppAbilities().for(principal), unscoped: false };
};

describe('fail closed (docs/behaviour.md §5.6)', () => {
  it('reads nothing outside any request context', async () => {
    const users = new UserRepository(database, runner, logger);
    expect(await users.page({})).toEqual({ items: [], has_more: false });
    expect(await users.findById(seeded.users[0]?.id ?? '')).toBeNull();
    expect(await users.listAll()).toEqual([]);
    expect(await users.findManyByIds(seeded.users.map((user) => user.id))).toEqual([]);
  });

  it('reads and writes nothing in a request context without an ability', async () => {
    const users = new UserRepository(database, runner, logger);
    const result = await runInContext(ANONYMOUS, async () => ({
      page: await users.page({ first: 5 }),
      created: await users.create({ orgId: seeded.orgs[0]?.id ?? '', name: 'Ghost', email: 'ghost@example.com' }),
      updated: await users.update(seeded.users[0]?.id ?? '', { name: 'Renamed' }),
    }));
    expect(result.page.items).toEqual([]);
    expect(result.created).toEqual({ ok: false, failure: { code: 'FORBIDDEN', message: 'you may not create this User' } });
    expect(result.updated.ok).toBe(false);
    expect(await runUnscoped(() => users.findById(seeded.users[0]?.id ?? ''))).toMatchObject({ name: seeded.users[0]?.name });
  });

  it('refuses a write the create rules do not allow for this very row (another org)', async () => {
    const users = new UserRepository(database, runner, logger);
    const result = await runInContext(contextOf('admin', 0), () =>
      users.create({ orgId: seeded.orgs[1]?.id ?? '', name: 'Spy', email: 'spy@example.com' }),
    );
    expect(result).toEqual({ ok: false, failure: { code: 'FORBIDDEN', message: 'you may not create this User' } });
  });
});

describe('explicit unscoped runs (docs/behaviour.md §5.9)', () => {
  it("sees every org's rows only inside runUnscoped", async () => {
    const users = new UserRepository(database, runner, logger);
    const all = await runUnscoped(() => users.page({ first: 100 }));
    expect(all.items.map((user) => user.id)).toEqual(seeded.users.map((user) => user.id).sort());
    const scoped = await runInContext(contextOf('admin', 0), () => users.page({ first: 100 }));
    expect(scoped.items.every((user) => user.orgId === seeded.orgs[0]?.id)).toBe(true);
  });
});

describe('the service-level Page (docs/behaviour.md §2.5)', () => {
  it('has items, has_more and next_cursor only while more rows remain', async () => {
    const posts = new PostRepository(database, runner, logger);
    const context = contextOf('admin');
    const first = await runInContext(context, () => posts.page({ first: 2 }));
    expect(Object.keys(first).sort()).toEqual(['has_more', 'items', 'next_cursor']);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(first.items[1]?.id);
    const rest = await runInContext(context, () => posts.page({ first: 100, after: first.next_cursor }));
    expect(rest.has_more).toBe(false);
    expect('next_cursor' in rest).toBe(false);
  });
});

describe('pagination mode none (docs/behaviour.md §4.2)', () => {
  it('caps the whole collection at LIST_CAP and logs a warning naming the entity', async () => {
    await database.org.createMany({ data: Array.from({ length: LIST_CAP + 5 }, (_, index) => ({ name: `Bulk ${index}` })) });
    const orgs = new OrgRepository(database, runner, logger);
    logLines.length = 0;
    const all = await runUnscoped(() => orgs.listAll());
    expect(all).toHaveLength(LIST_CAP);
    const warnings = logLines
      .map((line) => JSON.parse(line) as { level: number; entity?: string; msg: string })
      .filter((entry) => entry.level === 40);
    expect(warnings).toEqual([
      expect.objectContaining({ entity: 'Org', msg: expect.stringContaining('truncated to LIST_CAP (1000 rows)') }),
    ]);
    logLines.length = 0;
    await runInContext(contextOf('admin'), () => orgs.listAll());
    expect(logLines).toEqual([]);
  });
});

describe('keys (docs/decisions.md §2)', () => {
  it('are UUID v7, so id order is creation order', async () => {
    const users = new UserRepository(database, runner, logger);
    const context = contextOf('admin');
    const created: string[] = [];
    for (let index = 0; index < 5; index++) {
      const result = await runInContext(context, () =>
        users.create({ orgId: seeded.orgs[0]?.id ?? '', name: `Ordered ${index}`, email: `ordered${index}@acme.example` }),
      );
      if (!result.ok) throw new Error(result.failure.message);
      created.push(result.value.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    for (const id of created) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...created].sort()).toEqual(created);
  });
});

describe('reads straight from the driver, or through Prisma when the filter needs it (BENCHMARKS.md)', () => {
  it('returns the same rows, with the same values, either way', async () => {
    const posts = new PostRepository(database, runner, logger);
    const context = contextOf('member');
    const member = context.principal?.sub ?? '';
    // A filter on a column translates to SQL; one through a relation does not and goes to Prisma.
    const direct = await runInContext(context, () => posts.page({ first: 100 }, { authorId: member }));
    const throughPrisma = await runInContext(context, () => posts.page({ first: 100 }, { author: { id: member } }));
    expect(direct.items.length).toBeGreaterThan(0);
    expect(direct).toEqual(throughPrisma);
    for (const post of direct.items) {
      expect(post.createdAt).toBeInstanceOf(Date);
      expect(post.publishedAt === null || post.publishedAt instanceof Date).toBe(true);
    }
    const one = direct.items[0];
    expect(await runInContext(context, () => posts.findById(one?.id ?? ''))).toEqual(one);
    expect(await runInContext(context, () => posts.findById((one?.id ?? '').toUpperCase()))).toEqual(one);
  });
});
