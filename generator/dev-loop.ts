/**
 * The server side of `npm run dev` (docs/decisions.md §10): the generated server runs in a child
 * process (generator/dev-server.ts), one per version of the code, and {@link DevServer} replaces it
 * on the same port when the code changes — booting the new version first and stopping the old one
 * only once the new one is ready to listen, so a version that does not boot leaves the running one
 * serving. The next child is always started ahead, as a standby that loads the runtime while the
 * current version serves: a restart then loads only the application.
 *
 * Children log JSON lines to a pipe; the loop relays them ({@link LogRelay}): what a server logs at
 * info while it boots or stops (its transports, its `listening on` line, `stopped`) is the loop's
 * to summarise in one line per cycle, so it is dropped, while warnings and errors pass (a boot
 * warning once: the development secret's is not news at every restart) and everything passes once
 * a server is live. A terminal gets them pretty (pino-pretty), like a server
 * started by hand; `APP_LOG__LEVEL=debug` or `trace` relays everything.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { prettyFactory } from 'pino-pretty';
import type { Entrypoint } from '../runtime/transports/index.js';
import type { DevServerCommand, DevServerMessage } from './dev-server.js';

/** The child's entry point, beside this module (its source through tsx, or compiled in the package). */
const CHILD_MODULE = fileURLToPath(new URL(`./dev-server${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** pino's numeric level of `warn`: what always reaches the terminal. */
const WARN = 40;

/** Milliseconds a version may take from being told to boot until it is ready to listen. */
const BOOT_TIMEOUT = 120_000;

/** Where a running version of the server is. */
export interface ServerAddress {
  readonly url: string;
  readonly port: number;
  readonly entrypoints: readonly Entrypoint[];
}

/** How long a version took to take over, in milliseconds. */
export interface Handover {
  readonly address: ServerAddress;
  /** From telling the new version to boot until it was ready to listen (loading the application, building the server). */
  readonly boot: number;
  /** From then until it listened: stopping the previous version (its requests drained) and listening. */
  readonly switch: number;
}

/** A version that did not start; the running one still serves unless `stoppedPrevious`. */
export class ServerStartError extends Error {
  /**
   * @param message what happened
   * @param stoppedPrevious the previous version had already been stopped (the new one failed to listen)
   */
  constructor(
    message: string,
    readonly stoppedPrevious = false,
  ) {
    super(message);
  }
}

/** Options of {@link LogRelay}. */
interface LogRelayOptions {
  /** Relay info and debug lines while a server boots or stops too (`APP_LOG__LEVEL` debug or trace). */
  readonly verbose: boolean;
  /** Print pretty lines (a terminal, or `APP_LOG__FORMAT=pretty`) instead of the JSON as written. */
  readonly pretty: boolean;
  readonly output: NodeJS.WritableStream;
}

/** Relays the JSON log lines of the children (module docstring). */
class LogRelay {
  private readonly prettify: ((line: string) => string) | undefined;
  /** The messages of warnings already relayed from a booting or stopping server. */
  private readonly bootWarnings = new Set<string>();

  constructor(private readonly options: LogRelayOptions) {
    this.prettify = options.pretty ? prettyFactory({ colorize: Boolean((options.output as { isTTY?: boolean }).isTTY) }) : undefined;
  }

  /** Relays `line` of a child that is `live` (serving) or not (booting, stopping). */
  line(line: string, live: boolean): void {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (typeof entry !== 'object' || entry === null) {
      // Not a log line (the application's own console output): as written.
      this.options.output.write(`${line}\n`);
      return;
    }
    const { level, msg } = entry as { level?: unknown; msg?: unknown };
    if (!live && !this.options.verbose && typeof level === 'number') {
      if (level < WARN) return;
      const message = String(msg);
      if (this.bootWarnings.has(message)) return;
      this.bootWarnings.add(message);
    }
    this.options.output.write(this.prettify ? this.prettify(line) : `${line}\n`);
  }
}

/** One version of the server: its process and whether it serves. */
interface Version {
  readonly child: ChildProcess;
  live: boolean;
  readonly exited: Promise<number | null>;
  /** Resolves true once the child waits to be told to boot (it listens for the command), false if it exits first. */
  readonly waiting: Promise<boolean>;
}

/** Options of {@link DevServer}. */
export interface DevServerOptions {
  /** The project root (`--root`). */
  readonly root: string;
  /** The children's environment (the port is the loop's to set once the first version listens). */
  readonly env: NodeJS.ProcessEnv;
  /** How the children's logs reach the terminal. */
  readonly logs: LogRelayOptions;
  /** Milliseconds a stopping version may take before it is killed (its shutdown timeout, and some). */
  readonly stopTimeout: number;
  /** Told when the serving version exits without being asked to (its exit code). */
  readonly onUnexpectedExit: (code: number | null) => void;
}

/** The generated server as the dev loop runs it: started, replaced on the same port, stopped (docs/decisions.md §10). */
export class DevServer {
  private current: Version | undefined;
  /** The next version, started ahead: loading the runtime, waiting to be told to boot. */
  private standby: Version | undefined;
  private port: number | undefined;
  private closed = false;
  private readonly relay: LogRelay;

  /** @param options the project, environment, log relay and stop timeout */
  constructor(private readonly options: DevServerOptions) {
    this.relay = new LogRelay(options.logs);
  }

  /**
   * Starts a version of the code as it is on disk and hands the port over to it: the running
   * version (if any) is stopped once the new one is ready, and the new one listens on the same
   * port. Rejects with {@link ServerStartError} when the new version exits or fails before it is
   * ready (the running one keeps serving), or fails to listen.
   */
  async start(): Promise<Handover> {
    const standby = this.standby;
    this.standby = undefined;
    const version = standby !== undefined && standby.child.exitCode === null && standby.child.signalCode === null ? standby : this.spawn();
    try {
      return await this.handOver(version);
    } finally {
      // The next version loads while this one serves (or while the developer fixes what failed),
      // not beside this one's boot, which it would slow down.
      if (!this.closed) this.standby = this.spawn();
    }
  }

  /** Boots `version` and hands the port over to it ({@link start}). */
  private async handOver(version: Version): Promise<Handover> {
    const started = performance.now();
    // A version that hangs while it boots is killed: the loop must not wait on it for ever.
    const timer = setTimeout(() => version.child.kill('SIGKILL'), BOOT_TIMEOUT);
    let ready: DevServerMessage | undefined;
    try {
      if (!(await version.waiting))
        throw new ServerStartError(`the new server exited (code ${String(await version.exited)}) while loading the runtime`);
      // The port of the first version stays: every later one listens where it did.
      version.child.send({
        kind: 'boot',
        env: this.port !== undefined ? { APP_HTTP__PORT: String(this.port) } : {},
      } satisfies DevServerCommand);
      ready = await this.next(version, 'ready');
    } finally {
      clearTimeout(timer);
    }
    if (!ready)
      throw new ServerStartError(
        version.child.signalCode === 'SIGKILL'
          ? `the new server was not ready within ${BOOT_TIMEOUT / 1000} s and was stopped`
          : `the new server exited (code ${String(await version.exited)}) before it was ready`,
      );
    const readyAt = performance.now();
    const previous = this.current;
    if (previous) await this.stopVersion(previous);
    version.child.send({ kind: 'listen' } satisfies DevServerCommand);
    const listening = await this.next(version, 'listening');
    if (!listening) {
      this.current = undefined;
      throw new ServerStartError(`the new server exited (code ${String(await version.exited)}) before it listened`, previous !== undefined);
    }
    this.current = version;
    version.live = true;
    this.port = listening.port;
    return {
      address: { url: listening.url, port: listening.port, entrypoints: listening.entrypoints },
      boot: Math.round(readyAt - started),
      switch: Math.round(performance.now() - readyAt),
    };
  }

  /** Stops the running version, if any; resolves once it has exited. */
  async stop(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) await this.stopVersion(current);
  }

  /** Stops the running version and the standby; resolves once both have exited. */
  async close(): Promise<void> {
    this.closed = true;
    const standby = this.standby;
    this.standby = undefined;
    await Promise.all([this.stop(), standby ? this.stopVersion(standby) : undefined]);
  }

  private spawn(): Version {
    const env: NodeJS.ProcessEnv = { ...this.options.env, APP_LOG__FORMAT: 'json' };
    const child = fork(CHILD_MODULE, ['--root', this.options.root], {
      cwd: this.options.root,
      env,
      execArgv: process.execArgv,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const waiting = new Promise<boolean>((resolve) => {
      const onMessage = (message: unknown): void => {
        if ((message as Partial<DevServerMessage> | null)?.kind !== 'standby') return;
        child.off('message', onMessage);
        resolve(true);
      };
      child.on('message', onMessage);
      void exited.then(() => resolve(false));
    });
    const version: Version = { child, live: false, exited, waiting };
    void version.exited.then((code) => {
      if (version !== this.current || !version.live) return;
      this.current = undefined;
      version.live = false;
      this.options.onUnexpectedExit(code);
    });
    if (child.stdout)
      createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
        this.relay.line(line, version.live),
      );
    return version;
  }

  /** The next message of `kind` from `version`, or undefined when it exits first. */
  private next<Kind extends DevServerMessage['kind']>(
    version: Version,
    kind: Kind,
  ): Promise<Extract<DevServerMessage, { kind: Kind }> | undefined> {
    return new Promise((resolve) => {
      const onMessage = (message: unknown): void => {
        if ((message as Partial<DevServerMessage> | null)?.kind !== kind) return;
        version.child.off('message', onMessage);
        resolve(message as Extract<DevServerMessage, { kind: Kind }>);
      };
      version.child.on('message', onMessage);
      void version.exited.then(() => {
        version.child.off('message', onMessage);
        resolve(undefined);
      });
    });
  }

  /** SIGTERM (a graceful shutdown), then SIGKILL past the stop timeout; resolves once it exited. */
  private async stopVersion(version: Version): Promise<void> {
    version.live = false;
    if (version.child.exitCode !== null || version.child.signalCode !== null) return;
    version.child.kill('SIGTERM');
    const timer = setTimeout(() => version.child.kill('SIGKILL'), this.options.stopTimeout);
    await version.exited;
    clearTimeout(timer);
  }
}
