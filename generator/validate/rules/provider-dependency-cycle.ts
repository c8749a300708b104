/**
 * Provider dependency cycle
 *
 * Providers are constructed once, dependencies first; a cycle has no such order.
 */
import type { Rule } from '../rule.js';

export const providerDependencyCycle: Rule = (app, report) => {
  const { cycle } = app.mounted;
  const first = cycle?.[0];
  if (!cycle || !first) return;
  report({
    message: `providers depend on each other in a cycle: ${[...cycle, first].map((provider) => provider.name).join(' → ')}; move the shared logic into a third provider both can depend on`,
    span: first.span,
    related: cycle.slice(1).map((provider) => ({ message: `${provider.name} is on the cycle`, span: provider.span })),
  });
};
