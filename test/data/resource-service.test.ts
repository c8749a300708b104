// Runs on: sqlite, postgresql
/**
 * The generic resource service against a real database (docs/behaviour.md §4.7;
 * runtime/data/resource-service.ts), over the demo's Post repository with grants of a resource's
 * shape: scope, 404 alike for another org's row and a missing one, mass assignment refused with
 * FORBIDDEN naming the field, constraints as BAD_USER_INPUT, delete of another org's row a no-op.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../generated/database.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { defineAbility, type Principal } from '../../runtime/auth/ability.js';
import { type RequestContext, runInContext, runUnscoped } from '../../runtime/auth/context.js';
import type { ResourceColumn } from '../../runtime/data/resource-input.js';
import { ResourceService } from '../../runtime/data/resource-service.js';
import type { SqlRunner } from '../../runtime/data/sql-runner.js';
import { createSqlRunner } from '../../runtime/dialects/index.js';
import { FailureError } from '../../runtime/failures/result.js';
import { createLogger } from '../../runtime/server/logger.js';
import { createTestDatabase, openDatabase, seedDatabase } from '../support/database.js';

let database: Database;
let runner: SqlRunner;
let seeded: Awaited<ReturnType<typeof seedDatabase>>;
const logger = createLogger({ level: 'error', format: 'json' });

const COLUMNS: ResourceColumn[] = [
  { name: 'orgId', type: 'string', nullable: false, generated: false, constraints: {} },
  { name: 'authorId', type: 'string', nullable: false, generated: false, constraints: {} },
  { name: 'title', type: 'string', nullable: false, generated: false, constraints: { maxLength: 20 } },
  { name: 'body', type: 'string', nullable: false, generated: true, constraints: {} },
];

/**
 * Everyone in the org reads (the org and its users too: a post's keys name them, and a write may name
 * only rows its caller reads); members create as themselves and update their own title and body;
 * admins delete in their org.
 */
const abilityOf = (principal: Principal) =>
  defineAbility(({ can }) => {
    const inOrg = { orgId: principal.org_id };
    can('read', 'Org', { id: principal.org_id });
    can('read', 'User', inOrg);
    can('read', 'Post', inOrg);
    can('create', 'Post', { ...inOrg, authorId: principal.sub });
    can('update', 'Post', ['title', 'body'], { ...inOrg, authorId: principal.sub });
    if (principal.role === 'admin') can('delete', 'Post', inOrg);
  });

const contextOf = (role: 'admin' | 'member', orgIndex = 0): RequestContext => {
  const org = seeded.orgs[orgIndex];
  const user = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === org?.id);
  if (!user) throw new Error('missing seeded user');
  const principal = { sub: user.id, org_id: user.orgId, role };
  return { principal, ability: abilityOf(principal), unscoped: false };
};

const service = () => new ResourceService('Post', new PostRepository(database, runner, logger), COLUMNS);

const thrown = async (run: () => Promise<unknown>): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error instanceof FailureError ? error.failure : error;
  }
  return undefined;
};

beforeAll(async () => {
  const url = await createTestDatabase();
  seeded = await seedDatabase(url, { orgs: 2, users: 3, posts: 2 });
  database = await openDatabase(url);
  runner = await createSqlRunner(url);
});

afterAll(async () => {
  await Promise.all([database.$disconnect(), runner.close()]);
});

describe('resource service (docs/behaviour.md §4.7)', () => {
  it('creates with the values the create rule fixes, and refuses them in the input', async () => {
    const member = contextOf('member');
    const created = await runInContext(member, () => service().create({ title: 'hello' }));
    expect(created).toMatchObject({
      ok: true,
      value: { title: 'hello', orgId: member.principal?.org_id, authorId: member.principal?.sub },
    });
    expect(await thrown(() => runInContext(member, () => service().create({ title: 'x', orgId: seeded.orgs[1]?.id })))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'orgId',
    });
    expect(await thrown(() => runInContext(member, () => service().create({ title: 'x', authorId: 'someone' })))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'authorId',
    });
  });

  it('checks the column constraints as BAD_USER_INPUT naming the field', async () => {
    const result = await runInContext(contextOf('member'), () => service().create({ title: 'x'.repeat(21) }));
    expect(result).toMatchObject({ ok: false, failure: { code: 'BAD_USER_INPUT', issues: [{ path: 'title' }] } });
    expect(await runInContext(contextOf('member'), () => service().create('not an object'))).toMatchObject({
      ok: false,
      failure: { code: 'BAD_USER_INPUT' },
    });
  });

  it('lists and gets only the caller org, another org row answering like a missing one', async () => {
    const member = contextOf('member');
    const page = await runInContext(member, () => service().list({ first: 100 }));
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((row) => row.orgId === member.principal?.org_id)).toBe(true);
    const other = await runUnscoped(() => database.post.findFirst({ where: { orgId: seeded.orgs[1]?.id } }));
    const otherResult = await runInContext(member, () => service().get(other?.id ?? ''));
    const missing = await runInContext(member, () => service().get('0190a0a0-0000-7000-8000-000000000000'));
    expect(otherResult).toMatchObject({ ok: false, failure: { code: 'NOT_FOUND' } });
    expect(missing).toMatchObject({ ok: false, failure: { code: 'NOT_FOUND' } });
  });

  it('updates only permitted fields of the own row', async () => {
    const member = contextOf('member');
    const created = await runInContext(member, () => service().create({ title: 'mine' }));
    if (!created.ok) throw new Error('create failed');
    expect(await runInContext(member, () => service().update(created.value.id, { body: 'edited' }))).toMatchObject({
      ok: true,
      value: { body: 'edited' },
    });
    expect(await thrown(() => runInContext(member, () => service().update(created.value.id, { authorId: 'someone' })))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'authorId',
    });
    expect(await runInContext(contextOf('member', 1), () => service().update(created.value.id, { body: 'theirs' }))).toMatchObject({
      ok: false,
      failure: { code: 'NOT_FOUND' },
    });
  });

  it('deletes in the admin org only; another org row is left alone', async () => {
    const created = await runInContext(contextOf('member'), () => service().create({ title: 'to go' }));
    if (!created.ok) throw new Error('create failed');
    expect(await runInContext(contextOf('admin', 1), () => service().delete(created.value.id))).toMatchObject({
      ok: false,
      failure: { code: 'NOT_FOUND' },
    });
    expect(await runUnscoped(() => database.post.findUnique({ where: { id: created.value.id } }))).not.toBeNull();
    // The member reads their own post but may not delete it: FORBIDDEN, as an update they may not make (docs/behaviour.md §4.7).
    expect(await runInContext(contextOf('member'), () => service().delete(created.value.id))).toMatchObject({
      ok: false,
      failure: { code: 'FORBIDDEN' },
    });
    expect(await runInContext(contextOf('admin'), () => service().delete(created.value.id))).toEqual({
      ok: true,
      value: { id: created.value.id },
    });
  });
});
