/**
 * Guard missing (docs/behaviour.md §5.2–§5.4)
 *
 * An authorized GraphQL operation needs both guards in its chain: the authentication guard (bound
 * globally on AppModule) seeds the principal and the GraphQL authorization guard (bound on the
 * resolver) seeds the ability. Without them the operation could only ever be refused, so the gap
 * is reported at build time.
 */
import { AUTHENTICATION_GUARD, AUTHORIZATION_GUARD } from '../../model/builtins.js';
import type { Rule } from '../rule.js';

export const guardMissing: Rule = (app, report) => {
  for (const resolver of app.mounted.resolvers) {
    for (const operation of resolver.operations) {
      if (operation.posture?.kind !== 'authorized') continue;
      const chain = new Set(operation.guardChain.map((binding) => binding.name));
      const name = `${operation.rootType}.${operation.fieldName} (${operation.owner}.${operation.methodName})`;
      if (!chain.has(AUTHENTICATION_GUARD.ref.exportName)) {
        report({
          message: `${name} is authorized but no ${AUTHENTICATION_GUARD.ref.exportName} guards it, so no principal is ever seeded; bind it globally with @UseGuards(${AUTHENTICATION_GUARD.ref.exportName}) on AppModule`,
          span: operation.span,
        });
      }
      if (!chain.has(AUTHORIZATION_GUARD.ref.exportName)) {
        report({
          message: `${name} is authorized but no ${AUTHORIZATION_GUARD.ref.exportName} guards it, so no ability is ever seeded; add @UseGuards(${AUTHORIZATION_GUARD.ref.exportName}) to ${resolver.name} and import ${AUTHORIZATION_GUARD.providedBy?.exportName} in its module`,
          span: operation.span,
        });
      }
    }
  }
};
