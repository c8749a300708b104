/**
 * Subscription item parameter (docs/behaviour.md §4.1)
 *
 * A subscription's method receives each published item as its first parameter and the
 * subscriber's arguments after it; it answers what is sent, or null to leave the item out. So the
 * first parameter must take the published entity — an argument written first would receive the
 * item instead and never reach the method — and carries no pipe, which would never run on an
 * item.
 */
import type { Rule } from '../rule.js';

export const subscriptionItemParameter: Rule = (app, report) => {
  for (const resolver of app.resolvers) {
    for (const operation of resolver.operations) {
      const item = operation.itemParam;
      if (operation.operationType !== 'subscription' || !item) continue;
      const name = `${operation.owner}.${operation.methodName}`;
      const published = operation.eventEntity;
      const named = item.type.named;
      if (published !== undefined && (named.kind !== 'entity' || named.name !== published) && named.kind !== 'unsupported') {
        const argument = `${item.name}${item.optional ? '?' : ''}`;
        report({
          message: `the first parameter of ${name} receives each published ${published}, so ${item.name} would never be an argument; put the item first: ${operation.methodName}(${published.charAt(0).toLowerCase()}${published.slice(1)}: ${published}, ${argument}: …)`,
          span: item.span,
        });
      }
      const pipe = item.pipes[0];
      if (pipe)
        report({
          message: `the first parameter of ${name} receives each published item, which no pipe runs on; bind the pipe to an argument after it`,
          span: pipe.span,
        });
    }
  }
};
