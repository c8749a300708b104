/**
 * What a resource's create and update accept (docs/behaviour.md §4.7): one zod schema per input,
 * derived from the entity's columns and the constraints written on them, and the ability's say
 * over which fields an input may carry — values the caller's create rule fixes (`orgId` = the
 * caller's org) come from its conditions and are never input, and an update may change only the
 * fields its rule permits. Anything else is refused with `FORBIDDEN` naming the field: no mass
 * assignment, whatever the transport.
 */
import { rulesToFields } from '@casl/ability/extra';
import { z } from 'zod';
import { type AppAbility, permittedFields } from '../auth/ability.js';
import { FailureError } from '../failures/result.js';
import { isUuid } from './keyset.js';

/** The value constraints written on a column (`@Column({ maxLength: 2000 })`; docs/behaviour.md §4.7). */
export interface ResourceColumnConstraints {
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  readonly format?: 'email';
}

/** A column as a resource's inputs see it (docs/behaviour.md §4.7). */
export interface ResourceColumn {
  readonly name: string;
  /** `id`: a key column holding a UUID (a primary or belongs_to key; `uuid` on PostgreSQL). */
  readonly type: 'id' | 'string' | 'int' | 'float' | 'boolean' | 'datetime' | { readonly enum: readonly [string, ...string[]] };
  readonly nullable: boolean;
  /** Whether the database fills it when create leaves it out (a default, or the primary key). */
  readonly generated: boolean;
  readonly constraints: ResourceColumnConstraints;
}

function scalarSchema(column: ResourceColumn): z.ZodType {
  const { type, constraints } = column;
  if (type === 'string') {
    let schema = constraints.format === 'email' ? z.email() : z.string();
    if (constraints.minLength !== undefined) schema = schema.min(constraints.minLength);
    if (constraints.maxLength !== undefined) schema = schema.max(constraints.maxLength);
    if (constraints.pattern !== undefined) schema = schema.regex(new RegExp(constraints.pattern));
    return schema;
  }
  if (type === 'int' || type === 'float') {
    let schema = type === 'int' ? z.number().int() : z.number();
    if (constraints.min !== undefined) schema = schema.min(constraints.min);
    if (constraints.max !== undefined) schema = schema.max(constraints.max);
    return schema;
  }
  // Keys are UUIDs: anything else could never match a row (and PostgreSQL would refuse the statement).
  if (type === 'id') return z.string().refine(isUuid, 'expected a UUID');
  if (type === 'boolean') return z.boolean();
  // REST bodies and GraphQL arguments arrive coerced to a Date; a direct caller may pass ISO text.
  if (type === 'datetime') return z.union([z.date(), z.iso.datetime({ offset: true }).transform((text) => new Date(text))]);
  return z.enum(type.enum);
}

/**
 * The schema of a resource's `create` or `update` input over `columns` (docs/behaviour.md §4.7).
 *
 * A create requires every column that is neither nullable nor generated; an update makes every
 * column optional. Nullable columns accept `null`. The object is strict: a key that is no column
 * is an issue, so the caller learns of a typo rather than having it dropped.
 */
export function resourceInputSchema(columns: readonly ResourceColumn[], mode: 'create' | 'update'): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const column of columns) {
    const value = column.nullable ? scalarSchema(column).nullable() : scalarSchema(column);
    shape[column.name] = mode === 'update' || column.nullable || column.generated ? value.optional() : value;
  }
  return z.strictObject(shape);
}

/**
 * The values the caller's `create` rule on `entity` fixes (docs/behaviour.md §4.7): equality
 * conditions of its rules (`{ orgId: principal.org_id, authorId: principal.sub }`), which a create
 * sets itself and no input may carry.
 */
export function fixedByRule(ability: AppAbility, entity: string): Record<string, unknown> {
  return rulesToFields(ability, 'create', entity);
}

/**
 * Refuses mass assignment (docs/behaviour.md §4.7): throws `FORBIDDEN` naming every field of
 * `input` that `action` on `entity` may not set — one the rule fixes by its conditions (the org,
 * the author: on create they come from the rule, on update they cannot move the row out of it),
 * or one outside the fields the rule permits on `row` (the stored row for an update; the fixed
 * values for a create). `fields` are every column, what a rule without `fields` permits. The
 * message lists them all; the error's `field` names the first.
 */
export function refuseUnpermittedFields(
  ability: AppAbility,
  action: 'create' | 'update',
  entity: string,
  row: object,
  input: Record<string, unknown>,
  fields: readonly string[],
): void {
  const fixed = rulesToFields(ability, action, entity);
  const permitted = permittedFields(ability, action, entity, row, fields);
  const fixedSent = Object.keys(input).filter((field) => field in fixed);
  const outside = Object.keys(input).filter((field) => !(field in fixed) && !permitted.has(field));
  if (fixedSent.length === 0 && outside.length === 0) return;
  const refused = [...fixedSent, ...outside];
  const reasons = [
    ...(fixedSent.length > 0
      ? [
          `${fixedSent.map((field) => `${entity}.${field}`).join(', ')} ${fixedSent.length === 1 ? 'is' : 'are'} set by your grant to ${action} ${entity}`,
        ]
      : []),
    ...(outside.length > 0
      ? [`your grant to ${action} ${entity} does not include ${outside.map((field) => `${entity}.${field}`).join(', ')}`]
      : []),
  ];
  throw new FailureError({
    code: 'FORBIDDEN',
    message: `${reasons.join('; ')}; remove ${refused.join(', ')} from the input`,
    field: refused[0],
  });
}
