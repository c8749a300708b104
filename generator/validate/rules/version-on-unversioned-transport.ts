/**
 * Version on an unversioned transport (docs/behaviour.md §9.5)
 *
 * Only HTTP controllers and WebSocket gateways take a version. Each other transport has its own
 * way to evolve, which the message names.
 */
import type { Rule } from '../rule.js';

const INSTEAD = {
  resolver: 'the GraphQL schema is unversioned: evolve fields and mark old ones deprecated (@Query({ deprecationReason }))',
  mcpHost: "a model-context host is versioned by its path: write @McpHost({ path: '/mcp/v1' })",
  processor: "a job processor's address is its queue name: process a new queue (for example 'emails-v2') instead",
  cron: 'a scheduled task has no caller and no wire, so there is nothing to version',
  listener: 'an in-process listener has no caller and no wire, so there is nothing to version',
} as const;

const LABEL = {
  resolver: 'a GraphQL resolver',
  mcpHost: 'a model-context host',
  processor: 'a job processor',
  cron: 'a scheduled task',
  listener: 'an in-process listener',
} as const;

export const versionOnUnversionedTransport: Rule = (app, report) => {
  for (const resolver of app.resolvers) {
    if (resolver.versionSpan)
      report({
        message: `${resolver.name} is ${LABEL.resolver} and takes no version; ${INSTEAD.resolver}; remove version`,
        span: resolver.versionSpan,
      });
    for (const operation of resolver.operations) {
      if (operation.versionSpan)
        report({
          message: `${operation.owner}.${operation.methodName} is a GraphQL operation and takes no version; ${INSTEAD.resolver}; remove the version`,
          span: operation.versionSpan,
        });
    }
  }
  for (const transport of app.unversionedTransports) {
    if (!transport.versionSpan) continue;
    report({
      message: `${transport.name} is ${LABEL[transport.transport]} and takes no version; ${INSTEAD[transport.transport]}; remove version`,
      span: transport.versionSpan,
    });
  }
};
