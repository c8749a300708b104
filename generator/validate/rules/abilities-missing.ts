/**
 * Abilities missing (docs/behaviour.md §5, docs/decisions.md §3)
 *
 * Authorized operations need the caller's ability: exactly one `@Abilities()` class is
 * provided by a reachable module. Without one, every authorized operation would deny.
 */
import type { Rule } from '../rule.js';

export const abilitiesMissing: Rule = (app, report) => {
  const { root, abilities } = app.mounted;
  // Without a root module nothing is mounted; app-module-missing reports that.
  if (!root || abilities.length === 1) return;
  if (abilities.length === 0) {
    const unmounted = app.abilities[0];
    report({
      message: unmounted
        ? `${unmounted.name} is not provided by any module reachable from AppModule; add it to AppModule's providers`
        : "no @Abilities() class is provided; declare one whose for(principal) returns the principal's ability, and add it to AppModule's providers",
      span: unmounted?.span ?? root.span,
    });
    return;
  }
  const [first, ...rest] = abilities;
  for (const extra of rest) {
    report({
      message: `${extra.name} and ${first?.name} are both @Abilities(); keep exactly one`,
      span: extra.span,
      related: first ? [{ message: 'first @Abilities() class', span: first.span }] : [],
    });
  }
};
