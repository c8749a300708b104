/**
 * Ability action unknown (docs/behaviour.md §5.5) — a warning
 *
 * A `can(action, …)` of the `@Abilities()` class grants an action that is no built-in one (`read`,
 * `create`, `update`, `delete`, `manage`) and that no `@Authorized` asks for, while it is one typo
 * away from one that is (`can('raed', 'Post')`): the grant gives nothing, and the operation it was
 * meant for refuses every call. A custom action far from every known one is left alone: services
 * may ask for it themselves (`ability.can('export', …)`). An `@Authorized` action no rule grants is
 * `posture-action-unknown`'s to report.
 */
import { closestMatch } from '../../../runtime/server/suggest.js';
import { grantedActions, writtenPostures } from '../postures.js';
import type { Rule } from '../rule.js';
import { BUILTIN_ACTIONS } from './posture-action-unknown.js';

export const abilityActionUnknown: Rule = (app, report) => {
  // An asked-for action no rule grants is posture-action-unknown's finding, which names the grant it
  // likely meant: which side holds the typo cannot be told, so one diagnostic says it.
  const granted = new Set(grantedActions(app));
  const asked = writtenPostures(app).flatMap((posture) =>
    posture.kind === 'authorized' && granted.has(posture.action) ? [posture.action] : [],
  );
  const known = [...new Set<string>([...BUILTIN_ACTIONS, ...asked])].sort();
  for (const rule of app.abilityRules) {
    for (const action of rule.actions) {
      if (known.includes(action.value)) continue;
      const match = closestMatch(action.value, known);
      if (match === undefined) continue;
      report({
        severity: 'warning',
        message: `${rule.owner}: ${rule.inverted ? 'cannot' : 'can'}('${action.value}', …) names an action no @Authorized asks for and no built-in one (${BUILTIN_ACTIONS.join(', ')}), so it ${rule.inverted ? 'takes back' : 'grants'} nothing; did you mean '${match}'?`,
        span: action.span,
      });
    }
  }
};
