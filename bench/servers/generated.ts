/**
 * The generated server under benchmark (BENCHMARKS.md): `generated/app.ts` started by the runtime exactly
 * as `generated/main.ts` starts it, configured through `APP_*` variables, logging warnings only (so
 * no access lines). The observability variants add their `APP_*` settings: metrics on, or traces
 * exported to the OTLP/HTTP sink the benchmark runs (`BENCH_OTLP_URL`).
 */
import { application } from '../../generated/app.js';
import { createLogger } from '../../runtime/server/logger.js';
import { startServer } from '../../runtime/server/server.js';
import type { BenchServer, ServerOptions } from './types.js';

/** Starts the generated application on `options.port`, with `settings` (`APP_*`) added. */
export async function startGenerated(options: ServerOptions, settings: Readonly<Record<string, string>> = {}): Promise<BenchServer> {
  const server = await startServer(application, {
    env: { APP_DATABASE__URL: options.databaseUrl, APP_HTTP__PORT: String(options.port), APP_HTTP__HOST: '127.0.0.1', APP_AUTH__SECRET: options.secret, NODE_ENV: 'production', ...settings },
    logger: createLogger({ level: 'warn', format: 'json' }),
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  return { url: server.url, close: () => server.close() };
}
