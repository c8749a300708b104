/**
 * A resource's inputs (docs/behaviour.md §4.7; runtime/data/resource-input.ts): the zod schema
 * derived from columns and their constraints, the values a create rule fixes, and mass assignment
 * refused with FORBIDDEN naming the field.
 */
import { describe, expect, it } from 'vitest';
import { defineAbility, type Principal } from '../../runtime/auth/ability.js';
import { FailureError } from '../../runtime/failures/result.js';
import { fixedByRule, refuseUnpermittedFields, type ResourceColumn, resourceInputSchema } from '../../runtime/data/resource-input.js';

const COLUMNS: ResourceColumn[] = [
  { name: 'id', type: 'string', nullable: false, generated: true, constraints: {} },
  { name: 'orgId', type: 'string', nullable: false, generated: false, constraints: {} },
  { name: 'authorId', type: 'string', nullable: false, generated: false, constraints: {} },
  { name: 'body', type: 'string', nullable: false, generated: false, constraints: { maxLength: 10, minLength: 1 } },
  { name: 'email', type: 'string', nullable: true, generated: false, constraints: { format: 'email' } },
  { name: 'code', type: 'string', nullable: true, generated: false, constraints: { pattern: '^[A-Z]{3}$' } },
  { name: 'score', type: 'int', nullable: true, generated: false, constraints: { min: 0, max: 5 } },
];
const FIELDS = COLUMNS.map((column) => column.name);

const alice: Principal = { sub: 'u-alice', org_id: 'org-1', role: 'member' };
const memberAbility = (principal: Principal) =>
  defineAbility(({ can }) => {
    can('read', 'Comment', { orgId: principal.org_id });
    can('create', 'Comment', { orgId: principal.org_id, authorId: principal.sub });
    can('update', 'Comment', ['body'], { orgId: principal.org_id, authorId: principal.sub });
  });

const refusal = (run: () => void): unknown => {
  try {
    run();
  } catch (error) {
    return error instanceof FailureError ? error.failure : error;
  }
  return undefined;
};

describe('resource input schema (docs/behaviour.md §4.7)', () => {
  it('requires what create needs, checks each column constraint, and refuses unknown keys', () => {
    const create = resourceInputSchema(COLUMNS, 'create');
    expect(create.safeParse({ orgId: 'o', authorId: 'a', body: 'hi' }).success).toBe(true);
    expect(create.safeParse({ orgId: 'o', authorId: 'a' }).success).toBe(false);
    const issues = (value: unknown): string[] => {
      const parsed = create.safeParse(value);
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.') || issue.code);
    };
    expect(issues({ orgId: 'o', authorId: 'a', body: 'far too long a body' })).toEqual(['body']);
    expect(issues({ orgId: 'o', authorId: 'a', body: '' })).toEqual(['body']);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', email: 'not-an-email' })).toEqual(['email']);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', code: 'abc' })).toEqual(['code']);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', score: 6 })).toEqual(['score']);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', score: 1.5 })).toEqual(['score']);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', email: null, code: 'ABC', score: 5 })).toEqual([]);
    expect(issues({ orgId: 'o', authorId: 'a', body: 'ok', bodyy: 'typo' })).toEqual(['unrecognized_keys']);
  });

  it('makes every column optional on update, constraints still checked', () => {
    const update = resourceInputSchema(COLUMNS, 'update');
    expect(update.safeParse({}).success).toBe(true);
    expect(update.safeParse({ body: 'fine' }).success).toBe(true);
    expect(update.safeParse({ body: 'x'.repeat(11) }).success).toBe(false);
  });
});

describe('mass assignment (docs/behaviour.md §4.7)', () => {
  it('takes the values a create rule fixes from its conditions', () => {
    expect(fixedByRule(memberAbility(alice), 'Comment')).toEqual({ orgId: 'org-1', authorId: 'u-alice' });
  });

  it('refuses a create input carrying a fixed field, naming it', () => {
    const ability = memberAbility(alice);
    const fixed = fixedByRule(ability, 'Comment');
    expect(refusal(() => refuseUnpermittedFields(ability, 'create', 'Comment', fixed, { body: 'hi' }, FIELDS))).toBeUndefined();
    expect(
      refusal(() => refuseUnpermittedFields(ability, 'create', 'Comment', fixed, { body: 'hi', orgId: 'org-2' }, FIELDS)),
    ).toMatchObject({ code: 'FORBIDDEN', field: 'orgId' });
    expect(refusal(() => refuseUnpermittedFields(ability, 'create', 'Comment', fixed, { authorId: 'u-bob' }, FIELDS))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'authorId',
    });
  });

  it('lets an update change only the fields its rule permits on the stored row', () => {
    const ability = memberAbility(alice);
    const own = { id: 'c1', orgId: 'org-1', authorId: 'u-alice', body: 'hi' };
    expect(refusal(() => refuseUnpermittedFields(ability, 'update', 'Comment', own, { body: 'new' }, FIELDS))).toBeUndefined();
    expect(refusal(() => refuseUnpermittedFields(ability, 'update', 'Comment', own, { orgId: 'org-2' }, FIELDS))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'orgId',
    });
    expect(refusal(() => refuseUnpermittedFields(ability, 'update', 'Comment', own, { authorId: 'u-bob' }, FIELDS))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'authorId',
    });
    // Someone else's comment: no field is permitted.
    const others = { ...own, authorId: 'u-bob' };
    expect(refusal(() => refuseUnpermittedFields(ability, 'update', 'Comment', others, { body: 'new' }, FIELDS))).toMatchObject({
      code: 'FORBIDDEN',
      field: 'body',
    });
  });
});
