/**
 * Posture action unknown (docs/behaviour.md §5.5)
 *
 * `@Authorized(action, Subject)` names an action some `can(…)` of the `@Abilities()` class grants,
 * or one of the runtime's own: `read`, `create`, `update`, `delete` (what generated resources
 * authorize with) and CASL's `manage` (any action). Any other would deny every call at run time
 * ("you may not reed Note"). Silent while no ability rule can be read, or one's action cannot
 * (`ability-rule-unreadable` reports that).
 */
import { closestMatch } from '../../../runtime/server/suggest.js';
import { grantedActions, writtenPostures } from '../postures.js';
import type { Rule } from '../rule.js';

/** The actions the runtime itself knows, granted or not. */
export const BUILTIN_ACTIONS = ['read', 'create', 'update', 'delete', 'manage'] as const;

export const postureActionUnknown: Rule = (app, report) => {
  if (app.abilityRules.length === 0 || app.abilityRules.some((rule) => rule.unreadable.some((entry) => entry.what === 'action'))) return;
  const granted = grantedActions(app);
  const known = new Set<string>([...BUILTIN_ACTIONS, ...granted]);
  for (const posture of writtenPostures(app)) {
    if (posture.kind !== 'authorized' || known.has(posture.action)) continue;
    const match = closestMatch(posture.action, [...granted, ...BUILTIN_ACTIONS]);
    const fix = match
      ? `did you mean '${match}'?`
      : `grant it with can('${posture.action}', '${posture.subject}') in the @Abilities() class, or name a granted action (${granted.map((action) => `'${action}'`).join(', ') || 'none'})`;
    report({
      message: `@Authorized('${posture.action}', ${posture.subject}): no ability rule grants '${posture.action}' and it is no built-in action (${BUILTIN_ACTIONS.join(', ')}), so every call would be refused; ${fix}`,
      span: posture.actionSpan,
    });
  }
};
