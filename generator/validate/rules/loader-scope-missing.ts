/**
 * Loader scope missing (spec §5.10) — a warning
 *
 * Relation loaders take the request's executor and ability from `LoaderScope`, the GraphQL
 * batch-context provider. Without it in a reachable module the server still starts (the spec
 * says boot only warns), but every relation field answers `database error`.
 */
import { LOADER_SCOPE } from '../../model/application.js';
import type { Rule } from '../rule.js';

export const loaderScopeMissing: Rule = ({ model, application }, report) => {
  if (!application.root || application.builtins.some((ref) => ref.exportName === LOADER_SCOPE)) return;
  const relations = model.entities.filter((entity) => entity.exposed).flatMap((entity) => entity.relations.filter((relation) => relation.exposed));
  if (relations.length === 0) return;
  report({
    severity: 'warning',
    message: `${relations.length} exposed relation field(s) need LoaderScope, which no module reachable from AppModule provides; every relation field will fail with "database error": add LoaderScope (runtime/graphql/loaders.ts) to AppModule's providers`,
    span: application.root.span,
  });
};
