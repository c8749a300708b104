/**
 * MCP host path invalid (docs/behaviour.md §4.6)
 *
 * The host is mounted at its path as written: `/` and segments of letters, digits, `_`, `-` and
 * `.` (`/mcp/v1`). Anything else (`:id`, `*`, spaces, a query) would be read by the router as a
 * pattern or never match.
 */
import type { Rule } from '../rule.js';

/** A path the host can be mounted at literally. */
const HOST_PATH = /^(\/[A-Za-z0-9_.-]+)+$/;

export const mcpHostPathInvalid: Rule = (app, report) => {
  for (const host of app.mcpHosts) {
    if (HOST_PATH.test(host.path)) continue;
    const suggestion = `/${
      host.path
        .replace(/[^A-Za-z0-9_./-]/g, '')
        .replace(/\/+/g, '/')
        .replace(/^\/+|\/+$/g, '') || 'mcp'
    }`;
    report({
      message: `${host.name}'s MCP path ${host.path} is not / and segments of letters, digits, _, - and .; write @McpHost({ path: '${suggestion}' })`,
      span: host.span,
    });
  }
};
