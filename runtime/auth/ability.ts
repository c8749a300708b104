/**
 * Abilities and the access posture (docs/behaviour.md §5, docs/decisions.md §3): CASL abilities whose conditions
 * are Prisma `where` objects, the row scope every repository query applies, and the field
 * masking applied to what authorized operations return.
 *
 * Everything here fails closed: no ability → no rows; an empty CASL condition → no rows; a
 * field no rule grants → masked (REST) or refused with `FORBIDDEN` naming it (GraphQL).
 */
import { type Ability, AbilityBuilder, subject as tagSubject } from '@casl/ability';
import { accessibleBy, createPrismaAbility } from '@casl/prisma/runtime';
import { LRUCache } from 'lru-cache';
import { FailureError } from '../failures/result.js';
import { rememberOriginal, unmaskedRow } from './originals.js';

/** Verified claims of the caller (docs/behaviour.md §2.6, docs/decisions.md §3). */
export interface Principal {
  /** The caller's user id (UUID). */
  readonly sub: string;
  /** The caller's org (UUID); nothing crosses orgs. */
  readonly org_id: string;
  /** `admin`, `member` or `viewer` in the demo; the ability factory interprets it. */
  readonly role: string;
}

/** A Prisma `where` object, as CASL conditions and as row scope. */
export type WhereCondition = Record<string, unknown>;

/** A CASL ability over entity names, with Prisma `where` conditions. */
export type AppAbility = Ability<[string, string | object], WhereCondition>;

/**
 * What the access checks below read of the work being served: the caller's ability (undefined
 * denies every row) and whether it runs unscoped (jobs, seeds; docs/behaviour.md §5.9). The request context
 * (`auth/context.ts`) is one; declaring it here keeps the dependency one-way.
 */
export interface AccessScope {
  readonly ability: AppAbility | undefined;
  readonly unscoped: boolean;
}

/** What the app's `@Abilities()` class implements: one ability per principal, from claims only. */
export interface AbilityFactory {
  /** Builds the ability of `principal`. Must depend on the claims alone (results are cached). */
  for(principal: Principal): AppAbility;
}

/** The `can` / `cannot` pair handed to an ability definition. */
export type AbilityRules = Pick<AbilityBuilder<AppAbility>, 'can' | 'cannot'>;

/**
 * Builds an ability from rule calls, with Prisma-style conditions (`@casl/prisma`).
 * Example: `defineAbility(({ can }) => can('read', 'Post', { orgId, status: 'published' }))`.
 */
export function defineAbility(define: (rules: AbilityRules) => void): AppAbility {
  const builder = new AbilityBuilder<AppAbility>(createPrismaAbility);
  define(builder);
  return builder.build();
}

/**
 * Caches abilities per principal (`sub`, `org_id`, `role`): a factory is a pure function of
 * the claims, and building an ability compiles its rules, so one build serves many requests.
 */
export class AbilityCache {
  private readonly cache = new LRUCache<string, AppAbility>({ max: 10_000 });

  constructor(private readonly factory: AbilityFactory) {}

  /** The ability of `principal`, built once per distinct claim set. */
  for(principal: Principal): AppAbility {
    const key = `${principal.sub}\u0000${principal.org_id}\u0000${principal.role}`;
    let ability = this.cache.get(key);
    if (!ability) {
      ability = this.factory.for(principal);
      this.cache.set(key, ability);
    }
    return ability;
  }
}

/**
 * The rows a query may touch (docs/behaviour.md §5.6, §5.8):
 * `unscoped` only inside `runUnscoped` (jobs); `deny` when there is no ability or no rule
 * grants the action; otherwise a Prisma `where` built by CASL from the matching rules.
 */
export type RowScope =
  { readonly kind: 'unscoped' } | { readonly kind: 'deny' } | { readonly kind: 'where'; readonly where: WhereCondition };

const DENY: RowScope = Object.freeze({ kind: 'deny' });
const UNSCOPED: RowScope = Object.freeze({ kind: 'unscoped' });

/** True for CASL's "no rule matches" marker (`{ OR: [] }`), which must deny every row. */
function isEmptyCondition(where: WhereCondition): boolean {
  const or = where.OR;
  return Array.isArray(or) && or.length === 0;
}

const isPlainCondition = (value: unknown): value is WhereCondition => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): boolean => value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof value);

/**
 * Rewrites CASL's disjunction of rule conditions so the database can use an index on what every
 * rule shares (docs/behaviour.md §5.6 row scope, BENCHMARKS.md): `{ OR: [{ orgId, authorId }, { orgId, status }] }`
 * becomes `{ orgId, OR: [{ authorId }, { status }] }`, since (c ∧ x) ∨ (c ∧ y) ≡ c ∧ (x ∨ y); a
 * branch left empty makes the disjunction true, and a single branch is unwrapped. Only equalities
 * on scalar values are factored; any other shape is returned unchanged.
 */
function factorCommonConditions(where: WhereCondition): WhereCondition {
  const branches = where.OR;
  if (!Array.isArray(branches) || Object.keys(where).length !== 1 || branches.length === 0 || !branches.every(isPlainCondition))
    return where;
  if (branches.length === 1) return branches[0] as WhereCondition;
  const [first] = branches;
  const common: WhereCondition = {};
  for (const [key, value] of Object.entries(first ?? {})) {
    if (key === 'AND' || key === 'OR' || key === 'NOT' || !isScalar(value)) continue;
    if (branches.every((branch) => Object.hasOwn(branch, key) && branch[key] === value)) common[key] = value;
  }
  if (Object.keys(common).length === 0) return where;
  const rest = branches.map((branch) => Object.fromEntries(Object.entries(branch).filter(([key]) => !Object.hasOwn(common, key))));
  if (rest.some((branch) => Object.keys(branch).length === 0)) return common;
  return { ...common, OR: rest };
}

/** Values computed once per rule set (an ability's `rules`: `ability.update()` replaces the array), action and entity. */
type RuleSetCache<T> = WeakMap<object, Map<string, Map<string, T>>>;

/**
 * What `compute` gives for `ability`'s rule set, `action` and `entityName`, computed on the first
 * ask and remembered in `cache` (an undefined result too).
 */
function perRuleSet<T>(cache: RuleSetCache<T>, ability: AppAbility, action: string, entityName: string, compute: () => T): T {
  let byAction = cache.get(ability.rules);
  if (!byAction) {
    byAction = new Map();
    cache.set(ability.rules, byAction);
  }
  let byEntity = byAction.get(action);
  if (!byEntity) {
    byEntity = new Map();
    byAction.set(action, byEntity);
  }
  if (byEntity.has(entityName)) return byEntity.get(entityName) as T;
  const value = compute();
  byEntity.set(entityName, value);
  return value;
}

/** Row scopes already computed. */
const scopeCache: RuleSetCache<RowScope> = new WeakMap();

/**
 * The row scope of `action` on entity `entityName` for `context` (fail closed: docs/behaviour.md §5.6).
 * Returns `deny` rather than a condition Prisma might mis-handle when nothing is granted.
 * Computed once per ability, action and entity.
 */
export function rowScope(context: AccessScope, action: string, entityName: string): RowScope {
  if (context.unscoped) return UNSCOPED;
  const ability = context.ability;
  if (!ability) return DENY;
  return perRuleSet(scopeCache, ability, action, entityName, () => {
    const where = accessibleBy(ability, action).ofType(entityName as never) as WhereCondition;
    return isEmptyCondition(where) ? DENY : { kind: 'where', where: factorCommonConditions(where) };
  });
}

/**
 * Combines a scope with an extra Prisma condition; `undefined` when the scope denies
 * everything (the caller then skips the query and returns nothing).
 */
export function scopedWhere(scope: RowScope, extra?: WhereCondition): WhereCondition | undefined {
  if (scope.kind === 'deny') return undefined;
  if (scope.kind === 'unscoped') return extra ?? {};
  return extra ? { AND: [scope.where, extra] } : scope.where;
}

/** Columns each rule set's conditions test, per action and entity (undefined: not known). */
const conditionColumnCache: RuleSetCache<readonly string[] | undefined> = new WeakMap();

/**
 * The columns of `entityName` that `ability`'s `action` rules test in their conditions — what a
 * row must carry for field masking to evaluate those rules (docs/behaviour.md §5.5); none when no rule
 * restricts fields (masking then keeps every field without evaluating anything). Undefined when a
 * condition names something other than a stored column (a relation filter): then every column
 * is needed. `columns` are the entity's stored columns.
 */
export function conditionColumns(
  ability: AppAbility | undefined,
  action: string,
  entityName: string,
  columns: readonly string[],
): readonly string[] | undefined {
  if (!ability) return [];
  return perRuleSet(conditionColumnCache, ability, action, entityName, () => testedColumns(ability, action, entityName, columns));
}

/** {@link conditionColumns}, computed. */
function testedColumns(ability: AppAbility, action: string, entityName: string, columns: readonly string[]): readonly string[] | undefined {
  const found = new Set<string>();
  // Masking only evaluates conditions when some rule restricts fields (see maskRow).
  const rules = ability.possibleRulesFor(action, entityName);
  if (!rules.some((rule) => rule.fields !== undefined)) return [];
  // Collects the columns a condition names; false as soon as it names something else.
  const walk = (condition: unknown): boolean => {
    if (Array.isArray(condition)) return condition.every(walk);
    if (typeof condition !== 'object' || condition === null) return true;
    for (const [name, value] of Object.entries(condition)) {
      if (name === 'AND' || name === 'OR' || name === 'NOT') {
        if (!walk(value)) return false;
      } else if (columns.includes(name)) found.add(name);
      else return false;
    }
    return true;
  };
  return rules.every((rule) => walk(rule.conditions)) ? [...found].sort() : undefined;
}

/** One rule of an ability, as CASL holds it: its conditions are tested on a row by `matchesConditions`. */
export type AbilityRule = ReturnType<AppAbility['rulesFor']>[number];

/** Whether a condition names only `columns` (through `AND`/`OR`/`NOT`): one CASL can test on a row read from its table. */
function namesColumnsOnly(condition: unknown, columns: readonly string[]): boolean {
  if (Array.isArray(condition)) return condition.every((item) => namesColumnsOnly(item, columns));
  if (typeof condition !== 'object' || condition === null) return true;
  for (const [name, value] of Object.entries(condition)) {
    if (name === 'AND' || name === 'OR' || name === 'NOT') {
      if (!namesColumnsOnly(value, columns)) return false;
    } else if (!columns.includes(name)) return false;
  }
  return true;
}

/** {@link rulesNamingRelations}' answers. */
const relationRulesCache: RuleSetCache<readonly AbilityRule[]> = new WeakMap();

/**
 * The `action` rules on `entityName` whose conditions name something besides its stored `columns`
 * — a relation (docs/behaviour.md §5.5): CASL cannot test them on a row, which holds no related
 * rows, so the repository tests them in SQL and hands the outcome along with the row
 * ({@link withRuleMatches}). Computed once per rule set, action and entity.
 */
export function rulesNamingRelations(
  ability: AppAbility,
  action: string,
  entityName: string,
  columns: readonly string[],
): readonly AbilityRule[] {
  return perRuleSet(relationRulesCache, ability, action, entityName, () =>
    ability
      .possibleRulesFor(action, entityName)
      .filter((rule) => rule.conditions !== undefined && !namesColumnsOnly(rule.conditions, columns)),
  );
}

/** Where a row read from the database keeps the outcome of the rules tested in SQL for it (non-enumerable: no answer carries it). */
const RULE_MATCHES: unique symbol = Symbol('ruleMatches');

/** Which rules naming relations a row meets, as SQL found when the row was read. */
export type RuleMatches = ReadonlyMap<AbilityRule, boolean>;

/** Records on `row` (a row a repository read) the outcome of the rules tested in SQL for it, beside any recorded before; returns `row`. */
export function withRuleMatches<T extends object>(row: T, matches: RuleMatches): T {
  const before = (row as { [RULE_MATCHES]?: RuleMatches })[RULE_MATCHES];
  const value = before ? new Map([...before, ...matches]) : matches;
  Object.defineProperty(row, RULE_MATCHES, { value, enumerable: false, configurable: true });
  return row;
}

/** Whether `rule` holds of `row` (a whole row): as SQL found when it names a relation, else as CASL tests it (a rule naming a relation and never tested is false: fail closed). */
function ruleHolds(rule: AbilityRule, row: object, subject: object): boolean {
  const matches = (row as { [RULE_MATCHES]?: RuleMatches })[RULE_MATCHES];
  return matches?.get(rule) ?? rule.matchesConditions(subject);
}

/**
 * The fields of `entityName` that `ability` lets `action` reach on `row` — CASL's `permittedFieldsOf`,
 * with each rule naming a relation tested as SQL found (docs/behaviour.md §5.5). `fields` are what a
 * rule without fields permits.
 */
export function permittedFields(
  ability: AppAbility,
  action: string,
  entityName: string,
  row: object,
  fields: readonly string[],
): Set<string> {
  const whole = unmaskedRow(row);
  const subject = tagSubject(entityName, { ...whole });
  const rules = ability.possibleRulesFor(action, entityName);
  const permitted = new Set<string>();
  // As CASL does: from the lowest priority up, each matching rule adds or takes back its fields.
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index] as AbilityRule;
    if (!ruleHolds(rule, whole, subject)) continue;
    const named = rule.fields === undefined ? fields : Array.isArray(rule.fields) ? rule.fields : [rule.fields];
    for (const field of named) {
      if (rule.inverted) permitted.delete(field);
      else permitted.add(field);
    }
  }
  return permitted;
}

/**
 * Whether `ability` lets `action` touch this `row` of `entityName` — CASL's `can`, with each rule
 * naming a relation tested as SQL found (docs/behaviour.md §5.5): the first rule that holds decides.
 */
export function canOnRow(ability: AppAbility, action: string, entityName: string, row: object): boolean {
  const whole = unmaskedRow(row);
  const subject = tagSubject(entityName, { ...whole });
  for (const rule of ability.rulesFor(action, entityName)) if (ruleHolds(rule, whole, subject)) return !rule.inverted;
  return false;
}

/**
 * Whether the ability lets the caller `action` some `entityName` (the posture gate, docs/behaviour.md §5.5).
 * With `field`, whether some rule grants that field (used to refuse a selection up front).
 */
export function canOnType(ability: AppAbility | undefined, action: string, entityName: string, field?: string): boolean {
  return ability !== undefined && ability.can(action, entityName, field);
}

/** Marks a masked row: the fields the caller's grant excludes (read by GraphQL's nullable column fields). */
export const MASKED_FIELDS: unique symbol = Symbol('maskedFields');

/**
 * A row after masking: forbidden fields removed from its own enumerable properties — what JSON,
 * spreads and `Object.keys` see — listed under {@link MASKED_FIELDS}, and each readable only as its
 * refusal ({@link forbiddenField}, a non-enumerable property).
 */
export type MaskedRow<T> = T & { readonly [MASKED_FIELDS]?: ReadonlySet<string> };

/**
 * The refusal a masked row holds in place of a field the caller's grant excludes (docs/behaviour.md
 * §2.1, §5.5): a `FORBIDDEN` failure. GraphQL answers it as that field's error; JSON leaves it out
 * (`toJSON` gives `undefined`, so `JSON.stringify` drops the property), so a value a hand-written
 * REST handler, MCP tool or gateway builds from a masked row never carries the field — one rule,
 * decided here, on every transport.
 */
export class FieldRefusal extends FailureError {
  /** @param entity the entity whose field is refused; @param field the refused field */
  constructor(
    readonly entity: string,
    readonly field: string,
  ) {
    super({ code: 'FORBIDDEN', message: `your grant does not include ${entity}.${field}; remove ${field} from the selection`, field });
    this.name = 'FieldRefusal';
  }

  /** Nothing: a JSON answer leaves a refused field out. */
  toJSON(): undefined {
    return undefined;
  }
}

/** The `FORBIDDEN` failure for a field the caller's grant excludes (docs/behaviour.md §7): a {@link FieldRefusal}. */
export function forbiddenField(entity: string, field: string): FieldRefusal {
  return new FieldRefusal(entity, field);
}

/**
 * Whether `value` is what a masked row holds in place of a field the caller may not read
 * (docs/behaviour.md §2.1): how hand-written code tells `user.email` refused from a value.
 */
export function isForbiddenField(value: unknown): value is FieldRefusal {
  return value instanceof FieldRefusal;
}

/**
 * `value` as an answer: throws it when it is itself a refused field (a REST handler, MCP tool or
 * gateway answering `user.email` to a caller whose grant excludes it), so the caller gets that
 * `FORBIDDEN`, as GraphQL answers such a field (docs/behaviour.md §2.1); a refusal inside an object
 * needs nothing, JSON leaves it out.
 * @throws FieldRefusal
 */
export function answerable<T>(value: T): T {
  if (value instanceof FieldRefusal) throw value;
  return value;
}

/** {@link hasFieldRules}' answers. */
const fieldRulesCache: RuleSetCache<boolean> = new WeakMap();

/**
 * Does any `action` rule on `entityName` restrict fields? (If not, masking is a no-op.) Asked once
 * per rule set, action and entity: masking asks it for every row, and asking CASL each time
 * was a visible cost of a nested query (BENCHMARKS.md §"Where the time goes").
 */
function hasFieldRules(ability: AppAbility, action: string, entityName: string): boolean {
  return perRuleSet(fieldRulesCache, ability, action, entityName, () =>
    ability.possibleRulesFor(action, entityName).some((rule) => rule.fields !== undefined),
  );
}

/**
 * Masks one row of `entityName` (docs/behaviour.md §5.5): returns the row itself when every field is
 * permitted, else a shallow copy without the excluded fields, listing them under
 * {@link MASKED_FIELDS}. `fields` are the entity's wire fields. Unscoped contexts see all.
 */
export function maskRow<T extends object>(context: AccessScope, entityName: string, fields: readonly string[], row: T): MaskedRow<T> {
  if (!readMayMaskFields(context, entityName)) return row;
  const ability = context.ability;
  // Masked already for this ability (a repository masks what it returns; the resolver masks again).
  if (ability && maskedFor.get(row) === ability) return row;
  if (!ability) return withoutFields(entityName, row, fields, undefined);
  const permitted = permittedFields(ability, 'read', entityName, row, fields);
  const excluded = fields.filter((field) => !permitted.has(field));
  if (excluded.length === 0) {
    maskedFor.set(row, ability);
    return row;
  }
  return withoutFields(entityName, row, excluded, ability);
}

/** The ability each row was masked for (rows {@link maskRow} returned; a row masked again for it is returned as it is). */
const maskedFor = new WeakMap<object, AppAbility>();

/**
 * A shallow copy of `row` without `excluded` ({@link MaskedRow}). A non-null GraphQL column field has
 * no resolver of its own (runtime/graphql/schema.ts): the executor reads the property, and an `Error`
 * it reads is that field's error — so a non-null field the grant excludes answers `FORBIDDEN` at
 * its path, where one resolver per field of every row would cost every row (docs/decisions.md §6,
 * "Masked fields without a resolver per field").
 * Non-enumerable, the refusals stay out of everything else that reads the row.
 */
function withoutFields<T extends object>(
  entityName: string,
  row: T,
  excluded: readonly string[],
  ability: AppAbility | undefined,
): MaskedRow<T> {
  const hidden = new Set(excluded);
  const original = unmaskedRow(row);
  const copy: Record<string | symbol, unknown> = Object.fromEntries(Object.entries(original).filter(([key]) => !hidden.has(key)));
  for (const field of excluded) {
    Object.defineProperty(copy, field, { get: () => forbiddenField(entityName, field), enumerable: false, configurable: true });
  }
  // Non-enumerable like the refusals: a validator walking the row's own keys (MCP's) sees none of it.
  Object.defineProperty(copy, MASKED_FIELDS, { value: hidden, enumerable: false });
  rememberOriginal(copy, original);
  if (ability) maskedFor.set(copy, ability);
  return copy as MaskedRow<T>;
}

/**
 * Whether {@link maskRow} may hide a field of an `entityName` row from `context` (docs/behaviour.md §5.5):
 * false when the context is unscoped or its ability has no field rules for reading the entity —
 * every row is then returned as it is, and a list need not be masked row by row.
 */
export function readMayMaskFields(context: AccessScope, entityName: string): boolean {
  if (context.unscoped) return false;
  const ability = context.ability;
  return !ability || hasFieldRules(ability, 'read', entityName);
}

/** Masks every row of a list with {@link maskRow} (a copy of the list; its rows as they are when none can be masked). */
export function maskRows<T extends object>(
  context: AccessScope,
  entityName: string,
  fields: readonly string[],
  rows: readonly T[],
): MaskedRow<T>[] {
  if (!readMayMaskFields(context, entityName)) return [...rows];
  return rows.map((row) => maskRow(context, entityName, fields, row));
}

/**
 * Masks what an authorized operation returns (docs/behaviour.md §5.5): a row, a list of rows, or nothing.
 * Non-entity values are never passed here.
 */
export function maskOutput<T extends object>(
  context: AccessScope,
  entityName: string,
  fields: readonly string[],
  value: T | readonly T[] | null | undefined,
): MaskedRow<T> | MaskedRow<T>[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return maskRows(context, entityName, fields, value as readonly T[]);
  return maskRow(context, entityName, fields, value as T);
}
