/**
 * MCP tool not on an operation (docs/behaviour.md §4.6)
 *
 * A tool runs one operation a caller could run otherwise: a GraphQL query or mutation, or an HTTP
 * route, with its parameters, pipes, posture and masking. `@McpTool()` anywhere else would make no
 * tool, so it is refused with what the method is instead.
 */
import type { McpToolMisplacedModel } from '../../model/model.js';
import type { Rule } from '../rule.js';

const WHY: Readonly<Record<McpToolMisplacedModel['reason'], string>> = {
  subscription:
    'is a subscription, which pushes items over time while a tool call answers once; mark a query or a mutation instead, or remove @McpTool',
  fieldResolver:
    'is a computed field of its type, which callers reach through a parent, not on its own; mark the query returning the parent instead, or remove @McpTool',
  gatewayHandler: 'answers WebSocket messages, not tool calls; mark a query, a mutation or a route instead, or remove @McpTool',
  notOperation:
    'is not a GraphQL query or mutation nor an HTTP route, so no tool could run it; mark it @Query(), @Mutation() or a route (@Get(), @Post(), …) in a resolver or controller, or remove @McpTool',
};

export const mcpToolNotOperation: Rule = (app, report) => {
  for (const misplaced of app.misplacedMcpTools) {
    report({ message: `@McpTool on ${misplaced.declaration}: the method ${WHY[misplaced.reason]}`, span: misplaced.span });
  }
};
