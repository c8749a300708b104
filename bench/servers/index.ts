/**
 * The benchmarked servers by name, and the child-process entry point the benchmark spawns (pinned
 * to one core): `node dist/bench/servers/index.js <name>` with `BENCH_DATABASE_URL` and
 * `BENCH_SECRET`; prints `{"url": …}` once listening and stops on SIGTERM. Each server's module is
 * imported only when that server is started, so a process holds only what it serves (its RSS is
 * reported).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchServer, ServerOptions } from './types.js';

/** Every server the benchmark runs, loaded on demand. */
export const SERVERS = {
  generated: async (options: ServerOptions) => (await import('./generated.js')).startGenerated(options),
  // Observability's cost (docs/behaviour.md §12): metrics on (a port of their own), or every span exported.
  'generated-metrics': async (options: ServerOptions) =>
    (await import('./generated.js')).startGenerated(options, { APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0' }),
  'generated-tracing': async (options: ServerOptions) =>
    (await import('./generated.js')).startGenerated(options, { APP_OTEL__ENDPOINT: process.env.BENCH_OTLP_URL ?? 'http://127.0.0.1:4318' }),
  // As a deployment at volume would run it: one new trace in ten recorded (APP_OTEL__SAMPLE).
  'generated-tracing-sampled': async (options: ServerOptions) =>
    (await import('./generated.js')).startGenerated(options, {
      APP_OTEL__ENDPOINT: process.env.BENCH_OTLP_URL ?? 'http://127.0.0.1:4318',
      APP_OTEL__SAMPLE: '0.1',
    }),
  // Tracing on with no new trace recorded (APP_OTEL__SAMPLE=0): what an unsampled request costs, for `npm run bench:profile`.
  'generated-tracing-none': async (options: ServerOptions) =>
    (await import('./generated.js')).startGenerated(options, {
      APP_OTEL__ENDPOINT: process.env.BENCH_OTLP_URL ?? 'http://127.0.0.1:4318',
      APP_OTEL__SAMPLE: '0',
    }),
  // Persisted documents only (docs/behaviour.md §4.10): what skipping parse and validation saves (`--persisted`).
  'generated-trusted-documents': async (options: ServerOptions) =>
    (await import('./generated.js')).startGenerated(options, { APP_GRAPHQL__TRUSTED_DOCUMENTS: 'require' }),
  floor: async (options: ServerOptions) => (await import('./floor.js')).startFloor(options),
  'express-prisma': async (options: ServerOptions) => (await import('./express-prisma.js')).startExpressPrisma(options),
  'naive-graphql': async (options: ServerOptions) => (await import('./naive-graphql.js')).startNaiveGraphQL(options),
  nest: async (options: ServerOptions) => (await import('../peers/nest/app.js')).startNest(options),
  pothos: async (options: ServerOptions) => (await import('../peers/pothos/server.js')).startPothos(options),
} as const satisfies Record<string, (options: ServerOptions) => Promise<BenchServer>>;

/** A server's name. */
export type ServerName = keyof typeof SERVERS;

/** Whether `name` names a server of {@link SERVERS}. */
function isServerName(name: string): name is ServerName {
  return Object.hasOwn(SERVERS, name);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const name = process.argv[2] ?? '';
  if (!isServerName(name)) throw new Error(`unknown server ${name}; one of ${Object.keys(SERVERS).join(', ')}`);
  const start = SERVERS[name];
  const server = await start({ databaseUrl: process.env.BENCH_DATABASE_URL ?? '', port: 0, secret: process.env.BENCH_SECRET ?? '' });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
