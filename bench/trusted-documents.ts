/**
 * What trusted documents save per request (BENCHMARKS.md "Trusted documents"; docs/behaviour.md
 * §4.10), measured as server CPU time rather than throughput alone: on a machine other work shares,
 * req/s moves with the neighbours, while the CPU time a server process spends per answered request
 * (utime + stime from /proc, over a timed run) moves much less. Each GraphQL scenario of the bench
 * (bench/scenarios.ts) runs against the compiled generated server sent texts and against the same
 * server with `APP_GRAPHQL__TRUSTED_DOCUMENTS=require` sent hashes (bench/persisted.ts), in rounds
 * that alternate which goes first, on one SQLite database of 10 orgs × 1 000 users × 10 posts.
 *
 * First, in this process, the preparation step alone for each document (no server, no I/O): a
 * text's parse, bounds and validation (what a document's first request costs, and every request of
 * a text the cache does not hold), a cached text's lookup, and a hash's lookup.
 *
 * `npm run bench:trusted-documents` after `npm run bench` has compiled `dist/`; BENCH_SECONDS
 * (per run, default 3) and BENCH_ROUNDS (default 3); `--preparation-only` stops after the first part.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSchema } from 'graphql';
import { mintToken } from '../runtime/auth/authentication.js';
import { DocumentCache } from '../runtime/graphql/execution.js';
import { PersistedDocuments } from '../runtime/graphql/persisted.js';
import { createBenchData } from './data.js';
import { pinCores } from './cores.js';
import { type LoadRequest, runLoad } from './load.js';
import { persistedBody } from './persisted.js';
import { DOCUMENTS, graphqlBody } from './scenarios.js';
import { spawnBenchServer, type SpawnedServer } from './spawn.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SECRET = 'benchmark-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;

/** CPU milliseconds `pid` has spent (user + system), from /proc (clock ticks of 10 ms). */
function cpuMilliseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Microseconds per call of `run`, the median of 5 batches of `calls`. */
function microseconds(run: () => unknown, calls: number): number {
  const batches: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const started = process.hrtime.bigint();
    for (let call = 0; call < calls; call++) run();
    batches.push(Number(process.hrtime.bigint() - started) / 1000 / calls);
  }
  return median(batches);
}

/** The preparation step alone, per document of bench/scenarios.ts: text parsed and validated, text cached, hash. */
function preparation(): string[] {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8'));
  const bounds = {
    maxTokens: 2_000,
    maxNesting: 64,
    maxOperations: 20,
    maxDirectives: 10,
    maxAliases: 30,
    maxFields: 1_000,
    introspection: false,
  };
  const cache = new DocumentCache(schema, bounds);
  const persisted = PersistedDocuments.load(pathToFileURL(path.join(ROOT, 'generated/graphql/documents.json')), 'require', cache);
  const lines = [
    '| document | text: parse, bounds, validation µs | text body: JSON + cached document µs | hash body: JSON + document µs |',
    '|---|---:|---:|---:|',
  ];
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    if (name === 'nested100') continue;
    // Each request's body is a new string: read it as the server does, so the cache hashes a fresh text.
    const textBody = graphqlBody(text);
    const hashBody = persistedBody(text);
    cache.prepare(text);
    const cold = microseconds(() => cache.check(text), 2_000);
    const warm = microseconds(() => cache.prepare((JSON.parse(textBody) as { query: string }).query), 100_000);
    const byHash = microseconds(
      () => persisted.documentOf(JSON.parse(hashBody) as { documentId: string }, (query) => cache.prepare(query)),
      100_000,
    );
    lines.push(`| ${name} | ${cold.toFixed(0)} | ${warm.toFixed(2)} | ${byHash.toFixed(2)} |`);
  }
  return lines;
}

async function main(): Promise<void> {
  const prepared = preparation();
  process.stdout.write(`${prepared.join('\n')}\n\n`);
  if (process.argv.includes('--preparation-only')) return;
  const pin = pinCores();
  process.stdout.write(`trusted documents: CPU per request, ${ROUNDS} rounds of ${SECONDS} s — ${pin.note}\n`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-trusted-'));
  const data = await createBenchData('sqlite', { dir }, { deep: false });
  const token = (user: { id: string; orgId: string; role: string }): Promise<string> =>
    mintToken(SECRET, { sub: user.id, org_id: user.orgId, role: user.role }, '2h');
  const member = await token(data.main.member);
  const admin = await token(data.main.admin);
  const servers: Record<'text' | 'hash', SpawnedServer> = {
    text: await spawnBenchServer('generated', { root: ROOT, databaseUrl: data.main.url, secret: SECRET, pin: pin.prefix }),
    hash: await spawnBenchServer('generated-trusted-documents', {
      root: ROOT,
      databaseUrl: data.main.url,
      secret: SECRET,
      pin: pin.prefix,
    }),
  };
  let written = 0;
  const request = (kind: 'text' | 'hash', query: string, bearer: string, variables?: Record<string, unknown>): LoadRequest => ({
    method: 'POST',
    path: '/graphql',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: kind === 'text' ? graphqlBody(query, variables) : persistedBody(query, variables),
  });
  const scenarios: { title: string; requests: (kind: 'text' | 'hash') => LoadRequest[] }[] = [
    { title: 'GraphQL nested', requests: (kind) => [request(kind, DOCUMENTS.nested, member)] },
    { title: 'GraphQL users(first: 20) { id name }', requests: (kind) => [request(kind, DOCUMENTS.users, member)] },
    { title: 'GraphQL user(id:) point lookup', requests: (kind) => [request(kind, DOCUMENTS.user, member, { id: data.main.member.id })] },
    {
      title: 'Write mix: 1 createUser per 4 users(first: 20)',
      requests: (kind) => [
        {
          method: 'POST',
          path: '/graphql',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          makeBody: () => {
            const variables = { input: { name: `Trusted writer ${written}`, email: `trusted-${kind}-${written++}@bench.example` } };
            return kind === 'text' ? graphqlBody(DOCUMENTS.createUser, variables) : persistedBody(DOCUMENTS.createUser, variables);
          },
        },
        ...Array.from({ length: 4 }, () => request(kind, DOCUMENTS.users, admin)),
      ],
    },
  ];
  const lines = [
    '| scenario | text, req/s | by hash, req/s | text, CPU µs per request | by hash, CPU µs per request | CPU change |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  try {
    for (const scenario of scenarios) {
      const figures = { text: { rates: [] as number[], cpu: [] as number[] }, hash: { rates: [] as number[], cpu: [] as number[] } };
      // Both answer the same before anything is timed.
      const answers = await Promise.all(
        (['text', 'hash'] as const).map(async (kind) => {
          const first = scenario.requests(kind).at(-1);
          const response = await fetch(`${servers[kind].url}/graphql`, {
            method: 'POST',
            headers: first?.headers,
            body: first?.body ?? null,
          });
          const { data: answered, errors } = (await response.json()) as { data?: unknown; errors?: unknown };
          return JSON.stringify({ status: response.status, answered, errors });
        }),
      );
      if (answers[0] !== answers[1]) throw new Error(`${scenario.title}: text and hash answer differently:\n${answers.join('\n')}`);
      for (const kind of ['text', 'hash'] as const) await runLoad(servers[kind].url, scenario.requests(kind), 1, CONNECTIONS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const kind of round % 2 === 0 ? (['text', 'hash'] as const) : (['hash', 'text'] as const)) {
          const before = cpuMilliseconds(servers[kind].pid);
          const result = await runLoad(servers[kind].url, scenario.requests(kind), SECONDS, CONNECTIONS);
          const spent = cpuMilliseconds(servers[kind].pid) - before;
          if (result.non2xx > 0 || result.errors > 0)
            throw new Error(`${scenario.title} (${kind}): ${result.non2xx} non-2xx, ${result.errors} errors`);
          figures[kind].rates.push(result.requestsPerSecond);
          figures[kind].cpu.push((spent * 1000) / Math.max(1, result.requests));
        }
      }
      const text = { rate: median(figures.text.rates), cpu: median(figures.text.cpu) };
      const hash = { rate: median(figures.hash.rates), cpu: median(figures.hash.cpu) };
      const change = ((hash.cpu / text.cpu - 1) * 100).toFixed(1);
      const line = `| ${scenario.title} | ${Math.round(text.rate)} | ${Math.round(hash.rate)} | ${Math.round(text.cpu)} (${figures.text.cpu.map(Math.round).join(', ')}) | ${Math.round(hash.cpu)} (${figures.hash.cpu.map(Math.round).join(', ')}) | ${Number(change) > 0 ? '+' : ''}${change}% |`;
      lines.push(line);
      process.stdout.write(`${line}\n`);
    }
  } finally {
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

await main();
