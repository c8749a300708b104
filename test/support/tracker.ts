/**
 * The suite's second application (test/golden/tracker/entities: workspaces, people, projects,
 * issues, comments; admin, member and guest roles), run as a user runs it: copied into a project of
 * its own beside this checkout's generator and runtime, generated, migrated and seeded by the CLI,
 * and served as a child process on a loopback port. Its vocabulary is not the demo's, so nothing of
 * the demo can hide in what it answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { mintToken } from '../../runtime/auth/authentication.js';
import { cli } from './cli.js';
import { createPostgresDatabase, testProvider } from './database.js';
import { ROOT, scratchDir, TEST_SECRET } from './project.js';

/** The tracker's roles (test/golden/tracker/entities/abilities.ts). */
export type TrackerRole = 'admin' | 'member' | 'guest';

/** What the tracker's `seed --json` wrote (its dev hooks). */
export interface TrackerSeed {
  readonly workspaces: readonly { id: string; name: string }[];
  readonly people: readonly { id: string; workspaceId: string; name: string; email: string; role: TrackerRole }[];
  readonly projects: readonly { id: string; workspaceId: string; archived: boolean }[];
  readonly issues: readonly { id: string; projectId: string; reporterId: string; assigneeId: string | null; state: string }[];
  readonly comments: readonly { id: string; issueId: string; writerId: string }[];
  readonly labels: readonly { id: string; workspaceId: string; name: string; internal: boolean }[];
  readonly issueLabels: readonly { issueId: string; labelId: string }[];
}

/** A GraphQL answer over HTTP: its status and its parsed body. */
interface GraphQLAnswer<T> {
  readonly status: number;
  readonly data?: T | null;
  readonly errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
}

/** A running tracker server. */
export interface TrackerServer {
  readonly url: string;
  readonly seeded: TrackerSeed;
  /** Every log line the server printed so far (parsed JSON). */
  readonly logs: Record<string, unknown>[];
  /** A token for the seeded person of `role` in workspace `space` (default the first). */
  token(role: TrackerRole, space?: number): Promise<string>;
  /** A token with any role claim (the generated-grants entry reads `grants-<n>`), as person `sub` of workspace `space`. */
  tokenAs(role: string, space?: number): Promise<string>;
  /** A request, with a bearer token when given; `requestId` is sent as `X-Request-Id`. */
  fetch(pathname: string, options?: RequestInit & { token?: string; requestId?: string }): Promise<Response>;
  /** POST /graphql; the status and the parsed body. */
  graphql<T = Record<string, unknown>>(
    query: string,
    options?: { token?: string; variables?: Record<string, unknown>; requestId?: string },
  ): Promise<GraphQLAnswer<T>>;
  /** The statements the request with `requestId` sent, from its access line. */
  statementsOf(requestId: string): number | undefined;
  stop(): Promise<void>;
}

let prepared: string | undefined;

/**
 * The tracker's project: a scratch folder with this checkout's runtime, generator and package.json,
 * the tracker's `entities/`, and `generated/` written by `generate` (its Prisma clients too). Made
 * once per test worker.
 */
function trackerProject(): string {
  if (prepared) return prepared;
  const dir = scratchDir('rs-tracker-');
  for (const name of ['generator', 'runtime', 'templates', 'package.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  cpSync(path.join(ROOT, 'test/golden/tracker/entities'), path.join(dir, 'entities'), { recursive: true });
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  cpSync(path.join(ROOT, 'test/fixtures/tracker-grants-server.ts'), path.join(dir, 'grants-server.ts'));
  const generated = cli(['generate'], { cwd: dir });
  if (generated.status !== 0) throw new Error(`generate failed in the tracker project:\n${generated.stdout}\n${generated.stderr}`);
  prepared = dir;
  return dir;
}

/** Options of {@link startTrackerServer}. */
export interface TrackerOptions {
  /** Serve with generated grants (test/fixtures/tracker-grants-server.ts): role `grants-<n>` is the n-th of these. */
  readonly grants?: readonly unknown[];
  readonly env?: Record<string, string>;
}

/** Starts the tracker on a fresh database of the run's provider, migrated and seeded by its CLI. */
export async function startTrackerServer(options: TrackerOptions = {}): Promise<TrackerServer> {
  const dir = trackerProject();
  const databaseUrl =
    testProvider() === 'postgresql' ? await createPostgresDatabase() : `file:${path.join(scratchDir('rs-tracker-db-'), 'tracker.db')}`;
  const env = { APP_DATABASE__URL: databaseUrl };
  const migrated = cli(['migrate', 'deploy'], { cwd: dir, env });
  if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}\n${migrated.stderr}`);
  const seededRun = cli(['seed', '--json'], { cwd: dir, env });
  if (seededRun.status !== 0) throw new Error(`seed failed:\n${seededRun.stdout}\n${seededRun.stderr}`);
  const seeded = JSON.parse(seededRun.stdout) as TrackerSeed;
  const entry = options.grants ? path.join(dir, 'grants-server.ts') : path.join(dir, 'generated/main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: dir,
    env: {
      ...process.env,
      ...env,
      APP_HTTP__PORT: '0',
      APP_HTTP__HOST: '127.0.0.1',
      APP_AUTH__SECRET: TEST_SECRET,
      APP_LOG__FORMAT: 'json',
      APP_LOG__LEVEL: 'info',
      ...(options.grants ? { TRACKER_GRANTS: JSON.stringify(options.grants) } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const url = await listening(child, logs);
  const person = (role: TrackerRole, space = 0): TrackerSeed['people'][number] => {
    const workspace = seeded.workspaces[space]?.id;
    const found = seeded.people.find((candidate) => candidate.role === role && candidate.workspaceId === workspace);
    if (!found) throw new Error(`no seeded ${role} in workspace ${space}`);
    return found;
  };
  const server: TrackerServer = {
    url,
    seeded,
    logs,
    token: (role, space) => {
      const who = person(role, space);
      return mintToken(TEST_SECRET, { sub: who.id, org_id: who.workspaceId, role });
    },
    tokenAs: (role, space) => {
      const who = person('member', space);
      return mintToken(TEST_SECRET, { sub: who.id, org_id: who.workspaceId, role });
    },
    fetch: (pathname, { token, requestId, headers, ...init } = {}) =>
      fetch(`${url}${pathname}`, {
        ...init,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(requestId ? { 'x-request-id': requestId } : {}),
          ...(headers as Record<string, string> | undefined),
        },
      }),
    graphql: async (query, { token, variables, requestId } = {}) => {
      const response = await server.fetch('/graphql', {
        method: 'POST',
        token,
        requestId,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    statementsOf: (requestId) => {
      const line = logs.find((entry) => entry.requestId === requestId && typeof entry.statements === 'number');
      return line?.statements as number | undefined;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  return server;
}

/** Resolves with the server's address once it logs `listening`; collects its log lines into `logs`. */
function listening(child: ChildProcess, logs: Record<string, unknown>[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the tracker did not start in time:\n${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (typeof entry.url === 'string' && String(entry.msg).startsWith('listening')) {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the tracker exited with ${String(code)}:\n${stderr}`));
    });
  });
}
