/**
 * The benchmarked servers by name, and the child-process entry point the benchmark spawns (pinned
 * to one core): `node --import tsx bench/servers/index.ts <name>` with `BENCH_DATABASE_URL` and
 * `BENCH_SECRET`; prints `{"url": …}` once listening and stops on SIGTERM.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startExpressPrisma } from './express-prisma.js';
import { startFloor } from './floor.js';
import { startGenerated } from './generated.js';
import { startNaiveGraphQL } from './naive-graphql.js';
import type { BenchServer, ServerOptions } from './types.js';

/** Every server the benchmark runs. */
export const SERVERS = {
  generated: startGenerated,
  floor: startFloor,
  'express-prisma': startExpressPrisma,
  'naive-graphql': startNaiveGraphQL,
} as const satisfies Record<string, (options: ServerOptions) => Promise<BenchServer>>;

/** A server's name. */
export type ServerName = keyof typeof SERVERS;

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const name = process.argv[2] as ServerName;
  const start = SERVERS[name];
  if (!start) throw new Error(`unknown server ${name}; one of ${Object.keys(SERVERS).join(', ')}`);
  const server = await start({ databaseUrl: process.env.BENCH_DATABASE_URL ?? '', port: 0, secret: process.env.BENCH_SECRET ?? '' });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
