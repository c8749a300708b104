/**
 * Starting a benchmarked server in a child process (BENCHMARKS.md, "Method"): the entry point of
 * bench/servers/index.ts, compiled to `dist/`, with its database and token secret in the
 * environment. Shared by `npm run bench` and `npm run bench:profile`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** What {@link spawnBenchServer} starts. */
export interface SpawnOptions {
  /** The checkout whose `dist/bench/servers/index.js` runs (its working directory too). */
  readonly root: string;
  readonly databaseUrl: string;
  readonly secret: string;
  /** A command prefix, e.g. `taskset -c 0` (bench/cores.ts); empty for none. */
  readonly pin: readonly string[];
  /** The Node binary (the PostGraphile peer's Node 22, bench/postgraphile.ts); this process's when absent. */
  readonly node?: string;
  /** The entry point, started with no argument, instead of bench/servers/index.ts's server `name` (a peer installed in a folder of its own). */
  readonly script?: string;
  /** Node options before the script (`--cpu-prof`). */
  readonly nodeArgs?: readonly string[];
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A server running in a child process, once it listens. */
export interface SpawnedServer {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
}

/**
 * `env` without the condition that points the package's `exports` at its TypeScript sources (this
 * repository's .npmrc puts it in NODE_OPTIONS): compiled servers import the compiled runtime.
 */
export function compiledEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = (env.NODE_OPTIONS ?? '').replace(/--conditions[= ]resource-service-source/g, '').trim();
  return { ...env, NODE_OPTIONS: options };
}

/**
 * Starts server `name` of bench/servers/index.ts (or `options.script`) and resolves once it prints the URL it listens
 * on; rejects when the process exits before that (its stderr is this process's).
 */
export async function spawnBenchServer(name: string, options: SpawnOptions): Promise<SpawnedServer> {
  const command = [
    ...options.pin,
    options.node ?? process.execPath,
    ...(options.nodeArgs ?? []),
    ...(options.script ? [options.script] : [path.join(options.root, 'dist/bench/servers/index.js'), name]),
  ];
  const child = spawn(command[0] ?? process.execPath, command.slice(1), {
    cwd: options.script ? path.dirname(options.script) : options.root,
    env: {
      ...compiledEnvironment(process.env),
      BENCH_DATABASE_URL: options.databaseUrl,
      BENCH_SECRET: options.secret,
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /\{"url":"([^"]+)"\}/.exec(buffer);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${options.script ?? name} exited with ${code} before listening`)));
  });
  return { url, pid: child.pid ?? 0, child };
}
