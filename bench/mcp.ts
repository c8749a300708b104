/**
 * bench/mcp (docs/behaviour.md §4.6; figures in BENCHMARKS.md, "MCP"): the latency of one MCP tool
 * call beside the same operation over GraphQL, sequential, against the generated server running as
 * `generated/main.ts` runs in a deployment (a child process on loopback, SQLite).
 *
 * The operation is "list posts", 20 per page, as a member: the MCP tool `posts` and the GraphQL
 * query `posts(first: 20)` selecting every field the tool returns. Three clients: GraphQL over
 * `fetch`, MCP JSON-RPC over `fetch` after one `initialize` (the wire alone), and the SDK's own
 * `Client` (what an agent pays, its validation included). The host keeps no sessions
 * (docs/decisions.md §15): each call is answered by an SDK server built for it, which these figures
 * include (the raw client still sends back a session id when a host gives one, as the protocol asks
 * of clients, so the same bench times a host that keeps sessions). Each runs 50 warm-up calls, then
 * `--calls` (default 500) timed ones; median, p95 and p99 in milliseconds, and the server process's
 * CPU time per call (user and system, from `/proc`), which holds better than latency when other
 * work shares the cores. Then, in this process, the CPU time of building, connecting and closing
 * the SDK server and transport one request gets, with a JSON Schema validator of its own (the
 * SDK's default) and sharing one, as the host does. Not a test: numbers vary by machine.
 *
 * Run: npm run bench:mcp [-- --calls 1000]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { seed } from '../entities/seed.js';
import { createDatabase } from '../generated/database.js';
import { mintToken } from '../runtime/auth/authentication.js';
import { runUnscoped } from '../runtime/auth/context.js';
import { createAdapterFactory } from '../runtime/data/database.js';
import { applyMigrations } from '../runtime/data/migrations.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const WARM_UP = 50;
/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100;
/** Request servers built to time one (a few microseconds each: many, for a steady figure). */
const SERVERS_BUILT = 5_000;
const calls = Number(process.argv[process.argv.indexOf('--calls') + 1] ?? '') || 500;

/** Starts the generated server on a free port; resolves with its URL once it listens. */
function startServer(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'generated/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      APP_DATABASE__URL: databaseUrl,
      APP_HTTP__PORT: '0',
      APP_HTTP__HOST: '127.0.0.1',
      APP_AUTH__SECRET: SECRET,
      APP_LOG__FORMAT: 'json',
      APP_LOG__LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg?.startsWith('listening') && entry.url) resolve({ url: entry.url, child });
        } catch {
          // not a whole log line yet
        }
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** Milliseconds of each of `count` sequential runs of `call`, after the warm-up. */
async function time(call: () => Promise<void>, count: number): Promise<number[]> {
  for (let index = 0; index < WARM_UP; index++) await call();
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** CPU time process `pid` has used so far, in milliseconds (user and system, Linux `/proc`). */
function cpuMilliseconds(pid: number | undefined): number {
  // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU microseconds to build, connect and close the SDK server and transport of one stateless MCP
 * request, as runtime/transports/mcp/index.ts builds them, `count` times after the warm-up: with
 * the validator the SDK makes for each server, and with one shared by every server.
 */
async function serverPerRequest(count: number): Promise<{ own: number; shared: number }> {
  const capabilities = { tools: { listChanged: false } };
  const build = async (options: ServerOptions): Promise<void> => {
    const server = new McpServer({ name: 'bench', version: '1' }, options);
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    server.server.setRequestHandler(CallToolRequestSchema, () => ({ content: [] }));
    await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
    await server.close();
  };
  const measure = async (options: ServerOptions): Promise<number> => {
    for (let index = 0; index < WARM_UP; index++) await build(options);
    const before = process.cpuUsage();
    for (let index = 0; index < count; index++) await build(options);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  };
  return {
    own: await measure({ capabilities }),
    shared: await measure({ capabilities, jsonSchemaValidator: new AjvJsonSchemaValidator() }),
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-'));
  const url = `file:${path.join(dir, 'bench.db')}`;
  await applyMigrations(
    readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8'),
    path.join(ROOT, 'generated/prisma/sqlite/migrations'),
    await createAdapterFactory(url),
  );
  const database = await createDatabase(await createAdapterFactory(url));
  const seeded = await runUnscoped(() => seed(database, { orgs: 2, users: 20, posts: 5 }));
  await database.$disconnect();
  const member = seeded.users.find((user) => user.role === 'member');
  if (!member) throw new Error('no member seeded');
  const token = await mintToken(SECRET, { sub: member.id, org_id: member.orgId, role: member.role });
  const { url: base, child } = await startServer(url);
  try {
    const auth = { authorization: `Bearer ${token}` };

    const query = JSON.stringify({
      query: '{ posts(first: 20) { id orgId authorId reviewerId title body status publishedAt createdAt } }',
    });
    const graphql = async (): Promise<void> => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
        body: query,
      });
      const body = (await response.json()) as { data?: { posts?: unknown[] } };
      if (body.data?.posts?.length !== 20) throw new Error('unexpected GraphQL answer');
    };

    const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const opened = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    });
    await opened.text();
    const given = opened.headers.get('mcp-session-id');
    const negotiated = {
      ...mcpHeaders,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      ...(given === null ? {} : { 'mcp-session-id': given }),
    };
    await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: negotiated,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const callBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'posts', arguments: { first: 20 } } });
    const rawMcp = async (): Promise<void> => {
      const response = await fetch(`${base}/mcp`, { method: 'POST', headers: negotiated, body: callBody });
      const body = (await response.json()) as { result?: { structuredContent?: { items?: unknown[] } } };
      if (body.result?.structuredContent?.items?.length !== 20) throw new Error('unexpected MCP answer');
    };

    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }));
    const sdkMcp = async (): Promise<void> => {
      const result = await client.callTool({ name: 'posts', arguments: { first: 20 } });
      if ((result.structuredContent as { items?: unknown[] } | undefined)?.items?.length !== 20) throw new Error('unexpected MCP answer');
    };

    const rows: string[] = [];
    for (const [label, call] of [
      ['GraphQL `posts(first: 20)` (fetch)', graphql],
      ['MCP tool `posts` (JSON-RPC over fetch)', rawMcp],
      ['MCP tool `posts` (SDK Client)', sdkMcp],
    ] as const) {
      const cpuBefore = cpuMilliseconds(child.pid);
      const samples = (await time(call, calls)).sort((a, b) => a - b);
      const cpu = (cpuMilliseconds(child.pid) - cpuBefore) / (calls + WARM_UP);
      rows.push(
        `| ${label} | ${percentile(samples, 0.5).toFixed(2)} | ${percentile(samples, 0.95).toFixed(2)} | ${percentile(samples, 0.99).toFixed(2)} | ${cpu.toFixed(3)} |`,
      );
    }
    await client.close();
    const perRequest = await serverPerRequest(SERVERS_BUILT);
    process.stdout.write(
      `\nNode ${process.version}, SQLite, server in a child process on loopback, ${calls} sequential calls after ${WARM_UP} warm-up, a member listing 20 posts\n\n` +
        `| client | median ms | p95 ms | p99 ms | server CPU ms per call |\n| --- | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n\n` +
        `One request's SDK server and transport, built, connected and closed ${SERVERS_BUILT} times in this process: ` +
        `${perRequest.own.toFixed(1)} µs CPU each with a JSON Schema validator of its own, ${perRequest.shared.toFixed(1)} µs sharing one\n`,
    );
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
