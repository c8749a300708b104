/**
 * MCP host duplicate (docs/behaviour.md §4.6)
 *
 * An application has one MCP host, which serves every tool: a second mounted `@McpHost()` class
 * would declare a second path and set of instructions that nothing serves.
 */
import type { Rule } from '../rule.js';

export const mcpHostDuplicate: Rule = (app, report) => {
  const [first, ...others] = app.mounted.mcpHosts;
  if (!first) return;
  for (const host of others) {
    report({
      message: `${host.name} and ${first.name} are both mounted as the MCP host; an application has one host serving every tool: remove one of them from its module`,
      span: host.span,
      related: [{ message: `${first.name} is mounted as the MCP host too`, span: first.span }],
    });
  }
};
