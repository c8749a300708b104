/**
 * What the posture and ability rules read alike (docs/behaviour.md §5.5): every `@Authorized`
 * posture written on an operation, route or gateway handler, and the actions the ability rules
 * grant.
 */
import type { ResolvedApp, WrittenPosture } from '../model/model.js';

/** Every posture written on a resolver operation, a controller route or a gateway handler, in that order. */
export function writtenPostures(app: ResolvedApp): WrittenPosture[] {
  return app.requestEntryPoints.flatMap((entry) => entry.postures);
}

/** The actions some `can(…)` (not `cannot`) of the `@Abilities()` classes grants, sorted. */
export function grantedActions(app: ResolvedApp): string[] {
  return [
    ...new Set(app.abilityRules.filter((rule) => !rule.inverted).flatMap((rule) => rule.actions.map((action) => action.value))),
  ].sort();
}
