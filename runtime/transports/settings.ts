/**
 * The settings sections of the runtime's transports, each declared beside the transport it
 * configures (docs/behaviour.md §4.5): `graphql` (runtime/graphql/settings.ts, shared by GraphQL
 * over HTTP, graphql-ws and the engine), `mcp` (./mcp/settings.ts) and `jobs` (./jobs/settings.ts).
 * runtime/server/config.ts spreads them into the one configuration schema beside the server's own
 * sections, so every `APP_*` variable is known, checked and suggested at boot whichever transports
 * an application mounts. The schedules transport's `APP_CRON__<TASK>` overrides name the
 * application's tasks rather than a fixed schema (./schedules/settings.ts). A new transport with
 * settings adds its section here.
 */
import { GRAPHQL_SETTINGS } from '../graphql/settings.js';
import { JOBS_SETTINGS } from './jobs/settings.js';
import { MCP_SETTINGS } from './mcp/settings.js';

/** Every transport's section, by section name, in the order their variables are listed. */
export const TRANSPORT_SETTINGS = { ...GRAPHQL_SETTINGS, ...MCP_SETTINGS, ...JOBS_SETTINGS };
