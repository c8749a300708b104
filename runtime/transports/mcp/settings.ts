/**
 * The MCP host's settings, `APP_MCP__*` (docs/behaviour.md §4.6; docs/hostile-input.md §7, §13): the
 * browser origins it serves, and what one request may batch and be answered with (it keeps no
 * sessions to bound: docs/decisions.md §15). Collected into the configuration by
 * runtime/transports/settings.ts.
 */
import { z } from 'zod';
import { commaList, integer, settingsSection } from '../../server/settings.js';

/** The `mcp` section (`APP_MCP__MAX_BATCH`, …). */
export const MCP_SETTINGS = settingsSection(
  'mcp',
  z.object({
    /**
     * Browser origins the MCP host serves besides the server's own and APP_HTTP__CORS_ORIGINS
     * (comma-separated); any other `Origin` is refused with 403 (DNS rebinding, docs/hostile-input.md §7).
     */
    origins: commaList.pipe(z.array(z.url({ message: 'expected origins such as https://app.example.com, comma-separated' }))),
    /** JSON-RPC messages one MCP request may batch (docs/hostile-input.md §13). */
    maxBatch: integer(1, 100).default(20),
    /** Bytes of tool results one MCP request may be answered with; calls past it are refused unrun (docs/hostile-input.md §13). */
    maxResponseBytes: integer(1_024, 1_073_741_824).default(4 * 1024 * 1024),
  }),
);
