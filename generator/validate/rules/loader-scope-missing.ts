/**
 * Loader scope missing (docs/behaviour.md §5.10) — a warning
 *
 * Relation loaders take the request's executor and ability from `LoaderScope`, the GraphQL
 * batch-context provider. Without it in a reachable module the server still starts (boot only
 * warns: docs/behaviour.md §5.10), but every relation field answers `database error`.
 */
import type { Rule } from '../rule.js';

export const loaderScopeMissing: Rule = (app, report) => {
  const { root, loaderScope } = app.mounted;
  if (!root || loaderScope) return;
  const relations = app.entities.flatMap((entity) => entity.wireRelations);
  if (relations.length === 0) return;
  report({
    severity: 'warning',
    message: `${relations.length} exposed relation field(s) need LoaderScope, which no module reachable from AppModule provides; every relation field will fail with "database error": add LoaderScope (import it from 'resource-service') to AppModule's providers`,
    span: root.span,
  });
};
