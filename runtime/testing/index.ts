/**
 * `resource-service/testing`: what an application's own tests start its generated server with
 * (docs/behaviour.md §13.2), as @nestjs/testing does for a NestJS application — but from outside,
 * the way callers reach it: the server runs in a child process through the package's command
 * (`migrate deploy`, then `serve`), on a free loopback port, with a throwaway SQLite database and a
 * token secret of its own, and the helpers talk to it over real HTTP.
 *
 * ```ts
 * import { startTestServer } from 'resource-service/testing';
 *
 * const server = await startTestServer();          // generated/ of the working directory
 * const token = await server.token({ sub, org_id, role: 'member' });
 * const response = await server.fetch('/notes', { token });
 * await server.close();
 * ```
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken, type TokenClaims } from '../auth/authentication.js';
import { embeddedDatabaseUrl } from '../dialects/index.js';

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** The application's root folder, holding `generated/` (default: the working directory). */
  readonly root?: string;
  /**
   * A database to serve instead of a throwaway SQLite file (a PostgreSQL URL, say): it is migrated
   * before the server starts and never dropped.
   */
  readonly databaseUrl?: string;
  /** Run the application's seed hook (`entities/dev.ts`) once the database is migrated (default false). */
  readonly seed?: boolean;
  /** More `APP_*` settings for the server (they win over the helper's own). */
  readonly env?: Readonly<Record<string, string>>;
  /** Milliseconds to wait for each step (migrating, seeding, listening); default 60 000. */
  readonly timeout?: number;
}

/** A GraphQL response as the server sent it. */
export interface TestGraphQLResponse<T = Record<string, unknown>> {
  /** The HTTP status. */
  readonly status: number;
  readonly data?: T | null;
  readonly errors?: readonly {
    readonly message: string;
    readonly path?: readonly (string | number)[];
    readonly extensions?: Readonly<Record<string, unknown>>;
  }[];
}

/** A generated server started by {@link startTestServer}. */
export interface TestServer {
  /** Where it listens, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The database it serves. */
  readonly databaseUrl: string;
  /** A bearer token the server accepts for `claims` (`sub`, `org_id`, `role`), valid for `expiresIn` (a jose span, default `1h`). */
  token(claims: TokenClaims, expiresIn?: string): Promise<string>;
  /** A request to `pathname` (`/notes?first=5`), with `Authorization: Bearer <token>` when `token` is given. */
  fetch(pathname: string, init?: RequestInit & { readonly token?: string }): Promise<Response>;
  /** POST /graphql with `query` (and `variables`, `token`). */
  graphql<T = Record<string, unknown>>(
    query: string,
    options?: { readonly variables?: Readonly<Record<string, unknown>>; readonly token?: string },
  ): Promise<TestGraphQLResponse<T>>;
  /** Everything the server printed so far (its JSON log lines, then what it wrote to stderr). */
  output(): string;
  /** Stops the server (SIGTERM, as a deployment does) and removes its throwaway database; resolves once it exited. */
  close(): Promise<void>;
}

/** The package's command line beside this module, and how to run it (through tsx when this module is the TypeScript source). */
function commandLine(): readonly string[] {
  const extension = path.extname(fileURLToPath(import.meta.url));
  const cli = fileURLToPath(new URL(`../../generator/cli${extension}`, import.meta.url));
  return extension === '.ts' ? ['--import', 'tsx', cli] : [cli];
}

/** Runs one command of the package's command line for the application at `root` to its end; rejects with its output when it fails. */
function runCommand(root: string, args: readonly string[], env: NodeJS.ProcessEnv, timeout: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...commandLine(), '--root', root, ...args],
      { cwd: root, env, timeout, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`resource-service ${args.join(' ')} failed: ${stderr || stdout || error.message}`));
        else resolve();
      },
    );
  });
}

/** The URL of the first `listening on …` log line in `output`, once it is there. */
function listeningUrl(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (typeof entry.url === 'string' && String(entry.msg).startsWith('listening')) return entry.url;
    } catch {
      // Not a log line.
    }
  }
  return undefined;
}

/** Resolves with the server's URL once it logs that it listens; rejects when it exits first or after `timeout` ms. */
function listening(child: ChildProcess, output: () => string, timeout: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the server did not listen within ${timeout} ms:\n${output()}`));
    }, timeout);
    const check = (): void => {
      const url = listeningUrl(output());
      if (url === undefined) return;
      finish();
      resolve(url);
    };
    const exited = (code: number | null): void => {
      finish();
      reject(new Error(`the server exited (code ${String(code)}) before it listened:\n${output()}`));
    };
    const finish = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', exited);
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
  });
}

/**
 * Starts the generated server of the application at `options.root` (default: the working
 * directory): migrates a throwaway SQLite database (or `options.databaseUrl`), seeds it when asked,
 * serves it on a free loopback port with a token secret of its own, and resolves once it listens.
 * Rejects — with what the command printed — when `generated/` does not exist (run `generate`), a
 * migration or the seed fails, or the server exits or does not listen in time.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const root = path.resolve(options.root ?? process.cwd());
  if (!existsSync(path.join(root, 'generated', 'app.ts')))
    throw new Error(`${path.join(root, 'generated')} does not exist: run \`resource-service generate\` (npm run generate) first`);
  const timeout = options.timeout ?? 60_000;
  const scratch = options.databaseUrl === undefined ? mkdtempSync(path.join(os.tmpdir(), 'resource-service-test-')) : undefined;
  const databaseUrl = options.databaseUrl ?? embeddedDatabaseUrl(path.join(scratch ?? '', 'test.db'));
  const secret = randomBytes(32).toString('hex');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_DATABASE__URL: databaseUrl,
    APP_AUTH__SECRET: secret,
    APP_HTTP__HOST: '127.0.0.1',
    APP_HTTP__PORT: '0',
    APP_LOG__FORMAT: 'json',
    ...options.env,
  };
  const removeScratch = (): void => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  };
  let child: ChildProcess;
  let printed = '';
  try {
    await runCommand(root, ['migrate', 'deploy', '--keep-backups', '0'], env, timeout);
    if (options.seed === true) await runCommand(root, ['seed', '--if-empty'], env, timeout);
    child = spawn(process.execPath, [...commandLine(), '--root', root, 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    removeScratch();
    throw error;
  }
  let errors = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const output = (): string => `${printed}${errors}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let url: string;
  try {
    url = await listening(child, output, timeout);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    removeScratch();
    throw error;
  }
  const headers = (token: string | undefined, init: ConstructorParameters<typeof Headers>[0]): Headers => {
    const merged = new Headers(init);
    if (token !== undefined) merged.set('authorization', `Bearer ${token}`);
    return merged;
  };
  return {
    url,
    databaseUrl,
    token: (claims, expiresIn = '1h') => mintToken(secret, claims, expiresIn),
    fetch: (pathname, init = {}) => {
      const { token, ...rest } = init;
      return fetch(new URL(pathname, url), { ...rest, headers: headers(token, rest.headers) });
    },
    graphql: async (query, graphqlOptions = {}) => {
      const response = await fetch(new URL('/graphql', url), {
        method: 'POST',
        headers: headers(graphqlOptions.token, { 'content-type': 'application/json' }),
        body: JSON.stringify({ query, variables: graphqlOptions.variables }),
      });
      const body = (await response.json()) as Omit<TestGraphQLResponse, 'status'>;
      // JSON from the server: typed as the caller says its data is (`never` is assignable to any T).
      return { status: response.status, ...body } as TestGraphQLResponse<never>;
    },
    output,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      removeScratch();
    },
  };
}

export type { TokenClaims } from '../auth/authentication.js';
