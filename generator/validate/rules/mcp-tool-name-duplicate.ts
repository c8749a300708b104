/**
 * MCP tool name duplicate (docs/behaviour.md §4.6)
 *
 * A caller names the tool it calls, so two mounted tools must not share a name: one of them could
 * never be called. Names are compared as written (MCP tool names are case-sensitive).
 */
import type { McpToolModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

export const mcpToolNameDuplicate: Rule = (app, report) => {
  const seen = new Map<string, McpToolModel>();
  for (const tool of app.mounted.mcp?.tools ?? []) {
    const first = seen.get(tool.name);
    if (!first) {
      seen.set(tool.name, tool);
      continue;
    }
    report({
      message: `${tool.owner}.${tool.methodName} and ${first.owner}.${first.methodName} are both MCP tool ${tool.name}; name one of them: @McpTool({ name: '…' })`,
      span: tool.nameSpan,
      related: [{ message: `tool ${tool.name} is first declared here`, span: first.nameSpan }],
    });
  }
};
