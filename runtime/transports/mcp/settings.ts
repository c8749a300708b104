/**
 * The MCP host's settings, `APP_MCP__*` (docs/behaviour.md §4.6; docs/hostile-input.md §7, §13): the
 * browser origins it serves, the sessions it keeps, and what one request may batch and be answered
 * with. Collected into the configuration by runtime/transports/settings.ts.
 */
import { z } from 'zod';
import { commaList, integer, settingsSection } from '../../server/settings.js';

/** The `mcp` section (`APP_MCP__MAX_SESSIONS`, …). */
export const MCP_SETTINGS = settingsSection(
  'mcp',
  z.object({
    /**
     * Browser origins the MCP host serves besides the server's own and APP_HTTP__CORS_ORIGINS
     * (comma-separated); any other `Origin` is refused with 403 (DNS rebinding, docs/hostile-input.md §7).
     */
    origins: commaList.pipe(z.array(z.url({ message: 'expected origins such as https://app.example.com, comma-separated' }))),
    /** MCP sessions of signed-in callers one process keeps open; opening one more closes their least recently used (docs/behaviour.md §4.6). */
    maxSessions: integer(1, 1_000_000).default(1_000),
    /** MCP sessions of anonymous callers one process keeps open, a pool of their own (docs/hostile-input.md §7). */
    maxAnonymousSessions: integer(1, 1_000_000).default(100),
    /** MCP sessions one caller (a principal, or an anonymous address) keeps open; one more closes that caller's least recently used. */
    maxSessionsPerCaller: integer(1, 1_000_000).default(16),
    /** JSON-RPC messages one MCP request may batch (docs/hostile-input.md §13). */
    maxBatch: integer(1, 100).default(20),
    /** Bytes of tool results one MCP request may be answered with; calls past it are refused unrun (docs/hostile-input.md §13). */
    maxResponseBytes: integer(1_024, 1_073_741_824).default(4 * 1024 * 1024),
    /** Milliseconds an MCP session may go unused before it is closed. */
    sessionTimeout: integer(1_000, 86_400_000).default(1_800_000),
  }),
);
