/**
 * `npm run bench:profile -- <scenario> [--database=sqlite|postgresql] [--server=generated] [--seconds=10]`
 * (`--server=` any of bench/servers/index.ts: `generated-tracing` exports to a sink in this process)
 * (BENCHMARKS.md §"Where the time goes"): one server under one scenario's load with `node --cpu-prof`,
 * then the profile summed by self time — per function, and per place (a package under
 * node_modules, a file of ours, or V8/Node itself) — so a change is decided from where the time
 * goes, not guessed. The `.cpuprofile` is kept for a flame graph (Chrome DevTools, speedscope).
 *
 * Scenarios: rest-list, graphql-nested, graphql-users, rest-users, point-lookup, write-mix.
 */

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintToken } from '../runtime/auth/authentication.js';
import { type PostgresCluster, startCluster } from '../test/support/postgres.js';
import { pinCores } from './cores.js';
import { type BenchDatabaseKind, createBenchData } from './data.js';
import { type LoadRequest, runLoad } from './load.js';
import { startOtlpSink } from './otlp-sink.js';
import { spawnBenchServer } from './spawn.js';
import { DOCUMENTS, graphqlBody } from './scenarios.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SECRET = 'benchmark-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const option = (name: string, fallback: string): string =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/** A node of a V8 CPU profile. */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

/** Where a script's time is counted: a package, a file of ours, or the engine. */
function placeOf(url: string): string {
  if (!url) return '(V8 / native)';
  if (url.startsWith('node:')) return 'node:internal';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + '/dist/'.length) : url;
}

/** Self time per function and per place, in percent of the samples. */
function summarise(file: string, top: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url);
    functions.set(
      `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`,
      (functions.get(`${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`) ?? 0) + time,
    );
    places.set(place, (places.get(place) ?? 0) + time);
  }
  const percent = (value: number): string => `${((value / total) * 100).toFixed(1).padStart(5)} %`;
  const lines = ['self time by place:'];
  for (const [place, time] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${percent(time)}  ${place}`);
  lines.push('self time by function:');
  for (const [name, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${percent(time)}  ${name}`);
  return lines;
}

async function main(): Promise<void> {
  const scenario = process.argv[2] ?? 'point-lookup';
  const database = option('database', 'sqlite') as BenchDatabaseKind;
  const server = option('server', 'generated');
  const seconds = Number(option('seconds', '10'));
  const pin = pinCores();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
  let cluster: PostgresCluster | undefined;
  try {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.bench.json')], { cwd: ROOT, stdio: 'inherit' });
    execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.peers.json')], { cwd: ROOT, stdio: 'inherit' });
    copyFileSync(path.join(ROOT, 'generated/schema.graphql'), path.join(ROOT, 'dist/generated/schema.graphql'));
    if (database === 'postgresql') cluster = await startCluster();
    const data = await createBenchData(database, { dir, ...(cluster ? { clusterUrl: cluster.url } : {}) }, { deep: false });
    const token = (user: { id: string; orgId: string; role: string }): Promise<string> =>
      mintToken(SECRET, { sub: user.id, org_id: user.orgId, role: user.role }, '2h');
    const member = await token(data.main.member);
    const admin = await token(data.main.admin);
    const post = (query: string, bearer: string, variables?: Record<string, unknown>): LoadRequest => ({
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: graphqlBody(query, variables),
    });
    let written = 0;
    const requests: Record<string, LoadRequest[]> = {
      'rest-list': [{ method: 'GET', path: '/v2/posts?first=20', headers: { authorization: `Bearer ${member}` } }],
      'rest-users': [{ method: 'GET', path: '/users?first=20', headers: { authorization: `Bearer ${member}` } }],
      'graphql-nested': [post(DOCUMENTS.nested, member)],
      'graphql-users': [post(DOCUMENTS.users, member)],
      'point-lookup': [post(DOCUMENTS.user, member, { id: data.main.member.id })],
      'write-mix': [
        {
          ...post(DOCUMENTS.createUser, admin),
          makeBody: () =>
            graphqlBody(DOCUMENTS.createUser, { input: { name: `Profiled ${written}`, email: `profiled-${written++}@bench.example` } }),
        },
        ...Array.from({ length: 4 }, () => post(DOCUMENTS.users, admin)),
      ],
    };
    const chosen = requests[scenario];
    if (!chosen) throw new Error(`unknown scenario ${scenario}; one of ${Object.keys(requests).join(', ')}`);
    // The tracing variant exports to a sink in this process, as in `npm run bench`.
    const sink = await startOtlpSink();
    const profiles = path.join(dir, 'profiles');
    const { url, child } = await spawnBenchServer(server, {
      root: ROOT,
      databaseUrl: data.main.url,
      secret: SECRET,
      pin: pin.prefix,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
      env: { BENCH_OTLP_URL: sink.url },
    });
    await runLoad(url, chosen, 2, 10);
    const result = await runLoad(url, chosen, seconds, 10);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
    await sink.close();
    const file = path.join(profiles, readdirSync(profiles)[0] ?? '');
    const kept = path.join(os.tmpdir(), `${server}-${scenario}-${database}.cpuprofile`);
    copyFileSync(file, kept);
    process.stdout.write(
      `${server} ${scenario} on ${database}: ${result.requestsPerSecond.toFixed(0)} req/s under the profiler (p50 ${result.p50} ms)\n`,
    );
    process.stdout.write(`${summarise(kept, Number(option('top', '40'))).join('\n')}\nprofile: ${kept}\n`);
  } finally {
    cluster?.destroy();
    // (the temporary folder holds the databases; the profile was copied out)
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
