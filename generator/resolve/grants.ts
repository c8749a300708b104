/**
 * What the grants read statically (generator/parse/grants.ts) say for the documents
 * (docs/behaviour.md §4.4, §4.7): the fields some create rule fixes, and whether every read rule
 * lets a field be seen. `unknown` grants answer as if every field could be fixed or hidden, so a
 * document never promises more than the server keeps.
 */
import type { DeclaredGrant, DeclaredGrants } from '../model/declarations.js';

/** The rules granting `action` on `entity` (CASL's `manage` and `all` included). */
function rulesFor(grants: readonly DeclaredGrant[], action: string, entity: string): DeclaredGrant[] {
  return grants.filter((grant) => (grant.actions.includes(action) || grant.actions.includes('manage')) && (grant.subjects.includes(entity) || grant.subjects.includes('all')));
}

/**
 * The fields some `create` rule on `entity` fixes by its conditions (they come from the grant and
 * may not be sent); undefined when the grants could not be read.
 */
export function fixedOnCreate(grants: DeclaredGrants, entity: string): ReadonlySet<string> | undefined {
  if (grants.kind === 'unknown') return undefined;
  return new Set(rulesFor(grants.grants, 'create', entity).flatMap((grant) => grant.conditionKeys));
}

/**
 * Whether every `read` rule on `entity` lets `field` be seen (a rule naming fields names it), so
 * a row that is answered carries it; false when the grants could not be read.
 */
export function alwaysReadable(grants: DeclaredGrants, entity: string, field: string): boolean {
  if (grants.kind === 'unknown') return false;
  return rulesFor(grants.grants, 'read', entity).every((grant) => grant.fields === undefined || grant.fields.includes(field));
}
