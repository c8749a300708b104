/**
 * Once per `npm test`: the demo's Prisma clients, which are not committed (written by `generate`
 * when missing or stale: a fresh clone has none), a scratch folder for the run's files
 * (test/support/project.ts `scratchDir`: SQLite databases, copied projects), removed at the end,
 * the demo's server compiled into it (test/support/compiled-server.ts), and a PostgreSQL cluster for the postgresql project. `.ci/run` starts one and passes `TEST_POSTGRES_URL`; locally, when
 * PostgreSQL is installed and no URL is given, a throwaway cluster is started here, and stopped
 * and removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type PostgresCluster, postgresBinaries, startCluster } from './postgres.js';
import { ensurePrismaClients } from '../../generator/emit/prisma/client.js';
import { COMPILED_SERVER_VARIABLE, buildCompiledServer } from './compiled-server.js';
import { ROOT, SCRATCH_ROOT_VARIABLE } from './project.js';

let cluster: PostgresCluster | undefined;
let scratchRoot: string | undefined;

export async function setup(): Promise<void> {
  await ensurePrismaClients(path.join(ROOT, 'generated'));
  // Workers inherit the variable: every scratchDir of this run lands under it.
  scratchRoot = mkdtempSync(path.join(os.tmpdir(), 'rs-run-'));
  process.env[SCRATCH_ROOT_VARIABLE] = scratchRoot;
  process.env[COMPILED_SERVER_VARIABLE] = await buildCompiledServer(path.join(scratchRoot, 'server'));
  if (process.env.TEST_POSTGRES_URL || !postgresBinaries()) return;
  cluster = await startCluster();
  process.env.TEST_POSTGRES_URL = cluster.url;
}

export function teardown(): void {
  cluster?.destroy();
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true });
}
