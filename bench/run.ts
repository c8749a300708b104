/**
 * `npm run bench` (BENCHMARKS.md): the generated server side by side with in-repo baselines serving the
 * same responses, in one run, on the same machine.
 *
 * 1. Seeds two SQLite databases (bench/data.ts): 10 orgs × 1 000 users × 10 posts, and 1 000 000
 *    posts for keyset depth.
 * 2. Starts each server as its own process pinned to core 0 (`taskset`), while this process — the
 *    load generator, autocannon — pins itself to core 1: the generated server, the floor
 *    (node:http + better-sqlite3 + jose, hand-written SQL), Express 5 + Prisma, naive GraphQL.
 * 3. Checks every variant answers the same as the generated server before timing anything.
 * 4. Per scenario: a warm-up of each variant, then rounds in which the variants take turns
 *    (rotated each round); reports the median and min–max of req/s, p50/p99 latency, non-2xx,
 *    errors, server RSS, and every figure as a ratio to the floor of the same scenario.
 * 5. Counts SQL statements per request with each server started in this process.
 * 6. Times `generate` (bench/generator.ts).
 * 7. Writes BENCHMARKS.md and bench/ratios.svg.
 *
 * Options: `--quick` (1 round of 2 s: a smoke run, numbers not for publishing), `--no-write`
 * (print only), BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 3), BENCH_SCENARIOS
 * (comma-separated scenario ids, e.g. `graphql-nested,point-lookup`: time only those, and skip
 * the statement counts and `generate`'s timing).
 *
 * The nested and point-lookup scenarios also time the generated server with metrics on and with
 * every span exported to an OTLP/HTTP sink in this process (bench/otlp-sink.ts): what observability
 * costs (docs/behaviour.md §12).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintToken } from '../runtime/auth/authentication.js';
import { type BenchData, createBenchData } from './data.js';
import { type GeneratorCase, measureGenerator } from './generator.js';
import { pinCores, unpinCores } from './cores.js';
import { type LoadRequest, type LoadResult, runLoad } from './load.js';
import { startOtlpSink } from './otlp-sink.js';
import { renderMarkdown, renderSvg, type Report, type ScenarioReport, type StatementRow, type TargetRow, type VariantReport } from './report.js';
import { DOCUMENTS, graphqlBody } from './scenarios.js';
import { SERVERS, type ServerName } from './servers/index.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SECRET = 'benchmark-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

const quick = process.argv.includes('--quick');
const settings = {
  seconds: quick ? 2 : Number(process.env.BENCH_SECONDS ?? 5),
  warmup: quick ? 1 : 2,
  rounds: quick ? 1 : Number(process.env.BENCH_ROUNDS ?? 3),
  connections: 10,
  generatorRuns: quick ? 1 : 3,
};

/** Seconds the servers stay idle before their resident memory is read. */
const IDLE_SECONDS = 30;

const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * Compiles the servers to JavaScript (`tsconfig.bench.json` → `dist/`), as a deployment runs the
 * generated server (`npm run build`, `npm start`): no TypeScript loader in the measured processes.
 */
function buildServers(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.bench.json')], { cwd: ROOT, stdio: 'inherit' });
  copyFileSync(path.join(ROOT, 'generated/schema.graphql'), path.join(ROOT, 'dist/generated/schema.graphql'));
}

/** A server running in a child process. */
interface ChildServer {
  readonly label: string;
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
}

async function spawnServer(name: ServerName, label: string, databaseUrl: string, pin: string[]): Promise<ChildServer> {
  const command = [...pin, process.execPath, path.join(ROOT, 'dist/bench/servers/index.js'), name];
  const child = spawn(command[0] ?? process.execPath, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_SECRET: SECRET, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /\{"url":"([^"]+)"\}/.exec(buffer);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code} before listening`)));
  });
  return { label, url, pid: child.pid ?? 0, child };
}

/** Resident set size of a process, megabytes (Linux /proc). */
function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kilobytes / 102.4) / 10;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** One variant of a scenario: a server and what to send it. */
interface Variant {
  readonly label: string;
  readonly server: ChildServer;
  readonly requests: readonly LoadRequest[];
}

/** A scenario: variants compared with each other and with the floor among them. */
interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly floor: string;
  readonly variants: readonly Variant[];
}

const get = (pathname: string, token: string): LoadRequest => ({ method: 'GET', path: pathname, headers: { authorization: `Bearer ${token}` } });
const post = (query: string, token: string, variables?: Record<string, unknown>): LoadRequest => ({
  method: 'POST',
  path: '/graphql',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: graphqlBody(query, variables),
});

/** What a response means, for comparing servers: REST body and cursor, or GraphQL data and errors. */
async function answerOf(server: ChildServer, request: LoadRequest): Promise<unknown> {
  const response = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (request.path === '/graphql') return { status: response.status, data: body.data, errors: body.errors };
  return { status: response.status, body, cursor: response.headers.get('x-next-cursor') };
}

/**
 * Refuses to time variants that answer differently: every variant must answer each request
 * exactly as the first variant sending the same request does (writes excepted).
 */
async function verify(scenario: Scenario): Promise<void> {
  const first = new Map<string, { label: string; answer: string }>();
  for (const variant of scenario.variants) {
    for (const request of variant.requests) {
      if (request.makeBody) continue;
      const key = `${request.method} ${request.path} ${request.body ?? ''}`;
      const answer = JSON.stringify(await answerOf(variant.server, request));
      const reference = first.get(key);
      if (!reference) first.set(key, { label: variant.label, answer });
      else if (reference.answer !== answer) {
        throw new Error(`${scenario.title}: ${variant.label} answers ${key} differently from ${reference.label}:\n${answer.slice(0, 600)}\n---\n${reference.answer.slice(0, 600)}`);
      }
    }
  }
}

async function measureScenario(scenario: Scenario): Promise<ScenarioReport> {
  log(`\n${scenario.title}`);
  await verify(scenario);
  for (const variant of scenario.variants) await runLoad(variant.server.url, variant.requests, settings.warmup, settings.connections);
  const runs = new Map<string, LoadResult[]>(scenario.variants.map((variant) => [variant.label, []]));
  const rss = new Map<string, number>();
  for (let round = 0; round < settings.rounds; round++) {
    const order = scenario.variants.map((_variant, index) => scenario.variants[(index + round) % scenario.variants.length]);
    for (const variant of order) {
      if (!variant) continue;
      const result = await runLoad(variant.server.url, variant.requests, settings.seconds, settings.connections);
      runs.get(variant.label)?.push(result);
      rss.set(variant.label, Math.max(rss.get(variant.label) ?? 0, rssMegabytes(variant.server.pid)));
    }
  }
  const floorRuns = runs.get(scenario.floor) ?? [];
  const floorRate = median(floorRuns.map((run) => run.requestsPerSecond));
  const variants: VariantReport[] = scenario.variants.map((variant) => {
    const results = runs.get(variant.label) ?? [];
    const rates = results.map((run) => run.requestsPerSecond);
    const report: VariantReport = {
      label: variant.label,
      requestsPerSecond: median(rates),
      min: Math.min(...rates),
      max: Math.max(...rates),
      p50: median(results.map((run) => run.p50)),
      p99: median(results.map((run) => run.p99)),
      non2xx: results.reduce((sum, run) => sum + run.non2xx, 0),
      errors: results.reduce((sum, run) => sum + run.errors, 0),
      requests: results.reduce((sum, run) => sum + run.requests, 0),
      rssMegabytes: rss.get(variant.label) ?? 0,
      ratioToFloor: floorRate > 0 ? median(rates) / floorRate : 0,
    };
    log(
      `  ${variant.label.padEnd(34)} ${report.requestsPerSecond.toFixed(0).padStart(7)} req/s (${report.min.toFixed(0)}–${report.max.toFixed(0)})  ×floor ${report.ratioToFloor.toFixed(2)}  p50 ${report.p50} ms  p99 ${report.p99} ms  non-2xx ${report.non2xx}  errors ${report.errors}  RSS ${report.rssMegabytes} MB`,
    );
    return report;
  });
  return { id: scenario.id, title: scenario.title, floor: scenario.floor, variants };
}

/** Statements per request, with each server started in this process and its queries counted. */
async function countStatements(data: BenchData, tokens: { member: string; admin: string }, userId: string): Promise<StatementRow[]> {
  const rows: StatementRow[] = [];
  const cases: { label: string; servers: ServerName[]; request: () => LoadRequest }[] = [
    { label: 'REST GET /v2/posts?first=20', servers: ['generated', 'express-prisma', 'floor'], request: () => get('/v2/posts?first=20', tokens.member) },
    { label: 'GraphQL nested, 20 parents', servers: ['generated', 'naive-graphql', 'floor'], request: () => post(DOCUMENTS.nested, tokens.member) },
    { label: 'GraphQL nested, 100 parents', servers: ['generated', 'naive-graphql', 'floor'], request: () => post(DOCUMENTS.nested100, tokens.member) },
    { label: 'GraphQL users(first: 20)', servers: ['generated', 'naive-graphql', 'floor'], request: () => post(DOCUMENTS.users, tokens.member) },
    { label: 'REST GET /users?first=20', servers: ['generated', 'floor'], request: () => get('/users?first=20', tokens.member) },
    { label: 'GraphQL user(id:)', servers: ['generated', 'naive-graphql', 'floor'], request: () => post(DOCUMENTS.user, tokens.member, { id: userId }) },
    {
      label: 'GraphQL createUser',
      servers: ['generated', 'naive-graphql', 'floor'],
      request: () => post(DOCUMENTS.createUser, tokens.admin, { input: { name: 'Counted', email: `counted-${Math.random().toString(36).slice(2)}@bench.example` } }),
    },
  ];
  for (const name of ['generated', 'express-prisma', 'naive-graphql', 'floor'] as const) {
    const statements: string[] = [];
    const server = await SERVERS[name]({ databaseUrl: data.main.url, port: 0, secret: SECRET, onQuery: (sql) => statements.push(sql) });
    try {
      for (const entry of cases) {
        if (!entry.servers.includes(name)) continue;
        const send = async (): Promise<void> => {
          const request = entry.request();
          const response = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
          await response.arrayBuffer();
        };
        await send();
        statements.length = 0;
        await send();
        rows.push({ request: entry.label, server: name, statements: statements.length });
      }
    } finally {
      await server.close();
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const started = Date.now();
  const pin = pinCores();
  log(`resource-service benchmark${quick ? ' (quick: numbers not for publishing)' : ''} — ${pin.note}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const children: ChildServer[] = [];
  try {
    log('seeding: 10 orgs × 1 000 users × 10 posts, and 1 000 000 posts for keyset depth …');
    const seedStarted = Date.now();
    const data = await createBenchData(dir);
    log(`  seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
    const token = (user: { id: string; orgId: string; role: string }): Promise<string> => mintToken(SECRET, { sub: user.id, org_id: user.orgId, role: user.role }, '2h');
    const tokens = { member: await token(data.main.member), admin: await token(data.main.admin), deepMember: await token(data.deep.member) };

    // The tracing variant exports its spans here (the servers inherit this process's environment).
    const sink = await startOtlpSink();
    process.env.BENCH_OTLP_URL = sink.url;
    const spawnAll = async (): Promise<Record<string, ChildServer>> => {
      const servers = {
        generated: await spawnServer('generated', 'generated', data.main.url, pin.prefix),
        generatedMetrics: await spawnServer('generated-metrics', 'generated, metrics on', data.main.url, pin.prefix),
        generatedTracing: await spawnServer('generated-tracing', 'generated, tracing on', data.main.url, pin.prefix),
        floor: await spawnServer('floor', 'floor', data.main.url, pin.prefix),
        expressPrisma: await spawnServer('express-prisma', 'Express + Prisma', data.main.url, pin.prefix),
        naive: await spawnServer('naive-graphql', 'naive GraphQL', data.main.url, pin.prefix),
        generatedDeep: await spawnServer('generated', 'generated (deep db)', data.deep.url, pin.prefix),
        floorDeep: await spawnServer('floor', 'floor (deep db)', data.deep.url, pin.prefix),
      };
      children.push(...Object.values(servers));
      return servers;
    };
    log('compiling the servers (tsconfig.bench.json → dist/) …');
    buildServers();
    const servers = await spawnAll();
    // Idle means idle: V8 returns memory a while after the last allocation (its memory reducer).
    log(`servers up; idle for ${IDLE_SECONDS} s before reading their resident memory …`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idle = { generated: rssMegabytes(servers.generated?.pid ?? 0), floor: rssMegabytes(servers.floor?.pid ?? 0), expressPrisma: rssMegabytes(servers.expressPrisma?.pid ?? 0), naive: rssMegabytes(servers.naive?.pid ?? 0) };
    const idleRss = idle.generated;
    log(`idle RSS: generated ${idle.generated} MB, floor ${idle.floor} MB, Express + Prisma ${idle.expressPrisma} MB, naive GraphQL ${idle.naive} MB`);

    const { generated, generatedMetrics, generatedTracing, floor, expressPrisma, naive, generatedDeep, floorDeep } = servers as Record<'generated' | 'generatedMetrics' | 'generatedTracing' | 'floor' | 'expressPrisma' | 'naive' | 'generatedDeep' | 'floorDeep', ChildServer>;
    const userId = data.main.member.id;
    let written = 0;
    const createUser = (prefix: string): LoadRequest => ({
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      makeBody: () => graphqlBody(DOCUMENTS.createUser, { input: { name: `Bench writer ${written}`, email: `${prefix}-${written++}@bench.example` } }),
    });
    const readsOfMix = Array.from({ length: 4 }, () => post(DOCUMENTS.users, tokens.admin));
    const scenarios: Scenario[] = [
      {
        id: 'rest-list',
        title: 'REST GET /v2/posts?first=20 (member, first page)',
        floor: 'floor',
        variants: [
          { label: 'generated', server: generated, requests: [get('/v2/posts?first=20', tokens.member)] },
          { label: 'Express + Prisma (hand-written)', server: expressPrisma, requests: [get('/v2/posts?first=20', tokens.member)] },
          { label: 'floor', server: floor, requests: [get('/v2/posts?first=20', tokens.member)] },
        ],
      },
      {
        id: 'keyset-depth',
        title: 'REST keyset depth: GET /v2/posts?first=20, first page and 900 000 rows deep (1 000 000 posts)',
        floor: 'floor, first page',
        variants: [
          { label: 'generated, first page', server: generatedDeep, requests: [get('/v2/posts?first=20', tokens.deepMember)] },
          { label: 'generated, 900 000 rows deep', server: generatedDeep, requests: [get(`/v2/posts?first=20&after=${data.deepCursor}`, tokens.deepMember)] },
          { label: 'floor, first page', server: floorDeep, requests: [get('/v2/posts?first=20', tokens.deepMember)] },
          { label: 'floor, 900 000 rows deep', server: floorDeep, requests: [get(`/v2/posts?first=20&after=${data.deepCursor}`, tokens.deepMember)] },
        ],
      },
      {
        id: 'graphql-nested',
        title: 'GraphQL nested: users(first: 20) { org, posts(first: 10) connection }',
        floor: 'floor',
        variants: [
          { label: 'generated', server: generated, requests: [post(DOCUMENTS.nested, tokens.member)] },
          { label: 'generated, metrics on', server: generatedMetrics, requests: [post(DOCUMENTS.nested, tokens.member)] },
          { label: 'generated, tracing on', server: generatedTracing, requests: [post(DOCUMENTS.nested, tokens.member)] },
          { label: 'naive GraphQL (query per parent)', server: naive, requests: [post(DOCUMENTS.nested, tokens.member)] },
          { label: 'floor', server: floor, requests: [post(DOCUMENTS.nested, tokens.member)] },
        ],
      },
      {
        id: 'graphql-users',
        title: 'GraphQL users(first: 20) { id name } beside its REST twin GET /users?first=20',
        floor: 'floor, GraphQL',
        variants: [
          { label: 'generated, GraphQL', server: generated, requests: [post(DOCUMENTS.users, tokens.member)] },
          { label: 'generated, REST twin', server: generated, requests: [get('/users?first=20', tokens.member)] },
          { label: 'floor, GraphQL', server: floor, requests: [post(DOCUMENTS.users, tokens.member)] },
          { label: 'floor, REST', server: floor, requests: [get('/users?first=20', tokens.member)] },
        ],
      },
      {
        id: 'point-lookup',
        title: 'GraphQL user(id:) point lookup',
        floor: 'floor',
        variants: [
          { label: 'generated', server: generated, requests: [post(DOCUMENTS.user, tokens.member, { id: userId })] },
          { label: 'generated, metrics on', server: generatedMetrics, requests: [post(DOCUMENTS.user, tokens.member, { id: userId })] },
          { label: 'generated, tracing on', server: generatedTracing, requests: [post(DOCUMENTS.user, tokens.member, { id: userId })] },
          { label: 'naive GraphQL', server: naive, requests: [post(DOCUMENTS.user, tokens.member, { id: userId })] },
          { label: 'floor', server: floor, requests: [post(DOCUMENTS.user, tokens.member, { id: userId })] },
        ],
      },
      {
        id: 'write-mix',
        title: 'Write mix: 1 createUser per 4 users(first: 20) (admin)',
        floor: 'floor',
        variants: [
          { label: 'generated', server: generated, requests: [createUser('generated'), ...readsOfMix] },
          { label: 'naive GraphQL', server: naive, requests: [createUser('naive'), ...readsOfMix] },
          { label: 'floor', server: floor, requests: [createUser('floor'), ...readsOfMix] },
        ],
      },
    ];
    const reports: ScenarioReport[] = [];
    const only = process.env.BENCH_SCENARIOS?.split(',').map((id) => id.trim());
    for (const scenario of scenarios) if (!only || only.includes(scenario.id)) reports.push(await measureScenario(scenario));
    log(`  (the tracing variant exported ${sink.exports()} batches of spans)`);
    await sink.close();
    const loadedRss = rssMegabytes(generated.pid);

    for (const child of children) child.child.kill('SIGTERM');
    children.length = 0;

    // A focused run (BENCH_SCENARIOS) times its scenarios only.
    log('\nSQL statements per request (servers started in this process, queries counted)');
    const statements = only ? [] : await countStatements(data, tokens, userId);
    for (const row of statements) log(`  ${row.request.padEnd(30)} ${row.server.padEnd(16)} ${row.statements}`);

    log('\ngenerate (wall clock, process start included, every core)');
    unpinCores();
    const generator: GeneratorCase[] = only ? [] : measureGenerator(settings.generatorRuns, log);

    const report: Report = {
      date: new Date().toISOString().slice(0, 10),
      machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memoryGigabytes: Math.round(os.totalmem() / 2 ** 30), os: `${os.type()} ${os.release()}`, node: process.version },
      method: { ...settings, pinning: pin.note, quick },
      scenarios: reports,
      statements,
      generator,
      idleRssMegabytes: idleRss,
      idleRss: idle,
      loadedRssMegabytes: loadedRss,
      targets: [],
      seconds: Math.round((Date.now() - started) / 1000),
    };
    report.targets.push(...evaluateTargets(report));
    log('\ntargets');
    for (const target of report.targets) log(`  ${target.met ? 'met   ' : 'MISSED'} ${target.target}: ${target.measured}`);
    if (!process.argv.includes('--no-write') && !quick) {
      writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), renderMarkdown(report));
      writeFileSync(path.join(ROOT, 'bench/ratios.svg'), renderSvg(report));
      log('\nwrote BENCHMARKS.md and bench/ratios.svg');
    }
    log(`finished in ${report.seconds} s`);
  } finally {
    for (const child of children) child.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The targets against the measured figures. */
function evaluateTargets(report: Report): TargetRow[] {
  const variant = (scenario: string, label: string): VariantReport | undefined => report.scenarios.find((entry) => entry.id === scenario)?.variants.find((entry) => entry.label === label);
  const rate = (scenario: string, label: string): number => variant(scenario, label)?.requestsPerSecond ?? 0;
  const statementsOf = (request: string): number | undefined => report.statements.find((row) => row.request === request && row.server === 'generated')?.statements;
  const nested = rate('graphql-nested', 'generated') / (rate('graphql-nested', 'floor') || 1);
  const users = rate('graphql-users', 'generated, GraphQL') / (rate('graphql-users', 'generated, REST twin') || 1);
  const rest = rate('rest-list', 'generated') / (rate('rest-list', 'Express + Prisma (hand-written)') || 1);
  const depth = rate('keyset-depth', 'generated, first page') / (rate('keyset-depth', 'generated, 900 000 rows deep') || 1);
  const twenty = statementsOf('GraphQL nested, 20 parents');
  const hundred = statementsOf('GraphQL nested, 100 parents');
  const non2xx = report.scenarios.flatMap((scenario) => scenario.variants).reduce((sum, entry) => sum + entry.non2xx + entry.errors, 0);
  const generatorCase = (label: string): number => median(report.generator.find((entry) => entry.label.startsWith(label))?.runs ?? [Number.NaN]);
  // Observability's cost: the share of req/s a variant loses against the plain generated server.
  const cost = (scenario: string, label: string): number => 1 - rate(scenario, label) / (rate(scenario, 'generated') || 1);
  const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
  const observability: TargetRow[] = [];
  for (const [scenario, name] of [['graphql-nested', 'nested'], ['point-lookup', 'point lookup']] as const) {
    const metrics = cost(scenario, 'generated, metrics on');
    const tracing = cost(scenario, 'generated, tracing on');
    observability.push(
      { target: `metrics on cost ≤ 5% of req/s (${name})`, measured: percent(metrics), met: metrics <= 0.05 },
      { target: `tracing on (every span exported) cost ≤ 15% of req/s (${name})`, measured: percent(tracing), met: tracing <= 0.15 },
    );
  }
  const targets: TargetRow[] = [
    { target: 'nested GraphQL ≥ 0.4× the floor', measured: `${nested.toFixed(2)}×`, met: nested >= 0.4 },
    { target: 'GraphQL users list ≥ 0.6× its REST twin (stretch 0.9×)', measured: `${users.toFixed(2)}×${users >= 0.9 ? ' (stretch met)' : ''}`, met: users >= 0.6 },
    { target: 'generated REST list ≥ 0.9× hand-written Express + Prisma', measured: `${rest.toFixed(2)}×`, met: rest >= 0.9 },
    { target: 'SQL statements per nested request = 1 + relation levels (3) at 20 and 100 parents', measured: `${twenty} and ${hundred}`, met: twenty === 3 && hundred === 3 },
    { target: 'keyset page 900 000 rows deep ≤ 1.3× the first page (time per request)', measured: `${depth.toFixed(2)}×`, met: depth <= 1.3 },
  ];
  for (const entry of report.generator.filter((item) => item.label.startsWith('demo'))) {
    const value = median(entry.runs);
    targets.push({ target: `generate on the demo < 2 s (${entry.label.replace('demo, ', '')})`, measured: `${(value / 1000).toFixed(2)} s`, met: value < 2_000 });
  }
  const scale = generatorCase('300 entities');
  targets.push(
    { target: 'generate 300 entities < 20 s', measured: `${(scale / 1000).toFixed(1)} s`, met: scale < 20_000 },
    { target: 'idle server RSS < 120 MB', measured: `${report.idleRssMegabytes} MB (${report.loadedRssMegabytes} MB after the load)`, met: report.idleRssMegabytes < 120 },
    { target: '0 non-2xx (and 0 connection errors) in every timed run', measured: String(non2xx), met: non2xx === 0 },
    ...observability,
  );
  return targets;
}

await main();
