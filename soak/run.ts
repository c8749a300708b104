/**
 * The soak (RELIABILITY.md, `npm run soak`): the long versions of the reliability checks, then load.
 *
 * 1. Long property runs: the fuzz, authorization, pagination, crash and protocol suites with many
 *    more cases (`--fuzz-runs`, default 2000), more kills (`--kills`, default 10) and a fresh seed
 *    (printed, so a failure can be replayed with `--seed`), on SQLite and PostgreSQL.
 * 2. Load: for each database, the generated server under autocannon with a mixed read/write
 *    workload. Short probes find the highest concurrency whose p99 stays under 10× its p50; the
 *    main run lasts `--seconds` (default 60) at that concurrency. Required: 0 errors, 0 non-2xx,
 *    and every acknowledged write (201 with its id) present in the database afterwards, by count
 *    and by id.
 *
 * Prints a summary and writes `soak/results.json`. Exit code 1 when any check failed.
 *
 * Usage: npm run soak -- [--seconds 60] [--fuzz-runs 2000] [--kills 10] [--seed N] [--only tests|load]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { pinCores } from '../bench/cores.js';
import { type LoadRequest, runLoad } from '../bench/load.js';
import {
  type BurstFigures,
  type HealthFigures,
  healthBesideBursts,
  healthUnderHostile,
  type HostileMixFigures,
  type RefusalFigure,
  refusalFigures,
  startHostileMix,
} from './hostile.js';
import { mintToken } from '../runtime/auth/authentication.js';
import { runUnscoped } from '../runtime/auth/context.js';
import { createTestDatabase, openDatabase, seedDatabase } from '../test/support/database.js';
import { freePort, postgresBinaries, startCluster, type PostgresCluster } from '../test/support/postgres.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'soak-secret-0123456789-0123456789-0123456789';
const SUITES = [
  'test/http/fuzz.test.ts',
  'test/auth/authorization.test.ts',
  'test/graphql/pagination-property.test.ts',
  'test/server/crash.test.ts',
  'test/sockets/graphql-ws-abuse.test.ts',
  'test/sockets/socket-fuzz.test.ts',
  'test/http/hardening.test.ts',
  'test/graphql/query-limits.test.ts',
];

interface Options {
  readonly seconds: number;
  readonly fuzzRuns: number;
  readonly kills: number;
  readonly seed: number;
  readonly only?: 'tests' | 'load';
}

interface LoadFigures {
  readonly connections: number;
  readonly seconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly ratio: number;
  readonly errors: number;
  readonly non2xx: number;
}

interface LoadReport {
  readonly database: string;
  readonly probes: LoadFigures[];
  readonly main: LoadFigures;
  readonly writesAcknowledged: number;
  readonly writesStored: number;
  readonly acknowledgedMissing: number;
  /** Writes autocannon had in flight when a run's time ran out: stored, never acknowledged (at most one per connection per run). */
  readonly unacknowledgedStored: number;
  readonly hostile: HostileReport;
  readonly ok: boolean;
}

/** The hostile part of one database's load (docs/hostile-input.md, soak/hostile.ts). */
interface HostileReport {
  readonly refusals: RefusalFigure[];
  /** /health behind bursts of 32 hostile documents sent at once. */
  readonly bursts: BurstFigures;
  /** /health while 32 connections send hostile documents back to back (saturated). */
  readonly health: HealthFigures;
  /** Normal traffic at half the main run's throughput, without and then beside the hostile mix. */
  readonly quiet: LoadFigures;
  readonly beside: LoadFigures;
  readonly mix: HostileMixFigures;
  /** p99 beside the mix over p99 without it (target: at most 2). */
  readonly p99Ratio: number;
  /** The server process never exited and still answered /health afterwards. */
  readonly alive: boolean;
  /** The server's log lines by level over the whole run (warn: one per framing fault; no error expected). */
  readonly logs: Record<string, number>;
  readonly ok: boolean;
}

/** The demo's WebSocket paths: graphql-ws and the echo gateway. */
const SOCKET_PATHS = ['/graphql', '/v1/ws'];

/**
 * Refusal times, /health under 32 hostile connections, then normal traffic at half the main run's
 * throughput for `seconds`, alone and beside the hostile mix (soak/hostile.ts).
 */
async function soakHostile(
  server: RunningServer,
  tokens: { admin: string; member: string },
  postIds: string[],
  database: string,
  main: LoadFigures,
  seconds: number,
  acknowledged: Set<string>,
): Promise<HostileReport> {
  console.log(`\n== hostile clients on ${database}`);
  const refusals = await refusalFigures(server.url, tokens.admin);
  for (const figure of refusals)
    console.log(
      `refused ${figure.shape} (${figure.bytes} bytes) with ${figure.code}: median ${figure.medianMs} ms, p99 ${figure.p99Ms} ms`,
    );
  const bursts = await healthBesideBursts(server.url, tokens.admin);
  console.log(
    `/health behind ${bursts.bursts} bursts of ${bursts.concurrent} hostile documents: p50 ${bursts.healthP50Ms} ms, p99 ${bursts.healthP99Ms} ms, max ${bursts.healthMaxMs} ms`,
  );
  const health = await healthUnderHostile(server.url, tokens.admin, 15);
  console.log(
    `/health beside ${health.connections} hostile connections (${health.hostileRequestsPerSecond} refusals/s): p50 ${health.healthP50Ms} ms, p99 ${health.healthP99Ms} ms, ${health.healthFailures} failed of ${health.healthProbes}`,
  );
  const rate = Math.max(50, Math.round(main.requestsPerSecond / 2));
  const quiet = await load(server.url, tokens, postIds, `soak quiet ${database}`, seconds, 16, acknowledged, rate);
  const mix = startHostileMix(server.url, { token: tokens.admin, socketPaths: SOCKET_PATHS, rate: 100, faultsPerSecond: 20 });
  const beside = await load(server.url, tokens, postIds, `soak hostile ${database}`, seconds, 16, acknowledged, rate);
  const sent = await mix.stop();
  const alive = server.child.exitCode === null && server.child.signalCode === null && (await fetch(`${server.url}/health`)).ok;
  const p99Ratio = Math.round((beside.p99 / Math.max(quiet.p99, 1)) * 100) / 100;
  const logs = { ...server.logLevels };
  console.log(
    `normal traffic at ${rate} req/s: p99 ${quiet.p99} ms alone, ${beside.p99} ms beside the hostile mix (${p99Ratio}×); the mix sent ${sent.amplifiedDocuments} amplified documents, ${sent.oversizedBodies} oversized bodies, ${sent.oversizedHeaders} oversized headers, ${sent.stalledRequests} stalled requests, ${sent.framingFaults} framing faults (${sent.framingFaultsClosed} answered with a close frame); server ${alive ? 'alive' : 'DEAD'}; its log lines by level: ${JSON.stringify(logs)}`,
  );
  const ok =
    alive &&
    !logs.error &&
    !logs.fatal &&
    p99Ratio <= 2 &&
    refusals.every((figure) => figure.medianMs < 25 && figure.code.endsWith('_LIMIT')) &&
    bursts.healthP99Ms < 50 &&
    health.healthFailures === 0 &&
    [quiet, beside].every((run) => run.errors === 0 && run.non2xx === 0);
  return { refusals, bursts, health, quiet, beside, mix: sent, p99Ratio, alive, logs, ok };
}

/** Runs the long property suites; returns the report lines they wrote and whether they passed. */
function runSuites(options: Options): { passed: boolean; reports: Record<string, unknown>[] } {
  const reportFile = path.join(os.tmpdir(), `soak-report-${process.pid}.jsonl`);
  rmSync(reportFile, { force: true });
  console.log(`\n== long property runs: seed ${options.seed}, ${options.fuzzRuns} cases per property, ${options.kills} kills per database`);
  let passed = true;
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', ...SUITES], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        FUZZ_RUNS: String(options.fuzzRuns),
        FUZZ_SEED: String(options.seed),
        CRASH_KILLS: String(options.kills),
        FUZZ_REPORT: reportFile,
      },
    });
  } catch {
    passed = false;
  }
  const reports = existsSync(reportFile)
    ? readFileSync(reportFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];
  return { passed, reports };
}

interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Log lines the server wrote, by level name (its stdout, JSON); error and fatal lines are also printed. */
  readonly logLevels: Record<string, number>;
}

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

async function startServer(databaseUrl: string, pin: readonly string[]): Promise<RunningServer> {
  const port = await freePort();
  const command = [process.execPath, '--import', 'tsx', path.join(ROOT, 'generated/main.ts')];
  const argv = [...pin, ...command];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_DATABASE__URL: databaseUrl,
      APP_HTTP__PORT: String(port),
      APP_HTTP__HOST: '127.0.0.1',
      APP_AUTH__SECRET: SECRET,
      APP_LOG__LEVEL: 'warn',
      APP_LOG__FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Thousands of warn lines (framing faults are client faults, logged at warn) are counted, not printed.
  const logLevels: Record<string, number> = {};
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      let level = 'unparsed';
      try {
        level = LEVEL_NAMES[(JSON.parse(line) as { level: number }).level] ?? 'unparsed';
      } catch {
        // not a log line
      }
      logLevels[level] = (logLevels[level] ?? 0) + 1;
      if (level === 'error' || level === 'fatal' || level === 'unparsed') console.log(`server: ${line}`);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child, logLevels };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

function stopServer(server: RunningServer): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** One autocannon run of the mixed workload; acknowledged write ids go into `acknowledged`. `rate`: requests per second (open loop). */
async function load(
  url: string,
  tokens: { admin: string; member: string },
  postIds: string[],
  label: string,
  seconds: number,
  connections: number,
  acknowledged: Set<string>,
  rate?: number,
): Promise<LoadFigures> {
  let sequence = 0;
  const member = { authorization: `Bearer ${tokens.member}` };
  const admin = { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' };
  const nested = JSON.stringify({
    query:
      '{ users(first: 20) { id name org { id name } posts(first: 10) { edges { cursor node { id title } } pageInfo { hasNextPage endCursor } } } }',
  });
  const requests: LoadRequest[] = [
    { method: 'GET', path: '/v2/posts?first=20', headers: member },
    { method: 'POST', path: '/graphql', headers: { ...member, 'content-type': 'application/json' }, body: nested },
    { method: 'GET', path: '/v2/posts', makePath: () => `/v2/posts/${postIds[(sequence += 1) % postIds.length]}`, headers: member },
    {
      method: 'POST',
      path: '/v2/posts',
      headers: admin,
      makeBody: () => JSON.stringify({ title: `${label} ${(sequence += 1)}`, body: 'written under load' }),
      onResponse: (status, body) => {
        if (status === 201) acknowledged.add((JSON.parse(body) as { id: string }).id);
      },
    },
    { method: 'GET', path: '/users?first=20', headers: member },
  ];
  const result = await runLoad(url, requests, seconds, connections, rate !== undefined ? { rate } : {});
  return {
    ...result,
    connections,
    seconds,
    requestsPerSecond: Math.round(result.requestsPerSecond),
    ratio: Math.round((result.p99 / Math.max(result.p50, 1)) * 10) / 10,
  };
}

async function soakDatabase(database: string, databaseUrl: string, seconds: number, pin: readonly string[]): Promise<LoadReport> {
  console.log(`\n== load on ${database}`);
  const seeded = await seedDatabase(databaseUrl, { orgs: 4, users: 25, posts: 10 });
  const orgId = seeded.orgs[0]!.id;
  const adminUser = seeded.users.find((user) => user.orgId === orgId && user.role === 'admin')!;
  const memberUser = seeded.users.find((user) => user.orgId === orgId && user.role === 'member')!;
  const tokens = {
    admin: await mintToken(SECRET, { sub: adminUser.id, org_id: orgId, role: 'admin' }, '24h'),
    member: await mintToken(SECRET, { sub: memberUser.id, org_id: orgId, role: 'member' }, '24h'),
  };
  const users = new Set(seeded.users.filter((user) => user.orgId === orgId).map((user) => user.id));
  const postIds = seeded.posts.filter((post) => users.has(post.authorId) && post.status === 'published').map((post) => post.id);
  const server = await startServer(databaseUrl, pin);
  const acknowledged = new Set<string>();
  const probes: LoadFigures[] = [];
  try {
    await load(server.url, tokens, postIds, `soak warmup ${database}`, 5, 4, acknowledged);
    for (const connections of [1, 2, 4, 8, 16, 32]) {
      const probe = await load(server.url, tokens, postIds, `soak probe ${database}`, 5, connections, acknowledged);
      probes.push(probe);
      console.log(
        `probe ${connections} connections: ${probe.requestsPerSecond} req/s, p50 ${probe.p50} ms, p99 ${probe.p99} ms (${probe.ratio}×)`,
      );
    }
    const eligible = probes.filter((probe) => probe.p99 < 10 * Math.max(probe.p50, 1) && probe.errors === 0 && probe.non2xx === 0);
    const chosen = (eligible.length ? eligible : probes).reduce((best, probe) =>
      probe.requestsPerSecond > best.requestsPerSecond ? probe : best,
    );
    console.log(`main run: ${chosen.connections} connections for ${seconds} s`);
    const main = await load(server.url, tokens, postIds, `soak main ${database}`, seconds, chosen.connections, acknowledged);
    console.log(
      `main: ${main.requests} requests, ${main.requestsPerSecond} req/s, p50 ${main.p50} ms, p99 ${main.p99} ms (${main.ratio}×), ${main.errors} errors, ${main.non2xx} non-2xx`,
    );
    const hostile = await soakHostile(server, tokens, postIds, database, main, Math.min(30, seconds), acknowledged);
    await stopServer(server);

    const client = await openDatabase(databaseUrl);
    let stored: string[];
    try {
      stored = (await runUnscoped(() => client.post.findMany({ where: { title: { startsWith: 'soak ' } }, select: { id: true } }))).map(
        (row: { id: string }) => row.id,
      );
    } finally {
      await client.$disconnect();
    }
    const storedSet = new Set(stored);
    const missing = [...acknowledged].filter((id) => !storedSet.has(id)).length;
    // A run that ends cuts off the requests in flight: at most one per connection, stored or not.
    const cutOff = 4 + [...probes, main].reduce((sum, run) => sum + run.connections, 0);
    const unacknowledged = stored.length - (acknowledged.size - missing);
    const cutOffAll = cutOff + hostile.quiet.connections + hostile.beside.connections;
    const ok =
      main.errors === 0 &&
      main.non2xx === 0 &&
      main.p99 < 10 * Math.max(main.p50, 1) &&
      missing === 0 &&
      unacknowledged >= 0 &&
      unacknowledged <= cutOffAll &&
      hostile.ok;
    console.log(
      `writes: ${acknowledged.size} acknowledged, ${stored.length} stored, ${missing} acknowledged but missing, ${unacknowledged} stored but cut off before their answer (at most ${cutOffAll})`,
    );
    return {
      database,
      probes,
      main,
      writesAcknowledged: acknowledged.size,
      writesStored: stored.length,
      acknowledgedMissing: missing,
      unacknowledgedStored: unacknowledged,
      hostile,
      ok,
    };
  } catch (error) {
    server.child.kill('SIGKILL');
    throw error;
  }
}

async function main(): Promise<void> {
  const program = new Command()
    .option('--seconds <n>', 'main load run, seconds', '60')
    .option('--fuzz-runs <n>', 'cases per property', '2000')
    .option('--kills <n>', 'SIGKILLs per database in the crash suite', '10')
    .option('--seed <n>', 'property seed (default: random, printed)')
    .option('--only <part>', 'tests or load')
    .parse();
  const raw = program.opts<{ seconds: string; fuzzRuns: string; kills: string; seed?: string; only?: 'tests' | 'load' }>();
  const options: Options = {
    seconds: Number(raw.seconds),
    fuzzRuns: Number(raw.fuzzRuns),
    kills: Number(raw.kills),
    seed: raw.seed ? Number(raw.seed) : Math.floor(Math.random() * 2 ** 31),
    ...(raw.only ? { only: raw.only } : {}),
  };
  const started = Date.now();
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    options,
  };
  let ok = true;

  if (options.only !== 'load') {
    const suites = runSuites(options);
    results.properties = suites;
    ok &&= suites.passed;
  }
  if (options.only !== 'tests') {
    const loads: LoadReport[] = [];
    const { prefix: pin, note } = pinCores();
    console.log(`\n${note}`);
    loads.push(await soakDatabase('sqlite', await createTestDatabase('sqlite'), options.seconds, pin));
    let cluster: PostgresCluster | undefined;
    if (process.env.TEST_POSTGRES_URL || postgresBinaries()) {
      cluster = process.env.TEST_POSTGRES_URL ? undefined : await startCluster();
      try {
        loads.push(
          await soakDatabase(
            'postgresql',
            await createTestDatabase('postgresql', process.env.TEST_POSTGRES_URL ?? cluster?.url),
            options.seconds,
            pin,
          ),
        );
      } finally {
        cluster?.stop();
      }
    } else console.log('\nPostgreSQL is not installed: load on SQLite only (apt-get install postgresql)');
    results.load = loads;
    ok &&= loads.every((report) => report.ok);
  }

  const minutes = Math.round((Date.now() - started) / 600) / 100;
  results.minutes = minutes;
  writeFileSync(path.join(ROOT, 'soak/results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n== soak ${ok ? 'passed' : 'FAILED'} in ${minutes} min (seed ${options.seed}); figures in soak/results.json`);
  process.exitCode = ok ? 0 : 1;
}

await main();
