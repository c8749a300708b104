/**
 * Abilities missing (spec §5, PRODUCT.md §3)
 *
 * Authorized operations need the caller's ability: exactly one `@Abilities()` class is
 * provided by a reachable module. Without one, every authorized operation would deny.
 */
import type { Rule } from '../rule.js';

export const abilitiesMissing: Rule = ({ model, application }, report) => {
  // Without a root module nothing is mounted; app-module-missing reports that.
  if (!application.root) return;
  const mounted = application.providers.filter((provider) => provider.role === 'abilities');
  const declared = model.providers.filter((provider) => provider.role === 'abilities');
  if (mounted.length === 1) return;
  if (mounted.length === 0) {
    const unmounted = declared[0];
    report({
      message: unmounted
        ? `${unmounted.name} is not provided by any module reachable from AppModule; add it to AppModule's providers`
        : 'no @Abilities() class is provided; declare one whose for(principal) returns the principal\'s ability, and add it to AppModule\'s providers',
      span: unmounted?.span ?? application.root?.span ?? { file: 'entities', line: 1, column: 1 },
    });
    return;
  }
  const [first, ...rest] = mounted;
  for (const extra of rest) {
    report({ message: `${extra.name} and ${first?.name} are both @Abilities(); keep exactly one`, span: extra.span, related: first ? [{ message: 'first @Abilities() class', span: first.span }] : [] });
  }
};
