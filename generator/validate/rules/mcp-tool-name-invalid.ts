/**
 * MCP tool name invalid (docs/behaviour.md §4.6)
 *
 * A tool name is 1 to 128 of `A-Z a-z 0-9 _ - .` (the Model Context Protocol's tool-name
 * charset): clients and the models choosing tools rely on it. The message suggests the name with
 * every other character replaced by `_`.
 */
import type { Rule } from '../rule.js';

/** The MCP tool-name charset and length. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export const mcpToolNameInvalid: Rule = (app, report) => {
  for (const tool of app.mcpTools) {
    if (TOOL_NAME.test(tool.name)) continue;
    const suggestion = tool.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128) || 'tool';
    const what = tool.nameWritten
      ? `MCP tool name '${tool.name}'`
      : `the MCP tool name ${tool.owner}.${tool.methodName} gets by default ('${tool.name}')`;
    report({ message: `${what} is not 1 to 128 of A-Z a-z 0-9 _ - .; name it @McpTool({ name: '${suggestion}' })`, span: tool.nameSpan });
  }
};
