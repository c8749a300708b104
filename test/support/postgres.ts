/**
 * Throwaway PostgreSQL clusters for tests: `initdb` into a temporary folder and `pg_ctl` on a free
 * loopback port, no system service involved. As root (CI), the server runs as the `postgres` user
 * the Debian package creates, because PostgreSQL refuses to run as root.
 *
 * Also a command line for `.ci/run`: `tsx test/support/postgres.ts start` prints
 * `TEST_POSTGRES_URL=… TEST_POSTGRES_DATA=…` lines; `… stop <data dir>` stops that cluster and removes its folder.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the PostgreSQL binaries are. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly pgCtl: string;
}

/** `initdb` and `pg_ctl` on PATH, or under Debian's `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinaries(): PostgresBinaries | undefined {
  const directories = [...(process.env.PATH ?? '').split(path.delimiter)];
  if (existsSync('/usr/lib/postgresql')) {
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse()) directories.push(`/usr/lib/postgresql/${version}/bin`);
  }
  for (const directory of directories) {
    const initdb = path.join(directory, 'initdb');
    const pgCtl = path.join(directory, 'pg_ctl');
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl };
  }
  return undefined;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function run(binary: string, args: readonly string[]): void {
  const [command, commandArgs] = isRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, [...args]];
  execFileSync(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A running throwaway cluster. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly dataDir: string;
  readonly port: number;
  /** Stops the server (fast shutdown); the data stays, so {@link start} brings it back. */
  stop(): void;
  /** Starts the stopped server again on the same port. */
  start(): void;
  /**
   * Stops the server if it runs and removes its folder: what every user of a cluster does when
   * done (a seeded benchmark cluster is over a gigabyte, and hundreds left behind filled a disk).
   */
  destroy(): void;
}

/** Creates and starts a cluster in a new temporary folder. Throws when the binaries are missing. */
export async function startCluster(): Promise<PostgresCluster> {
  const binaries = postgresBinaries();
  if (!binaries) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  const base = mkdtempSync(path.join(os.tmpdir(), 'rs-postgres-'));
  chmodSync(base, 0o755);
  const dataDir = path.join(base, 'data');
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(base, uid, gid);
  }
  run(binaries.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const start = (): void =>
    run(binaries.pgCtl, [
      '-D',
      dataDir,
      '-l',
      path.join(base, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off`,
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    port,
    stop: () => run(binaries.pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    start,
    destroy: () => destroyCluster(dataDir),
  };
}

/**
 * Stops the cluster whose data folder is `dataDir` (when it runs) and removes the folder
 * {@link startCluster} made for it. Refuses a folder it did not make.
 */
export function destroyCluster(dataDir: string): void {
  const base = path.dirname(path.resolve(dataDir));
  if (
    path.dirname(base) !== path.resolve(os.tmpdir()) ||
    !path.basename(base).startsWith('rs-postgres-') ||
    path.basename(dataDir) !== 'data'
  ) {
    throw new Error(`${dataDir} is not the data folder of a cluster startCluster made`);
  }
  const binaries = postgresBinaries();
  if (binaries && existsSync(path.join(dataDir, 'postmaster.pid'))) run(binaries.pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  rmSync(base, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, dataDir] = process.argv.slice(2);
  if (command === 'start') {
    const cluster = await startCluster();
    process.stdout.write(`TEST_POSTGRES_URL=${cluster.url}\nTEST_POSTGRES_DATA=${cluster.dataDir}\n`);
  } else if (command === 'stop' && dataDir) {
    destroyCluster(dataDir);
  } else {
    process.stderr.write('usage: tsx test/support/postgres.ts start | stop <data dir>\n');
    process.exitCode = 2;
  }
}
