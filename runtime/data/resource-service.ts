/**
 * The one service behind every resource's generated operations (docs/behaviour.md §4.7): list,
 * get, create, update and delete of one entity through its scoped repository. The repository
 * applies the caller's row scope (a row the caller may not read is not there: NOT_FOUND, like a
 * missing one; a readable row the caller may not update or delete is FORBIDDEN), and reports unique conflicts as
 * CONFLICT naming the fields; this service adds the input schema and refuses mass assignment
 * (runtime/data/resource-input.ts).
 */
import type { z } from 'zod';
import { currentContext } from '../auth/context.js';
import { isUuid, type Page, type PageArgs } from './keyset.js';
import type { EntityRepository, KeyedRow } from './repository.js';
import { fixedByRule, refuseUnpermittedFields, type ResourceColumn, resourceInputSchema } from './resource-input.js';
import { zodInputIssues } from '../declarations/pipes.js';
import { fail, issueSummary, listedIssues, type Result } from '../failures/result.js';

/** The equality filter of the filters given (undefined and null ones dropped), or undefined when none is. */
function equalities(filters: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const given = Object.entries(filters).filter(([, value]) => value !== undefined && value !== null);
  return given.length > 0 ? Object.fromEntries(given) : undefined;
}

/** An object input, or a BAD_USER_INPUT failure when the input is not an object. */
function objectInput(entity: string, input: unknown): Result<Record<string, unknown>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('BAD_USER_INPUT', `the input of ${entity} must be an object`, {
      issues: [{ path: 'input', message: 'expected an object' }],
    });
  return { ok: true, value: input as Record<string, unknown> };
}

/**
 * The parsed input, or BAD_USER_INPUT listing every issue. A required field left out says `is
 * required`, as a body check does (runtime/http/inputs.ts), not zod's "expected string, received
 * undefined".
 */
function parsed(entity: string, schema: z.ZodObject, input: Record<string, unknown>): Result<Record<string, unknown>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issues = zodInputIssues(result.error, input).map((issue) => ({ path: issue.path || 'input', message: issue.message }));
  return fail('BAD_USER_INPUT', `invalid ${entity} input: ${issueSummary(issues)}`, { issues: listedIssues(issues) });
}

/**
 * A resource's operations over `repository` (docs/behaviour.md §4.7). `columns` are the input
 * columns the generator decided (`ResourceModel.inputColumns`); every failure is a `Result`, except
 * mass assignment, thrown by refuseUnpermittedFields as a `FORBIDDEN` FailureError naming the field like the posture gate's refusals.
 */
export class ResourceService<Row extends KeyedRow, Where extends object, Create extends object> {
  private readonly createSchema: z.ZodObject;
  private readonly updateSchema: z.ZodObject;
  private readonly fields: readonly string[];

  /**
   * @param entity the entity (and CASL subject) name
   * @param repository its scoped repository
   * @param columns the input columns (`ResourceModel.inputColumns`)
   * @param keyFilters the filterable columns holding UUIDs: a filter on one that is no UUID matches nothing
   */
  constructor(
    private readonly entity: string,
    private readonly repository: EntityRepository<Row, Where, Create>,
    private readonly columns: readonly ResourceColumn[],
    private readonly keyFilters: readonly string[] = [],
  ) {
    this.createSchema = resourceInputSchema(columns, 'create');
    this.updateSchema = resourceInputSchema(columns, 'update');
    this.fields = columns.map((column) => column.name);
  }

  /**
   * A keyset page of the rows the caller may read (§4.2), keeping those whose columns equal each
   * filter given (`{ postId: '…' }`; an undefined or null filter keeps every row).
   */
  async list(args: PageArgs, filters: Readonly<Record<string, unknown>> = {}): Promise<Page<Row>> {
    if (this.matchesNothing(filters)) return { items: [], has_more: false };
    return this.repository.page(args, equalities(filters) as Where | undefined);
  }

  /** Every row the caller may read (`pagination: 'none'`: capped at 1 000 rows, logged), filtered like {@link list}. */
  async listAll(filters: Readonly<Record<string, unknown>> = {}): Promise<Row[]> {
    if (this.matchesNothing(filters)) return [];
    return this.repository.listAll(equalities(filters) as Where | undefined);
  }

  /** Whether a key filter names no UUID: no row can match it (keys are UUIDs, like `findById`'s). */
  private matchesNothing(filters: Readonly<Record<string, unknown>>): boolean {
    return this.keyFilters.some((column) => typeof filters[column] === 'string' && !isUuid(filters[column]));
  }

  /** The row `id`, or NOT_FOUND when it is missing or the caller may not read it. */
  async get(id: string): Promise<Result<Row>> {
    const row = await this.repository.findById(id);
    return row ? { ok: true, value: row } : fail('NOT_FOUND', `${this.entity} ${id} was not found`);
  }

  /**
   * Creates a row from `input`: fields the caller's create rule fixes are taken from it (and
   * refused in the input), the rest checked against the columns' schema.
   */
  async create(input: unknown): Promise<Result<Row>> {
    const object = objectInput(this.entity, input);
    if (!object.ok) return object;
    const ability = currentContext().ability;
    const fixed = ability ? fixedByRule(ability, this.entity) : {};
    if (ability) refuseUnpermittedFields(ability, 'create', this.entity, fixed, object.value, this.fields);
    const data = parsed(this.entity, this.createSchema, { ...object.value, ...fixed });
    if (!data.ok) return data;
    return this.repository.create(data.value as Create);
  }

  /** Updates the row `id` with `input`, which may set only the fields the caller's update rule permits on it. */
  async update(id: string, input: unknown): Promise<Result<Row>> {
    const object = objectInput(this.entity, input);
    if (!object.ok) return object;
    const row = await this.repository.findById(id);
    if (!row) return fail('NOT_FOUND', `${this.entity} ${id} was not found`);
    const ability = currentContext().ability;
    // Readable but not the caller's to change: say so (a row it cannot read is not found, above).
    if (ability && !(await this.repository.allows('update', row))) return fail('FORBIDDEN', `you may not update this ${this.entity}`);
    if (ability) refuseUnpermittedFields(ability, 'update', this.entity, row, object.value, this.fields);
    const data = parsed(this.entity, this.updateSchema, object.value);
    if (!data.ok) return data;
    // Nothing to change: the row as it is (the database would report no row updated).
    if (Object.keys(data.value).length === 0) return { ok: true, value: row };
    return this.repository.update(id, data.value as Partial<Create>);
  }

  /**
   * Deletes the row `id`: NOT_FOUND when it is missing or the caller may not read it; a row the
   * caller reads but its delete rule does not cover is FORBIDDEN, as an update of it is
   * (docs/behaviour.md §4.7, "Rows": one answer for one situation).
   */
  async delete(id: string): Promise<Result<{ id: string }>> {
    const row = await this.repository.findById(id);
    if (!row) return fail('NOT_FOUND', `${this.entity} ${id} was not found`);
    const ability = currentContext().ability;
    // Readable but not the caller's to delete: say so (a row it cannot read is not found, above).
    if (ability && !(await this.repository.allows('delete', row))) return fail('FORBIDDEN', `you may not delete this ${this.entity}`);
    return this.repository.delete(id);
  }
}
