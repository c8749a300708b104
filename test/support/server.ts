/**
 * A generated server running as a child process on a loopback port, the way a deployment runs
 * it (`node dist/generated/main.js`, compiled once per run by test/support/compiled-server.ts;
 * through tsx outside `npm test`), with clients for REST and GraphQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mintToken } from '../../runtime/auth/authentication.js';
import type { TransportFactory } from '../../runtime/transports/index.js';
import type { SeededUser, SeedResult } from '../../entities/seed.js';
import { compiledServer } from './compiled-server.js';
import { createTestDatabase, type SeedSizes, seedDatabase } from './database.js';
import { ROOT, TEST_SECRET } from './project.js';

/** Roles the demo grants. */
export type Role = 'admin' | 'member' | 'viewer';

/** A JSON GraphQL response. */
interface GraphQLResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly data?: T | null;
  readonly errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  readonly extensions?: Record<string, unknown>;
}

/** A running test server. */
export interface TestServer {
  readonly url: string;
  readonly databaseUrl: string;
  readonly seeded: SeedResult;
  /** Every log line the server printed so far (parsed JSON). */
  readonly logs: Record<string, unknown>[];
  /** A token for the seeded user of `role` in org `orgIndex` (default the first org). */
  token(role: Role, orgIndex?: number): Promise<string>;
  /** A token for a specific seeded user. */
  tokenFor(user: SeededUser): Promise<string>;
  /** The seeded user of `role` in org `orgIndex`. */
  user(role: Role, orgIndex?: number): SeededUser;
  /** POST /graphql. */
  graphql<T = Record<string, unknown>>(
    query: string,
    options?: { variables?: Record<string, unknown>; token?: string; operationName?: string },
  ): Promise<GraphQLResponse<T>>;
  /** A request to the server, with a bearer token when given. */
  fetch(pathname: string, options?: RequestInit & { token?: string }): Promise<Response>;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends `signal` to the server process (the cluster primary when there are workers). */
  kill(signal: NodeJS.Signals): void;
  /** Settles when the server process exits, with its exit code (or the signal that ended it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** The server process's resident memory now, in bytes (Linux: /proc). */
  rss(): number;
}

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  readonly seed?: SeedSizes;
  readonly env?: Record<string, string>;
  /** Use this database instead of a fresh one (seeded only when `seed` is given). */
  readonly databaseUrl?: string;
  /** Changes the seeded database before the server starts. */
  readonly prepare?: (databaseUrl: string, seeded: SeedResult) => Promise<void>;
  /** A TypeScript entry point to run through tsx instead, relative to the repository (default: the compiled `generated/main.ts`). */
  readonly entry?: string;
}

/** Starts the generated server on a fresh seeded SQLite file. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const seeded =
    options.databaseUrl && !options.seed
      ? { orgs: [], users: [], posts: [] }
      : await seedDatabase(databaseUrl, options.seed ?? { orgs: 2, users: 3, posts: 2 });
  await options.prepare?.(databaseUrl, seeded);
  const env = {
    ...process.env,
    APP_DATABASE__URL: databaseUrl,
    APP_HTTP__PORT: '0',
    APP_HTTP__HOST: '127.0.0.1',
    APP_AUTH__SECRET: TEST_SECRET,
    APP_LOG__FORMAT: 'json',
    APP_LOG__LEVEL: 'info',
    ...options.env,
  };
  const compiled = options.entry === undefined ? compiledServer() : undefined;
  const command = compiled ? [compiled] : ['--import', 'tsx', path.join(ROOT, options.entry ?? 'generated/main.ts')];
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // With several workers the primary says `listening on …` (with `workers`) once all of them listen.
  const url = await waitForListening(child, logs, Number(options.env?.APP_HTTP__WORKERS ?? process.env.APP_HTTP__WORKERS ?? '1') > 1);
  const user = (role: Role, orgIndex = 0): SeededUser => {
    const org = seeded.orgs[orgIndex];
    const found = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === org?.id);
    if (!found) throw new Error(`no seeded ${role} in org ${orgIndex}`);
    return found;
  };
  const tokenFor = (seededUser: SeededUser): Promise<string> =>
    mintToken(TEST_SECRET, { sub: seededUser.id, org_id: seededUser.orgId, role: seededUser.role });
  const server: TestServer = {
    url,
    databaseUrl,
    seeded,
    logs,
    user,
    tokenFor,
    token: (role, orgIndex) => tokenFor(user(role, orgIndex)),
    fetch: (pathname, { token, headers, ...init } = {}) =>
      fetch(`${url}${pathname}`, {
        ...init,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
      }),
    graphql: async (query, { variables, token, operationName } = {}) => {
      const response = await server.fetch('/graphql', {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables, operationName }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    stop: () => stopChild(child),
    kill: (signal) => child.kill(signal),
    exited,
    stderr: () => stderr,
    rss: () => residentBytes(child.pid),
  };
  return server;
}

/** The resident memory of process `pid` in bytes, from /proc (0 when it cannot be read). */
function residentBytes(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function waitForListening(child: ChildProcess, logs: Record<string, unknown>[], clustered: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${stderr}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (
            typeof entry.url === 'string' &&
            String(entry.msg).startsWith('listening') &&
            (!clustered || typeof entry.workers === 'number')
          ) {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // not a log line
        }
        newline = buffer.indexOf('\n');
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A server started inside the test process: same HTTP, plus statement counts and log capture. */
export interface InProcessServer {
  readonly url: string;
  readonly databaseUrl: string;
  readonly seeded: SeedResult;
  /** Log entries written so far (parsed JSON). */
  readonly logs: Record<string, unknown>[];
  /** SQL statements sent so far. */
  readonly statements: string[];
  /** Where `/metrics` is served on a port of its own, when it is (docs/behaviour.md §12.2). */
  readonly metricsUrl: string | undefined;
  token(role: Role, orgIndex?: number): Promise<string>;
  graphql<T = Record<string, unknown>>(
    query: string,
    /** `requestId` is sent as `X-Request-Id`, so the request's access line can be found by it. */
    options?: { variables?: Record<string, unknown>; token?: string; requestId?: string },
  ): Promise<GraphQLResponse<T>>;
  stop(): Promise<void>;
}

/**
 * Starts `definition` (default: the generated application) in this process on a fresh seeded
 * SQLite file. `adjust` may alter the definition, as a different declaration would.
 */
export async function startInProcessServer(
  options: TestServerOptions & {
    adjust?: (definition: typeof import('../../generated/app.js').application) => typeof import('../../generated/app.js').application;
  } = {},
): Promise<InProcessServer> {
  const { application } = await import('../../generated/app.js');
  const { startServer } = await import('../../runtime/server/server.js');
  const { createLogger } = await import('../../runtime/server/logger.js');
  const { Writable } = await import('node:stream');
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const seeded =
    options.databaseUrl && !options.seed
      ? { orgs: [], users: [], posts: [] }
      : await seedDatabase(databaseUrl, options.seed ?? { orgs: 2, users: 3, posts: 2 });
  await options.prepare?.(databaseUrl, seeded);
  const logs: Record<string, unknown>[] = [];
  const statements: string[] = [];
  const logger = createLogger(
    { level: options.env?.APP_LOG__LEVEL ?? 'info', format: 'json' },
    new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const definition = options.adjust ? options.adjust(application) : application;
  const server = await startServer(definition, {
    env: {
      APP_DATABASE__URL: databaseUrl,
      APP_HTTP__PORT: '0',
      APP_HTTP__HOST: '127.0.0.1',
      APP_AUTH__SECRET: TEST_SECRET,
      ...options.env,
    },
    logger,
    onQuery: (sql) => statements.push(sql),
  });
  const user = (role: Role, orgIndex = 0): SeededUser => {
    const found = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === seeded.orgs[orgIndex]?.id);
    if (!found) throw new Error(`no seeded ${role} in org ${orgIndex}`);
    return found;
  };
  return {
    url: server.url,
    databaseUrl,
    seeded,
    logs,
    statements,
    metricsUrl: server.metricsUrl,
    token: (role, orgIndex) => {
      const found = user(role, orgIndex);
      return mintToken(TEST_SECRET, { sub: found.id, org_id: found.orgId, role: found.role });
    },
    graphql: async (query, { variables, token, requestId } = {}) => {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(requestId ? { 'x-request-id': requestId } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    stop: () => server.close(),
  };
}

/**
 * `transports` with the one named like `replacement` (its `transportName`) replaced by it: a test
 * serving an application's transport from other inputs (routes, gateways) keeps every other one.
 * Throws when the application has no transport of that name.
 */
export function withTransport<Container>(
  transports: readonly TransportFactory<Container>[],
  replacement: TransportFactory<Container>,
): TransportFactory<Container>[] {
  const index = transports.findIndex((factory) => factory.transportName === replacement.transportName);
  if (index < 0) throw new Error(`the application has no ${replacement.transportName} transport`);
  return transports.map((factory, at) => (at === index ? replacement : factory));
}
