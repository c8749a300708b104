/**
 * The memory-pressure mix (docs/hostile-input.md §13–§16; `npm run soak:memory`): the five ways a
 * client made the server hold memory without bound, each run for a few seconds against the compiled
 * server of a checkout (`--root`, default this one; built first with `npm run build`, started as
 * `npm start` does; `--source` runs its TypeScript under tsx instead) under `NODE_ENV=production`
 * on a seeded SQLite file, once the server has answered one query and one mutation, while
 * `/health` is probed every 50 ms and the server's resident memory sampled from /proc:
 *
 * 1. subscription fan-out: paused sockets of one caller, each with heavy subscriptions (an event of
 *    about 1 MB), and one publish;
 * 2. pipelining: sockets writing thousands of pipelined `GET /api-json` and reading nothing;
 * 3. MCP batches: concurrent batches of 100 `tools/call` of a page of 100 posts;
 * 4. slow readers: connections asking for a large GraphQL answer and never reading it;
 * 5. bytes: a short query whose answer is tens of megabytes, again and again.
 *
 * Prints, per class, the peak resident memory above idle, `/health`'s p99 and failures, its three
 * slowest probes with when they started (to tell a class's setup from the work that follows), and
 * whether the process survived; with `--json`, the figures as JSON. Run it against an older
 * checkout (`--root`) for the figures before a change.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import WebSocket from 'ws';
import { mintToken } from '../runtime/auth/authentication.js';
import { createTestDatabase, runSql, seedDatabase } from '../test/support/database.js';
import { compiledEnvironment } from '../bench/spawn.js';
import { freePort } from '../test/support/postgres.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'memory-pressure-secret-0123456789-0123456789';
const HEAVY = '{ users(first: 20) { id posts(first: 100) { edges { node { body } } } } }';

/** The figures of one class. */
interface ClassFigures {
  readonly name: string;
  /** Peak resident memory above the idle server's, in MB. */
  readonly peakMb: number;
  /** `/health`'s 99th percentile while the class ran, in ms (a timed-out probe counts as its timeout). */
  readonly healthP99: number;
  /** Probes that failed or timed out (2 s). */
  readonly healthFailures: number;
  /** The three slowest probes: when each started, in ms after the class began, and how long it took. */
  readonly slowestProbes: readonly { readonly atMs: number; readonly ms: number }[];
  readonly survived: boolean;
}

/**
 * The server process of `root`, on `databaseUrl`; resolves once it listens. Compiled (what
 * `npm start` runs: `dist/generated/main.js`, built by {@link build}) unless `source`, which runs
 * the TypeScript entry point under tsx as `serve` does.
 */
async function startServer(root: string, databaseUrl: string, source: boolean): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    APP_DATABASE__URL: databaseUrl,
    APP_HTTP__PORT: String(port),
    APP_HTTP__HOST: '127.0.0.1',
    APP_AUTH__SECRET: SECRET,
    APP_LOG__LEVEL: 'error',
    APP_LOG__FORMAT: 'json',
  };
  const args = source ? ['--import', 'tsx', path.join(root, 'generated/main.ts')] : [path.join(root, 'dist/generated/main.js')];
  // From sources the checkout resolves its package name to its sources; compiled, to its build.
  const childEnv = source
    ? { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --conditions=resource-service-source`.trim() }
    : compiledEnvironment(env);
  const child = spawn(process.execPath, args, { cwd: root, env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${String(port)}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      // not yet
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the server of ${root} did not start`);
}

/** The resident memory of `pid` in MB (0 once it is gone). */
function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Runs `attack` for about `seconds`, probing /health and sampling memory; the class's figures. */
async function measure(
  name: string,
  server: { child: ChildProcess; url: string },
  seconds: number,
  attack: (until: number) => Promise<void>,
): Promise<ClassFigures> {
  const idle = rssMb(server.child.pid);
  let peak = idle;
  const times: number[] = [];
  const probes: { atMs: number; ms: number }[] = [];
  let failures = 0;
  const began = performance.now();
  const until = Date.now() + seconds * 1000;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid))), 50);
  const probing = (async () => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const response = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2_000) });
        if (!response.ok) failures++;
        times.push(performance.now() - started);
      } catch {
        failures++;
        times.push(2_000);
      }
      probes.push({ atMs: Math.round(started - began), ms: Math.round(times.at(-1) ?? 0) });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await Promise.all([attack(until).catch(() => undefined), probing]);
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const sorted = [...times].sort((a, b) => a - b);
  return {
    name,
    peakMb: Math.round(peak - idle),
    healthP99: Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0),
    healthFailures: failures,
    slowestProbes: [...probes].sort((a, b) => b.ms - a.ms).slice(0, 3),
    survived: server.child.exitCode === null && server.child.signalCode === null,
  };
}

/** A raw connection writing `request` `times` times, reading nothing; closed at `until`. */
function silentFlood(url: string, request: string, times: number, until: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname, () => {
      socket.pause();
      socket.write(request.repeat(times));
    });
    socket.on('error', () => undefined);
    setTimeout(
      () => {
        socket.destroy();
        resolve();
      },
      Math.max(0, until - Date.now()),
    );
  });
}

/** A graphql-ws socket of `token` with `subscriptions` heavy subscriptions, paused; closed at `until`. */
async function pausedSubscriber(url: string, token: string, subscriptions: number, until: number): Promise<void> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws']);
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }));
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let index = 0; index < subscriptions; index++) {
    socket.send(
      JSON.stringify({
        id: String(index),
        type: 'subscribe',
        payload: { query: 'subscription { postPublished { author { posts(first: 100) { edges { node { body } } } } } }' },
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  (socket as unknown as { _socket?: Socket })._socket?.pause();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
  socket.terminate();
}

/**
 * One query and one mutation answered before a class begins, so that its figures are the class's
 * and not those of the server's first request of each kind (modules loaded and compiled lazily).
 */
async function warm(url: string, token: string, draftId: string): Promise<void> {
  const post = (query: string, variables?: Record<string, unknown>): Promise<unknown> =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    }).then((response) => response.arrayBuffer());
  await post('{ users(first: 1) { id posts(first: 1) { edges { node { id } } } } }');
  await post('mutation ($id: ID!) { publishPost(id: $id) { id } }', { id: draftId });
}

/** Builds the compiled server of `root` (`npm run build`); throws with its output when that fails. */
function build(root: string): void {
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', env: compiledEnvironment(process.env) });
  if (built.status !== 0) throw new Error(`npm run build failed in ${root}:\n${built.stdout}${built.stderr}`);
}

/** The five classes against the server of `root` (module docstring). */
async function run(root: string, seconds: number, fromSource: boolean): Promise<ClassFigures[]> {
  if (!fromSource) build(root);
  const source = await createTestDatabase('sqlite');
  const seeded = await seedDatabase(source, { orgs: 1, users: 20, posts: 100 });
  await runSql(source, `UPDATE "Post" SET "body" = '${'b'.repeat(7_000)}', "status" = 'published'`);
  const admin = seeded.users.find((user) => user.role === 'admin');
  if (!admin) throw new Error('no admin seeded');
  const token = await mintToken(SECRET, { sub: admin.id, org_id: admin.orgId, role: 'admin' });
  await runSql(
    source,
    `UPDATE "Post" SET "status" = 'draft' WHERE "id" IN (SELECT "id" FROM "Post" WHERE "authorId" = '${admin.id}' ORDER BY "id" LIMIT 5)`,
  );
  const draftIds = (await runSql(source, `SELECT "id" FROM "Post" WHERE "status" = 'draft' AND "authorId" = '${admin.id}'`)).map((row) =>
    String(row.id),
  );
  // Everything in the file itself, for the copies below.
  await runSql(source, 'PRAGMA wal_checkpoint(TRUNCATE)');
  const figures: ClassFigures[] = [];
  const classes: [string, (server: { url: string }, until: number) => Promise<void>][] = [
    [
      '1 subscription fan-out (20 paused sockets × 100 heavy subscriptions, one publish)',
      async (server, until) => {
        const subscribers = Array.from({ length: 20 }, () => pausedSubscriber(server.url, token, 100, until));
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const id = draftIds[0] ?? '';
        await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: 'mutation ($id: ID!) { publishPost(id: $id) { id } }', variables: { id } }),
        }).catch(() => undefined);
        await Promise.all(subscribers);
      },
    ],
    [
      '2 pipelining (16 sockets × 3 000 pipelined GET /api-json, never read)',
      (server, until) =>
        Promise.all(
          Array.from({ length: 16 }, () => silentFlood(server.url, 'GET /api-json HTTP/1.1\r\nHost: localhost\r\n\r\n', 3_000, until)),
        ).then(() => undefined),
    ],
    [
      '3 MCP batches (16 concurrent batches of 100 tools/call)',
      async (server, until) => {
        const headers = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        };
        const opened = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
          }),
        });
        const session = opened.headers.get('mcp-session-id') ?? '';
        await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: { ...headers, 'mcp-session-id': session },
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        });
        const batch = JSON.stringify(
          Array.from({ length: 100 }, (_, index) => ({
            jsonrpc: '2.0',
            id: index + 2,
            method: 'tools/call',
            params: { name: 'posts', arguments: { first: 100 } },
          })),
        );
        while (Date.now() < until) {
          await Promise.all(
            Array.from({ length: 16 }, async () =>
              (
                await fetch(`${server.url}/mcp`, {
                  method: 'POST',
                  headers: { ...headers, 'mcp-session-id': session },
                  body: batch,
                  signal: AbortSignal.timeout(20_000),
                })
              )
                .arrayBuffer()
                .catch(() => undefined),
            ).map((call) => call.catch(() => undefined)),
          );
        }
      },
    ],
    [
      '4 slow readers (10 connections, a large answer never read)',
      (server, until) => {
        const body = JSON.stringify({ query: HEAVY });
        const request = `POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\n\r\n${body}`;
        return Promise.all(Array.from({ length: 10 }, () => silentFlood(server.url, request, 1, until))).then(() => undefined);
      },
    ],
    [
      '5 bytes (a short query answered with tens of MB, again and again)',
      async (server, until) => {
        while (Date.now() < until) {
          await fetch(`${server.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: HEAVY }),
            signal: AbortSignal.timeout(20_000),
          })
            .then((response) => response.arrayBuffer())
            .catch(() => undefined);
        }
      },
    ],
  ];
  for (const [name, attack] of classes) {
    // A fresh server and database per class: one class's leftovers do not count against the next.
    const copy = source.replace(/\.db$/, `-${String(figures.length)}.db`);
    copyFileSync(source.replace(/^file:/, ''), copy.replace(/^file:/, ''));
    const server = await startServer(root, copy, fromSource);
    try {
      await warm(server.url, token, draftIds[1] ?? '');
      figures.push(await measure(name, server, seconds, (until) => attack(server, until)));
    } finally {
      server.child.kill('SIGKILL');
    }
  }
  return figures;
}

const program = new Command('memory-pressure')
  .option('--root <dir>', 'the checkout whose server is measured', ROOT)
  .option('--seconds <n>', 'seconds per class', '8')
  .option('--source', 'run the TypeScript entry point under tsx (as `serve` does) instead of the compiled server')
  .option('--json', 'print the figures as JSON')
  .action(async (options: { root: string; seconds: string; source?: boolean; json?: boolean }) => {
    const figures = await run(path.resolve(options.root), Number(options.seconds), options.source === true);
    if (options.json === true) {
      process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
    } else {
      for (const figure of figures)
        process.stdout.write(
          `${figure.name}: peak +${String(figure.peakMb)} MB, /health p99 ${String(figure.healthP99)} ms, ${String(figure.healthFailures)} failed probes, slowest ${figure.slowestProbes.map((probe) => `${String(probe.ms)} ms at +${String(probe.atMs)} ms`).join(', ')}, ${figure.survived ? 'survived' : 'DIED'}\n`,
        );
    }
    process.exit(0);
  });
await program.parseAsync(process.argv);
