/**
 * What the ability rules read statically (generator/parse/abilities.ts, the one reader of the
 * `@Abilities()` classes) say for the documents (docs/behaviour.md §4.4, §4.7): the fields some
 * create rule fixes, and whether every read rule lets a field be seen. Grants that cannot be
 * followed — any `cannot(…)`, which may take back what a rule gives, or a value the reader could
 * not read (`ability-rule-unreadable` refuses it anyway) — are `unknown`, and answer as if every
 * field could be fixed or hidden, so a document never promises more than the server keeps.
 */
import type { DeclaredAbilityRule } from '../model/declarations.js';

/** One `can(…)` rule as the documents use it: names only. */
interface Grant {
  readonly actions: readonly string[];
  readonly subjects: readonly string[];
  /** The fields it names; undefined: every field. */
  readonly fields?: readonly string[];
  /** Its conditions' top-level keys (the fields a create rule fixes). */
  readonly conditionKeys: readonly string[];
}

/** The grants of an application, or `unknown` when one cannot be followed. */
export type Grants = { readonly kind: 'read'; readonly grants: readonly Grant[] } | { readonly kind: 'unknown' };

/** The grants `rules` write (every `@Abilities()` class's), or `unknown` (see the module doc). */
export function grantsOf(rules: readonly DeclaredAbilityRule[]): Grants {
  if (rules.some((rule) => rule.inverted || rule.unreadable.length > 0)) return { kind: 'unknown' };
  return {
    kind: 'read',
    grants: rules.map((rule) => ({
      actions: rule.actions.map((name) => name.value),
      subjects: rule.subjects.map((name) => name.value),
      ...(rule.fields ? { fields: rule.fields.map((name) => name.value) } : {}),
      conditionKeys: rule.conditions?.keys.map((entry) => entry.key) ?? [],
    })),
  };
}

/** The rules granting `action` on `entity` (CASL's `manage` and `all` included). */
function rulesFor(grants: readonly Grant[], action: string, entity: string): Grant[] {
  return grants.filter(
    (grant) =>
      (grant.actions.includes(action) || grant.actions.includes('manage')) &&
      (grant.subjects.includes(entity) || grant.subjects.includes('all')),
  );
}

/**
 * The fields some `create` rule on `entity` fixes by its conditions (they come from the grant and
 * may not be sent); undefined when the grants could not be read.
 */
export function fixedOnCreate(grants: Grants, entity: string): ReadonlySet<string> | undefined {
  if (grants.kind === 'unknown') return undefined;
  return new Set(rulesFor(grants.grants, 'create', entity).flatMap((grant) => grant.conditionKeys));
}

/**
 * Whether every `read` rule on `entity` lets `field` be seen (a rule naming fields names it), so
 * a row that is answered carries it; false when the grants could not be read.
 */
export function alwaysReadable(grants: Grants, entity: string, field: string): boolean {
  if (grants.kind === 'unknown') return false;
  return rulesFor(grants.grants, 'read', entity).every((grant) => grant.fields === undefined || grant.fields.includes(field));
}
