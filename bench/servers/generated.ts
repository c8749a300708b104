/**
 * The generated server under benchmark (BENCHMARKS.md): `generated/app.ts` started by the runtime exactly
 * as `generated/main.ts` starts it, configured through `APP_*` variables, logging warnings only (so
 * no access lines), its scheduled tasks switched off (`APP_CRON__<TASK>=off`). The observability
 * variants add their `APP_*` settings: metrics on, or traces exported over OTLP/HTTP (`BENCH_OTLP_URL`).
 */
import { application } from '../../generated/app.js';
import { createLogger } from '../../runtime/server/logger.js';
import { startServer } from '../../runtime/server/server.js';
import type { BenchServer, ServerOptions } from './types.js';

/** Starts the generated application on `options.port`, with `settings` (`APP_*`) added. */
export async function startGenerated(options: ServerOptions, settings: Readonly<Record<string, string>> = {}): Promise<BenchServer> {
  const server = await startServer(application, {
    env: {
      APP_DATABASE__URL: options.databaseUrl,
      APP_HTTP__PORT: String(options.port),
      APP_HTTP__HOST: '127.0.0.1',
      APP_AUTH__SECRET: options.secret,
      NODE_ENV: 'production',
      // Scheduled tasks off: one firing inside a timed round (the demo's hourly digests) would be measured as the scenario.
      ...Object.fromEntries(application.cronSettings.map((setting) => [setting, 'off'])),
      ...settings,
    },
    logger: createLogger({ level: 'warn', format: 'json' }),
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  return { url: server.url, close: () => server.close() };
}
