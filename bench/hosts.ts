/**
 * `npm run bench:hosts` (BENCHMARKS.md "Several hosts behind a balancer"; docs/guide/deployment.md
 * "Capacity"): the multi-host bed of the tests (test/support/hosts.ts — network namespaces, HAProxy
 * round-robin, each host the compiled server with two workers, PgBouncer in transaction mode in
 * front of PostgreSQL, `APP_DATABASE__DIRECT_URL` for session work) under a bounded load through
 * the balancer with 1, 2 and 3 hosts in rotation (the others stopped), per scenario: the REST list,
 * a point lookup, the nested GraphQL query and the write mix of `npm run bench` (bench/scenarios.ts).
 *
 * Beside req/s and latency, each run records the CPU time every part of the bed used (read from
 * /proc for the processes of each namespace, and this process's own for the load generator), per
 * request answered: with each part on machines of its own, the part with the most CPU per request
 * per core it has saturates first. Every part shares this machine's cores (and the machine may be
 * shared with other work), so req/s are ratios between host counts, not what separate machines
 * would give. Each measurement runs twice, the second pass in the reverse order of host counts.
 *
 * Needs root, iproute2, HAProxy, PgBouncer and PostgreSQL (as the multi-host tests). Run:
 * `npm run bench:hosts [-- --seconds 5 --connections 30 --write]`; `--write` puts the section into
 * BENCHMARKS.md (`npm run bench` keeps it when it rewrites the file).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type HostBed, hostsUnavailable, startHostBed } from '../test/support/hosts.js';
import { ROOT } from '../test/support/project.js';
import { type LoadRequest, type LoadResult, runLoad } from './load.js';
import { HOSTS_HEADING, withSection } from './report.js';
import { DOCUMENTS, graphqlBody } from './scenarios.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '30' },
    write: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
/** Seconds of load before each measured run, so a host just put back is warm. */
const WARM_UP = 2;
/** Clock ticks per second of /proc's CPU times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const log = (line: string): void => void process.stdout.write(`${line}\n`);

/** A part of the bed whose CPU time is read, by the namespace role its processes run in. */
const PARTS = [
  { label: 'application hosts', roles: ['app1', 'app2', 'app3'] },
  { label: 'PostgreSQL', roles: ['db'] },
  { label: 'PgBouncer', roles: ['pool'] },
  { label: 'HAProxy', roles: ['lb'] },
] as const;

/**
 * CPU seconds used so far by the processes now in namespace `name`, and by their children that
 * exited and were waited for (a PostgreSQL backend whose connection closed): a process's own time
 * and its reaped children's (cutime, cstime), so nothing is counted twice.
 */
function namespaceCpu(name: string): number {
  let pids: string[];
  try {
    pids = execFileSync('ip', ['netns', 'pids', name], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): utime, stime, cutime and cstime are the 12th to 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Exited meanwhile.
    }
  }
  return ticks / TICKS;
}

/** CPU seconds used so far by each part of the bed, and by this process (the load generator). */
function cpuNow(): Record<string, number> {
  const namespace = (role: string): string => `rsh${process.pid}-${role}`;
  const usage = process.cpuUsage();
  return {
    ...Object.fromEntries(PARTS.map((part) => [part.label, part.roles.reduce((sum, role) => sum + namespaceCpu(namespace(role)), 0)])),
    'load generator': (usage.user + usage.system) / 1e6,
  };
}

/** One measured run. */
interface Run {
  readonly scenario: string;
  readonly hosts: number;
  readonly pass: number;
  readonly result: LoadResult;
  /** CPU seconds each part used over the run. */
  readonly cpu: Record<string, number>;
  /** The run's wall time, seconds. */
  readonly wall: number;
}

/** The scenarios, as `npm run bench` sends them (bench/run.ts). */
function scenarios(bed: HostBed, tokens: { member: string; admin: string }): { id: string; title: string; requests: LoadRequest[] }[] {
  const json = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const post = (document: string, token: string, variables?: Record<string, unknown>): LoadRequest => ({
    method: 'POST',
    path: '/graphql',
    headers: json(token),
    body: graphqlBody(document, variables),
  });
  let written = 0;
  const prefix = `hosts-${Date.now()}`;
  return [
    {
      id: 'rest-list',
      title: 'REST GET /v2/posts?first=20 (member)',
      requests: [{ method: 'GET', path: '/v2/posts?first=20', headers: { authorization: `Bearer ${tokens.member}` } }],
    },
    {
      id: 'lookup',
      title: 'GraphQL user(id:) point lookup (member)',
      requests: [post(DOCUMENTS.user, tokens.member, { id: bed.user('member').id })],
    },
    {
      id: 'nested',
      title: 'GraphQL nested users(first: 20) { org, posts(first: 10) } (member)',
      requests: [post(DOCUMENTS.nested, tokens.member)],
    },
    {
      id: 'write-mix',
      title: 'Write mix: 1 createUser per 4 users(first: 20) (admin)',
      requests: [
        {
          method: 'POST',
          path: '/graphql',
          headers: json(tokens.admin),
          makeBody: () =>
            graphqlBody(DOCUMENTS.createUser, {
              input: { name: `Hosts writer ${written}`, email: `${prefix}-${written++}@bench.example` },
            }),
        },
        ...Array.from({ length: 4 }, () => post(DOCUMENTS.users, tokens.admin)),
      ],
    },
  ];
}

/** Brings exactly the first `count` hosts into rotation (starting or stopping the others) and waits for the balancer to agree. */
async function rotate(bed: HostBed, count: number): Promise<void> {
  for (const [index, host] of bed.hosts.entries()) {
    if (index < count && !host.running()) await host.start();
    if (index >= count && host.running()) await host.stop();
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await bed.balancerStates();
    const up = bed.hosts.filter((host) => states[host.name] === 'UP').length;
    if (up === count && bed.hosts.slice(0, count).every((host) => states[host.name] === 'UP')) return;
    if (Date.now() > deadline) throw new Error(`the balancer did not settle on ${count} hosts: ${JSON.stringify(states)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `requests` for {@link SECONDS} after a warm-up; returns the result and the CPU seconds each part used meanwhile. */
async function measure(bed: HostBed, requests: LoadRequest[]): Promise<{ result: LoadResult; cpu: Record<string, number>; wall: number }> {
  await runLoad(bed.url, requests, WARM_UP, CONNECTIONS);
  const before = cpuNow();
  const started = process.hrtime.bigint();
  const result = await runLoad(bed.url, requests, SECONDS, CONNECTIONS);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const after = cpuNow();
  const cpu = Object.fromEntries(Object.keys(after).map((part) => [part, (after[part] ?? 0) - (before[part] ?? 0)]));
  return { result, cpu, wall };
}

/** CPU milliseconds per second each part spends with no load at all (health checks, job polling, timers), over {@link SECONDS}. */
async function idle(): Promise<Record<string, number>> {
  const before = cpuNow();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const after = cpuNow();
  return Object.fromEntries(Object.keys(after).map((part) => [part, (1000 * ((after[part] ?? 0) - (before[part] ?? 0))) / SECONDS]));
}

const rate = (value: number): string => Math.round(value).toLocaleString('en-US');
const PART_LABELS = [...PARTS.map((part) => part.label), 'load generator'];
/** CPU milliseconds per request of `part` in `run`. */
const perRequest = (run: Run, part: string): string => ((1000 * (run.cpu[part] ?? 0)) / Math.max(1, run.result.requests)).toFixed(2);
/** The share of the machine's cores the whole bed (every part) used over `run`. */
const bedShare = (run: Run): string =>
  `${Math.round((100 * Object.values(run.cpu).reduce((sum, value) => sum + value, 0)) / run.wall / os.availableParallelism())}%`;

/** The BENCHMARKS.md section of `runs`. */
function render(
  runs: readonly Run[],
  idles: readonly { hosts: number; pass: number; cpu: Record<string, number> }[],
  titles: Readonly<Record<string, string>>,
  seconds: number,
  load: readonly number[],
): string {
  const lines = [
    HOSTS_HEADING,
    '',
    `Measured by \`npm run bench:hosts\` on ${new Date().toISOString().slice(0, 10)} (${seconds} s, ${os.availableParallelism()} cores,`,
    `Node ${process.version}): the multi-host bed of the tests (test/support/hosts.ts), each host the compiled server with`,
    '`APP_HTTP__WORKERS=2`, PgBouncer 1.18 in transaction mode as `APP_DATABASE__URL` and PostgreSQL as',
    '`APP_DATABASE__DIRECT_URL`, HAProxy round-robin in front; hosts not in rotation are stopped.',
    `${SECONDS} s of load per run after ${WARM_UP} s of warm-up, ${CONNECTIONS} connections through the balancer; each`,
    'measurement twice (pass 1: 3, 2, 1 hosts; pass 2: 1, 2, 3). **Every part — hosts, PostgreSQL, PgBouncer,',
    'HAProxy and the load generator — shares the same cores, and the machine was shared with other work',
    `(the "bed" column: the share of all cores the bed got; the machine's load average over 1 minute was ${load.map((value) => value.toFixed(1)).join(', ')}`,
    'at the start of each host count): the figures are indicative; compare ratios',
    'between host counts and CPU time per request, not absolute rates.** CPU columns: milliseconds of',
    'CPU each part spent per request answered (the hosts: all their processes together).',
    '',
    `| scenario | hosts | pass | req/s | × 1 host | p50 ms | p99 ms | non-2xx | errors | bed | ${PART_LABELS.map((part) => `${part} CPU ms/req`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${PART_LABELS.map(() => '---:').join('|')}|`,
  ];
  for (const scenario of [...new Set(runs.map((run) => run.scenario))]) {
    for (const run of runs.filter((candidate) => candidate.scenario === scenario).sort((a, b) => a.hosts - b.hosts || a.pass - b.pass)) {
      const single = runs.find((candidate) => candidate.scenario === scenario && candidate.hosts === 1 && candidate.pass === run.pass);
      const ratio = single ? run.result.requestsPerSecond / single.result.requestsPerSecond : Number.NaN;
      lines.push(
        `| ${titles[scenario] ?? scenario} | ${run.hosts} | ${run.pass} | ${rate(run.result.requestsPerSecond)} | ${ratio.toFixed(2)}× | ${run.result.p50} | ${run.result.p99} | ${run.result.non2xx} | ${run.result.errors} | ${bedShare(run)} | ${PART_LABELS.map((part) => perRequest(run, part)).join(' | ')} |`,
      );
    }
  }
  lines.push(
    '',
    `With no load at all, for ${SECONDS} s, each part spends this much CPU (milliseconds per second: health checks every 500 ms, job`,
    'polling, timers) — a fixed cost that CPU per request above includes, larger the fewer requests a run answered:',
    '',
    `| hosts | pass | ${PART_LABELS.join(' | ')} |`,
    `|---:|---:|${PART_LABELS.map(() => '---:').join('|')}|`,
    ...[...idles]
      .sort((a, b) => a.hosts - b.hosts || a.pass - b.pass)
      .map((entry) => `| ${entry.hosts} | ${entry.pass} | ${PART_LABELS.map((part) => (entry.cpu[part] ?? 0).toFixed(0)).join(' | ')} |`),
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const unavailable = hostsUnavailable();
  if (unavailable) throw new Error(unavailable);
  const started = Date.now();
  log('starting the bed: 3 hosts, PgBouncer in transaction mode …');
  const bed = await startHostBed({
    hosts: 3,
    serversUse: 'pooler',
    seed: { orgs: 4, users: 100, posts: 10 },
    // No digests firing inside a run, and no access lines (as the generated servers of `npm run bench`);
    // the boot lines stay, the bed waits for them.
    env: { APP_CRON__WRITE_DIGESTS: 'off', APP_LOG__ACCESS: 'off' },
  });
  try {
    const tokens = { member: await bed.token('member'), admin: await bed.token('admin') };
    const list = scenarios(bed, tokens);
    const titles = Object.fromEntries(list.map((scenario) => [scenario.id, scenario.title]));
    const runs: Run[] = [];
    const load: number[] = [];
    const idles: { hosts: number; pass: number; cpu: Record<string, number> }[] = [];
    for (const [pass, order] of [
      [1, [3, 2, 1]],
      [2, [1, 2, 3]],
    ] as const) {
      for (const hosts of order) {
        await rotate(bed, hosts);
        load.push(os.loadavg()[0] ?? 0);
        idles.push({ hosts, pass, cpu: await idle() });
        for (const scenario of list) {
          const { result, cpu, wall } = await measure(bed, scenario.requests);
          const run: Run = { scenario: scenario.id, hosts, pass, result, cpu, wall };
          runs.push(run);
          log(
            `pass ${pass}, ${hosts} host(s), ${scenario.id}: ${rate(result.requestsPerSecond)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; bed ${bedShare(run)} of the cores; CPU ms/request ${PART_LABELS.map((part) => `${part} ${perRequest(run, part)}`).join(', ')}`,
          );
        }
      }
    }
    const section = render(runs, idles, titles, Math.round((Date.now() - started) / 1000), load);
    log(`\n${section}`);
    if (values.write) {
      const file = path.join(ROOT, 'BENCHMARKS.md');
      writeFileSync(file, withSection(readFileSync(file, 'utf8'), HOSTS_HEADING, section));
      log('wrote the section into BENCHMARKS.md');
    }
  } finally {
    await bed.close();
  }
}

await main();
