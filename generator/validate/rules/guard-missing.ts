/**
 * Guard missing (spec §5.2–§5.4)
 *
 * An authorized GraphQL operation needs both guards in its chain: the authentication guard (bound
 * globally on AppModule) seeds the principal and the GraphQL authorization guard (bound on the
 * resolver) seeds the ability. Without them the operation could only ever be refused, so the gap
 * is reported at build time.
 */
import { AUTHENTICATION_GUARD, AUTHORIZATION_GUARD, guardChain } from '../../model/application.js';
import type { Rule } from '../rule.js';

export const guardMissing: Rule = ({ application }, report) => {
  for (const resolver of application.resolvers) {
    for (const operation of resolver.operations) {
      if (operation.postures[0]?.kind !== 'authorized') continue;
      const chain = guardChain(application, resolver, operation.guards).map((binding) => binding.guard.exportName);
      const root = operation.operationType === 'query' ? 'Query' : operation.operationType === 'mutation' ? 'Mutation' : 'Subscription';
      const name = `${root}.${operation.fieldName} (${operation.owner}.${operation.methodName})`;
      if (!chain.includes(AUTHENTICATION_GUARD.ref.exportName)) {
        report({ message: `${name} is authorized but no ${AUTHENTICATION_GUARD.ref.exportName} guards it, so no principal is ever seeded; bind it globally with @UseGuards(${AUTHENTICATION_GUARD.ref.exportName}) on AppModule`, span: operation.span });
      }
      if (!chain.includes(AUTHORIZATION_GUARD.ref.exportName)) {
        report({ message: `${name} is authorized but no ${AUTHORIZATION_GUARD.ref.exportName} guards it, so no ability is ever seeded; add @UseGuards(${AUTHORIZATION_GUARD.ref.exportName}) to ${resolver.name} and import ${AUTHORIZATION_GUARD.providedBy?.exportName} in its module`, span: operation.span });
      }
    }
  }
};
