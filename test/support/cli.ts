/**
 * The command line as a user runs it, for tests: one-shot commands, long-running ones (`serve`,
 * `dev`) whose output is awaited, and copies of this project to run them in.
 */
import { type ChildProcess, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, scratchDir, TEST_SECRET } from './project.js';

/** Where and with what the CLI runs. */
export interface CliOptions {
  /** The project (default: this repository), the CLI's `--root`: see {@link cliArguments} for which generator runs. */
  readonly cwd?: string;
  /** Variables on top of the test's environment, a test secret and JSON logs. */
  readonly env?: Record<string, string>;
  /** Variables to leave out of that environment (`APP_AUTH__SECRET`: no test secret). */
  readonly unset?: readonly string[];
  /** Run the project's own `generator/cli.ts` through tsx whatever the command (see {@link cliArguments}). */
  readonly fromSources?: boolean;
}

/** The command `args` name (`generate`), skipping options and the value of `--root`. */
export function commandOf(args: readonly string[]): string | undefined {
  return args.find((arg, index) => !arg.startsWith('-') && args[index - 1] !== '--root');
}

/** The commands that do not import the application's TypeScript, which `npm run` runs compiled (docs/decisions.md §10). */
const COMPILED_COMMANDS = new Set(['generate', 'init', 'migrate', 'token']);

/**
 * The arguments of `node` that run the CLI's `args` for the project `cwd`. {@link COMPILED_COMMANDS}
 * run as `npm run generate` runs them: this checkout's generator compiled once (generator/launch.mjs,
 * docs/decisions.md §10), which starts without tsx's hooks on every module and does for a copy of the
 * project what the copy's own generator does (cli.test.ts checks they write the same). `dev`,
 * `serve` and `seed`, and every command with `fromSources`, run the project's own
 * `generator/cli.ts` through tsx, so that they load the runtime the application's code imports.
 */
export function cliArguments(args: readonly string[], cwd: string, fromSources = false): string[] {
  const command = commandOf(args);
  if (!fromSources && command !== undefined && COMPILED_COMMANDS.has(command))
    return [path.join(ROOT, 'generator/launch.mjs'), '--root', cwd, ...args];
  return ['--import', 'tsx', path.join(cwd, 'generator/cli.ts'), '--root', cwd, ...args];
}

function cliEnvironment(env: Record<string, string> | undefined, unset: readonly string[] = []): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, APP_AUTH__SECRET: TEST_SECRET, APP_LOG__FORMAT: 'json', ...env };
  return Object.fromEntries(Object.entries(merged).filter(([name]) => !unset.includes(name)));
}

/** Runs one CLI command to its end. */
export function cli(args: readonly string[], options: CliOptions = {}): SpawnSyncReturns<string> {
  const cwd = options.cwd ?? ROOT;
  return spawnSync(process.execPath, cliArguments(args, cwd, options.fromSources), {
    cwd,
    encoding: 'utf8',
    env: cliEnvironment(options.env, options.unset),
    timeout: 120_000,
  });
}

/** A CLI command that keeps running (`serve`, `dev`). */
export interface RunningCli {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with stdout once `ready` holds of it; rejects when the process exits first or after `timeout` ms. */
  waitFor(ready: (stdout: string) => boolean, timeout?: number): Promise<string>;
  /** Resolves with stderr once `ready` holds of it; rejects when the process exits first or after `timeout` ms. */
  waitForStderr(ready: (stderr: string) => boolean, timeout?: number): Promise<string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts a long-running CLI command. */
export function startCli(args: readonly string[], options: CliOptions = {}): RunningCli {
  const cwd = options.cwd ?? ROOT;
  return startProcess(process.execPath, cliArguments(args, cwd, options.fromSources), {
    cwd,
    env: cliEnvironment(options.env, options.unset),
  });
}

/** Starts a long-running process (`command` with `args`, in `cwd`, with exactly `env`), its output awaitable as {@link startCli}'s. */
export function startProcess(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): RunningCli {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitUntil = (stream: () => string, ready: (text: string) => boolean, timeout: number): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const check = (): void => {
        if (!ready(stream())) return;
        done();
        resolve(stream());
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${args.join(' ')}: not ready after ${timeout} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      }, timeout);
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then((code) => {
        if (!listeners.has(check)) return;
        done();
        reject(new Error(`${args.join(' ')} exited with ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      });
      check();
    });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (ready, timeout = 60_000) => waitUntil(() => stdout, ready, timeout),
    waitForStderr: (ready, timeout = 60_000) => waitUntil(() => stderr, ready, timeout),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The address in a server's `listening on …` log line (JSON logs), once it is there. */
export function listeningUrl(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: unknown; url?: unknown };
      if (typeof entry.url === 'string' && String(entry.msg).startsWith('listening')) return entry.url;
    } catch {
      // not a log line
    }
  }
  return undefined;
}

/** Rewrites `file` (in `project`) with `change` applied; throws when `change` changes nothing. */
export function editFile(project: string, file: string, change: (text: string) => string): void {
  const full = path.join(project, file);
  const before = readFileSync(full, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(full, after);
}

/** A copy of this project in a temporary folder (node_modules linked), to edit freely. */
export function copyProject(): string {
  const dir = scratchDir('rs-project-');
  for (const name of ['entities', 'generated', 'generator', 'runtime', 'templates', 'package.json', 'tsconfig.json', 'eslint.config.js']) {
    cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}
