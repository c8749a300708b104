/**
 * A test bed of several hosts on one machine (docs/decisions.md §4, §8): Linux
 * network namespaces joined by veth pairs to a bridge on a private test subnet, holding one
 * PostgreSQL host, N application hosts each running the compiled server (`node
 * dist/generated/main.js`, what `npm start` runs) with `APP_HTTP__WORKERS=2`, and an HAProxy load
 * balancer (round-robin, health checks on `/health`). The test process reaches the subnet through
 * one more veth into its own namespace; no namespace has a default route, so traffic never leaves
 * the namespaces the bed made. Optionally a PgBouncer host in transaction mode sits in front of
 * PostgreSQL (and the servers may reach the database through it: {@link HostBedOptions.serversUse}),
 * extra frontend and backend lines configure the balancer (a stick table for a rate limit,
 * retries), more frontends share its backend, and the test process sends from more than one
 * address. Faults a test can cause: a signal to a host's server, SIGKILL of all its processes, its
 * link cut; a host can be restarted on a later build of the application (an edited copy, compiled).
 * HAProxy names the host that answered in an `x-served-by` response header (also on a WebSocket's
 * upgrade), and its runtime API tells which hosts its health checks hold `UP`.
 *
 * Names carry the test process's id (`rsh<pid>-…`), so parallel runs do not collide, and a run
 * removes what an earlier run of ours left behind when that run's process is gone. Every wait is
 * bounded; {@link HostBed.close} tears down processes, namespaces (and with them their links) and
 * files, also after a failed setup, and a process exit does the same synchronously.
 *
 * Making namespaces needs root and iproute2's `ip`, and the bed needs HAProxy and PostgreSQL:
 * where any is missing {@link hostsUnavailable} says so in one line, and suites skip themselves
 * unless `REQUIRE_HOSTS=1` (which `.ci/run` sets), which turns that skip into a failure.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mintToken } from '../../runtime/auth/authentication.js';
import type { SeededUser, SeedResult } from '../../entities/seed.js';
import { createTestDatabase, type SeedSizes, seedDatabase } from './database.js';
import { postgresBinaries } from './postgres.js';
import { buildCompiledServer } from './compiled-server.js';
import { ROOT, TEST_SECRET } from './project.js';
import type { Role } from './server.js';

/** What every name of the bed starts with, followed by the owning process's id. */
const PREFIX = 'rsh';
const NAME = new RegExp(`^${PREFIX}(\\d+)-`);
/** The second octet of the test subnets: 10.231.<n>.0/24, one `<n>` per run. */
const SUBNET_BASE = '10.231';
const APP_PORT = 3000;
const BALANCER_PORT = 8080;
const POSTGRES_PORT = 5432;
const POOLER_PORT = 6432;

/**
 * The HAProxy binary: `haproxy` on PATH, unless `TEST_HAPROXY` names another path (a path with
 * nothing there simulates a machine without HAProxy).
 */
function haproxyBinary(): string | undefined {
  const named = process.env.TEST_HAPROXY;
  if (named) return existsSync(named) ? named : undefined;
  return onPath('haproxy');
}

/** Whether a missing prerequisite fails the multi-host suites rather than skipping them (`REQUIRE_HOSTS=1`). */
export function hostsRequired(): boolean {
  return process.env.REQUIRE_HOSTS === '1';
}

function onPath(binary: string): string | undefined {
  for (const directory of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin']) {
    const candidate = path.join(directory, binary);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Why the bed cannot be made on this machine (not root, no `ip`, no HAProxy, no PostgreSQL, or the
 * kernel refuses a namespace), as one line naming the fix; undefined when it can.
 */
export function hostsUnavailable(): string | undefined {
  const because = (reason: string): string =>
    `the multi-host tests ${hostsRequired() ? 'fail (REQUIRE_HOSTS=1)' : 'are skipped'}: ${reason}`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return because('network namespaces need root');
  if (!onPath('ip')) return because('iproute2 is not installed (apt-get install iproute2)');
  if (!haproxyBinary()) return because('HAProxy is not installed (apt-get install haproxy)');
  if (!postgresBinaries()) return because('PostgreSQL is not installed (apt-get install postgresql)');
  const probe = `${PREFIX}${process.pid}-probe`;
  try {
    execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe', timeout: 10_000 });
  } catch (error) {
    return because(`\`ip netns add\` failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`);
  } finally {
    try {
      execFileSync('ip', ['netns', 'delete', probe], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      // Not made: nothing to delete.
    }
  }
  return undefined;
}

/** One application host: a namespace with an address, running the compiled server. */
export interface AppHost {
  /** `app1`, `app2`, …: also its server name in the balancer (the `x-served-by` header). */
  readonly name: string;
  /** The host's own address, `http://10.231.<n>.<i>:3000`, reachable from the test process. */
  readonly url: string;
  /** Every JSON log line the host's server printed (primary and workers), parsed. */
  readonly logs: Record<string, unknown>[];
  /** Sends `signal` to the server's primary process. */
  kill(signal: NodeJS.Signals): void;
  /** SIGKILL to every process of the host (primary and workers at once), as a host lost would leave them. */
  killAll(): void;
  /** The ids of the processes running in the host's namespace now (none once a {@link killAll} has taken effect). */
  processes(): number[];
  /** Takes the host's link down: packets to and from it are dropped, its processes keep running. */
  cutLink(): void;
  /** Brings the host's link back up. */
  restoreLink(): void;
  /** SIGTERM, then SIGKILL after 15 s; resolves once the server exited. */
  stop(): Promise<void>;
  /**
   * Starts the server again (after {@link stop} or a kill); resolves once it listens. `build` (from
   * {@link HostBed.build}) runs another version of the application from then on.
   */
  start(build?: string): Promise<void>;
  /** Whether the server process runs. */
  running(): boolean;
}

/** Server states as the balancer sees them (`UP`, `DOWN`, `MAINT`, …), by server name. */
export type BalancerStates = Record<string, string>;

/** How long each phase of the bed took, in milliseconds. */
export interface BedTimings {
  readonly network: number;
  readonly postgres: number;
  readonly build: number;
  readonly hosts: number;
  readonly balancer: number;
  readonly total: number;
}

/** A running bed. */
export interface HostBed {
  /** The balancer's address, `http://10.231.<n>.3:8080`. */
  readonly url: string;
  /** The application's database (migrated, seeded), reachable from the test process. */
  readonly databaseUrl: string;
  /**
   * The application's database through PgBouncer in transaction mode (`postgres://…:6432/…`), when
   * the bed was made with `pooler: true`; the servers still get {@link databaseUrl} unless the
   * test's `env` says otherwise.
   */
  readonly poolerUrl: string | undefined;
  readonly hosts: readonly AppHost[];
  readonly seeded: SeedResult;
  readonly timings: BedTimings;
  /** The seeded user of `role` in org `orgIndex` (default the first org). */
  user(role: Role, orgIndex?: number): SeededUser;
  /** A token for the seeded user of `role` in org `orgIndex`. */
  token(role: Role, orgIndex?: number): Promise<string>;
  /** A token for a specific seeded user. */
  tokenFor(user: SeededUser): Promise<string>;
  /** The address of the extra frontend `name` ({@link HostBedOptions.frontends}), `http://10.231.<n>.3:<port>`. */
  frontendUrl(name: string): string;
  /** The addresses the test process may send from: its own on the subnet first, then the extra ones. */
  readonly clientAddresses: readonly string[];
  /**
   * Compiles the application of `project` (a copy of this one, edited and generated) as
   * {@link startHostBed} compiled this one's: a build to start a host with ({@link AppHost.start}).
   */
  build(project: string): Promise<string>;
  /** What the balancer's health checks say of each application host now. */
  balancerStates(): Promise<BalancerStates>;
  /** Tears everything down; resolves with how long that took (ms). Safe to call twice. */
  close(): Promise<number>;
}

/** Options of {@link startHostBed}. */
export interface HostBedOptions {
  /** Application hosts (default 3). */
  readonly hosts?: number;
  /** Variables for every application server, on top of the bed's. */
  readonly env?: Record<string, string>;
  readonly seed?: SeedSizes;
  /** Lines added to the balancer's frontend (a stick table and its rules, for a rate limit). */
  readonly frontend?: readonly string[];
  /** A PgBouncer host (Debian's `pgbouncer`) in front of PostgreSQL: {@link HostBed.poolerUrl}. */
  readonly pooler?: boolean;
  /** Lines added to the balancer's backend after the bed's own (retries, health-check timing), before its servers. */
  readonly backend?: readonly string[];
  /**
   * More frontends of the balancer on the same backend, each on its own port of the balancer's
   * address with its own lines ({@link HostBed.frontendUrl}): one without the lines of
   * {@link frontend}, to compare.
   */
  readonly frontends?: readonly { readonly name: string; readonly port: number; readonly lines?: readonly string[] }[];
  /** Addresses besides the first that the test process may send from (`10.231.<n>.5`, `.6`, …): {@link HostBed.clientAddresses}. */
  readonly extraClientAddresses?: number;
  /**
   * What the servers connect to (default `postgres`: `APP_DATABASE__URL` is PostgreSQL). `pooler`:
   * `APP_DATABASE__URL` is PgBouncer and `APP_DATABASE__DIRECT_URL` PostgreSQL, as a deployment
   * behind a transaction-mode pooler sets them; `pooler-only`: PgBouncer alone, no direct URL (the
   * misconfiguration docs/guide/deployment.md warns of). Either pooler choice starts the pooler.
   */
  readonly serversUse?: 'postgres' | 'pooler' | 'pooler-only';
}

/** Runs `ip` (or another command) to its end, bounded; throws with its stderr. */
function run(command: string, args: readonly string[], timeout = 30_000): string {
  return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout, encoding: 'utf8' });
}

/** Runs, ignoring failure (teardown of what may already be gone). */
function attempt(command: string, args: readonly string[]): void {
  try {
    run(command, args, 15_000);
  } catch {
    // Already gone.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Namespaces named by this module (any run), each with the id of the process that made it. */
function ourNamespaces(): { name: string; owner: number }[] {
  let listed: string;
  try {
    listed = run('ip', ['netns', 'list']);
  } catch {
    return [];
  }
  return listed
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .flatMap((name) => {
      const owner = NAME.exec(name)?.[1];
      return owner === undefined ? [] : [{ name, owner: Number(owner) }];
    });
}

/** Kills every process in namespace `name` and deletes it (which destroys its links, and their veth peers). */
function removeNamespace(name: string): void {
  let pids: number[] = [];
  try {
    pids = run('ip', ['netns', 'pids', name]).split('\n').filter(Boolean).map(Number);
  } catch {
    // No such namespace.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already exited.
    }
  }
  attempt('ip', ['netns', 'delete', name]);
}

/** The folders a bed writes its files in (build, PostgreSQL data, HAProxy configuration). */
function bedFolders(): { scratch: string; tmp: string } {
  return { scratch: path.join(ROOT, '.scratch'), tmp: os.tmpdir() };
}

/**
 * Removes what runs of ours whose process is gone left behind: their namespaces (with the
 * processes still in them) and their folders. A crashed run cannot clean up after itself.
 */
function removeStaleBeds(): string[] {
  const removed: string[] = [];
  for (const { name, owner } of ourNamespaces()) {
    if (owner === process.pid || alive(owner)) continue;
    removeNamespace(name);
    removed.push(name);
  }
  const { scratch, tmp } = bedFolders();
  for (const folder of [scratch, tmp]) {
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder)) {
      const owner = NAME.exec(entry)?.[1];
      if (owner === undefined || Number(owner) === process.pid || alive(Number(owner))) continue;
      rmSync(path.join(folder, entry), { recursive: true, force: true });
      removed.push(path.join(folder, entry));
    }
  }
  return removed;
}

/** A /24 under 10.231.0.0/16 that no address or route of this namespace uses yet. */
function freeSubnet(): string {
  const used = `${run('ip', ['-4', 'addr'])}\n${run('ip', ['-4', 'route'])}`;
  for (let offset = 0; offset < 254; offset++) {
    const third = ((process.pid + offset) % 254) + 1;
    const subnet = `${SUBNET_BASE}.${third}`;
    if (!used.includes(`${subnet}.`)) return subnet;
  }
  throw new Error(`no free /24 under ${SUBNET_BASE}.0.0/16`);
}

/** Resolves after `ms`. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it returns a value; rejects with `what` after `timeout` ms. */
async function waitUntil<T>(what: string, timeout: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await pause(100);
  }
}

/** Resolves with the answer of the HAProxy runtime API at `socket` to `command`. */
function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let answer = '';
    const timer = setTimeout(() => {
      client.destroy();
      reject(new Error(`HAProxy did not answer "${command}"`));
    }, 5_000);
    client.on('connect', () => client.write(`${command}\n`));
    client.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    client.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    client.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

/** The HAProxy configuration of the bed: round-robin over the hosts, `/health` checked every 500 ms. */
function haproxyConfig(
  address: string,
  socket: string,
  servers: readonly { name: string; address: string }[],
  frontend: readonly string[],
  backend: readonly string[] = [],
  frontends: readonly { readonly name: string; readonly port: number; readonly lines?: readonly string[] }[] = [],
): string {
  return [
    'global',
    '  maxconn 4096',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  log stdout format raw local0 notice',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    // WebSockets stay open across the test.
    '  timeout tunnel 10m',
    // The client's address reaches the servers as a deployment passes it (APP_HTTP__TRUST_PROXY=1).
    '  option forwardfor',
    'frontend web',
    `  bind ${address}:${BALANCER_PORT}`,
    ...frontend.map((line) => `  ${line}`),
    '  default_backend app',
    ...frontends.flatMap((extra) => [
      `frontend ${extra.name}`,
      `  bind ${address}:${extra.port}`,
      ...(extra.lines ?? []).map((line) => `  ${line}`),
      '  default_backend app',
    ]),
    'backend app',
    '  balance roundrobin',
    '  option httpchk GET /health',
    '  http-check expect status 200',
    // Which host answered: what a test needs to say "the client landed on host A".
    '  http-response set-header x-served-by %[srv_name]',
    '  default-server inter 500ms fall 2 rise 2',
    ...backend.map((line) => `  ${line}`),
    ...servers.map((server) => `  server ${server.name} ${server.address}:${APP_PORT} check`),
    '',
  ].join('\n');
}

/** Collects a child's stdout JSON lines into `logs` (other lines are kept as `{ line }`). */
function collectLogs(child: ChildProcess, logs: Record<string, unknown>[]): void {
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ line });
      }
      newline = buffer.indexOf('\n');
    }
  });
}

/** Resolves once `child` exited (at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** SIGTERM, SIGKILL after `grace` ms; resolves once `child` exited. */
async function terminate(child: ChildProcess, grace: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), grace);
  await exited(child);
  clearTimeout(timer);
}

/**
 * PgBouncer on its own host (`<subnet>.4:6432`) in transaction mode, in front of the PostgreSQL
 * host, connecting as `postgres` whoever the client names (`auth_type = any`: PostgreSQL trusts
 * the subnet anyway); run as `postgres` (it refuses root) in the foreground and stopped with the
 * bed. Resolves with its URL (database `postgres`) once it accepts connections.
 */
async function startPooler(
  namespace: string,
  subnet: string,
  folder: string,
  children: ChildProcess[],
  attach: (namespace: string, port: string, inside: string, address: string) => void,
): Promise<URL> {
  attach(namespace, 'pool', 'eth0', `${subnet}.4`);
  const config = path.join(folder, 'pgbouncer.ini');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${subnet}.2 port=${POSTGRES_PORT} user=postgres`,
      '[pgbouncer]',
      `listen_addr = ${subnet}.4`,
      `listen_port = ${POOLER_PORT}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 40',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  chownSync(config, Number(run('id', ['-u', 'postgres']).trim()), Number(run('id', ['-g', 'postgres']).trim()));
  const binary = onPath('pgbouncer');
  if (!binary) throw new Error('PgBouncer is not installed: apt-get install pgbouncer');
  const pooler = spawn('ip', ['netns', 'exec', namespace, 'runuser', '-u', 'postgres', '--', binary, config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(pooler);
  let output = '';
  pooler.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  pooler.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil('PgBouncer to listen', 15_000, () => {
    if (pooler.exitCode !== null) throw new Error(`PgBouncer exited:\n${output}`);
    return output.includes('process up') ? true : undefined;
  });
  return new URL(`postgres://postgres@${subnet}.4:${POOLER_PORT}/postgres`);
}

/**
 * Makes the bed: stale beds of ours removed, namespaces and links, PostgreSQL, the compiled server
 * on `hosts` application hosts, the balancer with every host `UP`. Throws (after tearing down what
 * it made) when a step fails or does not finish in time; throws {@link hostsUnavailable}'s line
 * when the machine cannot make namespaces.
 */
export async function startHostBed(options: HostBedOptions = {}): Promise<HostBed> {
  const unavailable = hostsUnavailable();
  if (unavailable) throw new Error(unavailable);
  removeStaleBeds();
  const started = Date.now();
  const id = `${PREFIX}${process.pid}`;
  const namespaces: string[] = [];
  const children: ChildProcess[] = [];
  const folders: string[] = [];
  let postgresData: string | undefined;
  let closed: Promise<number> | undefined;

  // Synchronous, for a process that exits without running the test's teardown.
  const removeEverything = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const namespace of [...namespaces].reverse()) removeNamespace(namespace);
    namespaces.length = 0;
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    folders.length = 0;
  };
  process.once('exit', removeEverything);

  const close = (): Promise<number> =>
    (closed ??= (async () => {
      const closing = Date.now();
      await Promise.all(children.map((child) => terminate(child, 5_000)));
      const pgCtl = postgresBinaries()?.pgCtl;
      if (postgresData && pgCtl && existsSync(path.join(postgresData, 'postmaster.pid')))
        attempt('runuser', ['-u', 'postgres', '--', pgCtl, '-D', postgresData, '-m', 'immediate', '-w', '-t', '10', 'stop']);
      removeEverything();
      process.removeListener('exit', removeEverything);
      return Date.now() - closing;
    })());

  try {
    // The network: a bridge in a namespace of its own, one veth from it to each host, and one to the test's namespace.
    const subnet = freeSubnet();
    const ns = (role: string): string => `${id}-${role}`;
    const addNamespace = (role: string): string => {
      const name = ns(role);
      run('ip', ['netns', 'add', name]);
      namespaces.push(name);
      run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
      return name;
    };
    const network = Date.now();
    const bridge = addNamespace('sw');
    run('ip', ['-n', bridge, 'link', 'add', 'br0', 'type', 'bridge']);
    run('ip', ['-n', bridge, 'link', 'set', 'br0', 'up']);
    const attach = (namespace: string | undefined, port: string, inside: string, address: string): void => {
      const where = namespace === undefined ? [] : ['-n', namespace];
      run('ip', [...where, 'link', 'add', inside, 'type', 'veth', 'peer', 'name', port, 'netns', bridge]);
      run('ip', ['-n', bridge, 'link', 'set', port, 'master', 'br0', 'up']);
      run('ip', [...where, 'addr', 'add', `${address}/24`, 'dev', inside]);
      run('ip', [...where, 'link', 'set', inside, 'up']);
    };
    const hostCount = options.hosts ?? 3;
    const database = addNamespace('db');
    attach(database, 'db', 'eth0', `${subnet}.2`);
    const balancer = addNamespace('lb');
    attach(balancer, 'lb', 'eth0', `${subnet}.3`);
    const appNamespaces = Array.from({ length: hostCount }, (_, index) => {
      const name = addNamespace(`app${index + 1}`);
      attach(name, `app${index + 1}`, 'eth0', `${subnet}.${11 + index}`);
      return name;
    });
    // The test's own end (its peer sits in the bridge's namespace, so deleting that namespace removes it).
    attach(undefined, 'test', id, `${subnet}.1`);
    const clientAddresses = [`${subnet}.1`];
    for (let extra = 0; extra < (options.extraClientAddresses ?? 0); extra++) {
      clientAddresses.push(`${subnet}.${5 + extra}`);
      run('ip', ['addr', 'add', `${subnet}.${5 + extra}/24`, 'dev', id]);
    }
    const networkMs = Date.now() - network;

    // PostgreSQL on the database host, trusting the test subnet only.
    const postgresStarted = Date.now();
    const binaries = postgresBinaries();
    if (!binaries) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
    const files = mkdtempSync(path.join(bedFolders().tmp, `${id}-files-`));
    folders.push(files);
    chmodSync(files, 0o755);
    const postgresBase = path.join(files, 'postgres');
    mkdirSync(postgresBase);
    chownSync(postgresBase, Number(run('id', ['-u', 'postgres']).trim()), Number(run('id', ['-g', 'postgres']).trim()));
    postgresData = path.join(postgresBase, 'data');
    run(
      'runuser',
      [
        '-u',
        'postgres',
        '--',
        binaries.initdb,
        '-D',
        postgresData,
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ],
      60_000,
    );
    appendFileSync(path.join(postgresData, 'pg_hba.conf'), `host all all ${subnet}.0/24 trust\n`);
    run(
      'ip',
      [
        'netns',
        'exec',
        database,
        'runuser',
        '-u',
        'postgres',
        '--',
        binaries.pgCtl,
        '-D',
        postgresData,
        '-l',
        path.join(postgresBase, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${POSTGRES_PORT} -k ${postgresBase} -c listen_addresses=${subnet}.2 -c max_connections=300 -c fsync=off -c synchronous_commit=off`,
        'start',
      ],
      70_000,
    );
    const adminUrl = `postgres://postgres@${subnet}.2:${POSTGRES_PORT}/postgres`;
    const databaseUrl = await createTestDatabase('postgresql', adminUrl);
    const seeded = await seedDatabase(databaseUrl, options.seed ?? { orgs: 2, users: 4, posts: 3 });
    const serversUse = options.serversUse ?? 'postgres';
    const poolerUrl =
      options.pooler === true || serversUse !== 'postgres'
        ? await startPooler(addNamespace('pool'), subnet, postgresBase, children, attach)
        : undefined;
    if (poolerUrl !== undefined) poolerUrl.pathname = new URL(databaseUrl).pathname;
    const postgresMs = Date.now() - postgresStarted;
    const poolerAddress = poolerUrl?.toString();
    const databaseEnv: Record<string, string> =
      serversUse === 'postgres' || poolerAddress === undefined
        ? { APP_DATABASE__URL: databaseUrl }
        : serversUse === 'pooler'
          ? { APP_DATABASE__URL: poolerAddress, APP_DATABASE__DIRECT_URL: databaseUrl }
          : { APP_DATABASE__URL: poolerAddress };

    const buildStarted = Date.now();
    const buildFolder = path.join(bedFolders().scratch, `${id}-build`);
    rmSync(buildFolder, { recursive: true, force: true });
    mkdirSync(buildFolder, { recursive: true });
    folders.push(buildFolder);
    const main = await buildCompiledServer(buildFolder);
    let builds = 1;
    const buildMs = Date.now() - buildStarted;

    // The compiled server on each application host, as `npm start` runs it: no TypeScript loader, no source condition.
    const hostsStarted = Date.now();
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) => !key.startsWith('npm_') && !key.startsWith('APP_') && key !== 'NODE_OPTIONS' && key !== 'TEST_DATABASE',
      ),
    );
    const hosts = appNamespaces.map((namespace, index): AppHost => {
      const name = `app${index + 1}`;
      const url = `http://${subnet}.${11 + index}:${APP_PORT}`;
      const logs: Record<string, unknown>[] = [];
      let child: ChildProcess | undefined;
      const env = {
        ...inherited,
        ...databaseEnv,
        APP_HTTP__HOST: '0.0.0.0',
        APP_HTTP__PORT: String(APP_PORT),
        APP_HTTP__WORKERS: '2',
        APP_HTTP__TRUST_PROXY: '1',
        // As docs/guide/deployment.md says for hosts behind a balancer: idle connections outlive HAProxy's.
        APP_HTTP__KEEP_ALIVE_TIMEOUT: '65000',
        APP_AUTH__SECRET: TEST_SECRET,
        APP_LOG__FORMAT: 'json',
        APP_LOG__LEVEL: 'info',
        ...options.env,
      };
      let current = main;
      const start = async (build?: string): Promise<void> => {
        current = build ?? current;
        const from = logs.length;
        // `ip netns exec` execs the command, so the child's pid is the server's primary.
        const spawned = spawn('ip', ['netns', 'exec', namespace, process.execPath, current], {
          // The build's folder: where its package.json sits (`<folder>/dist/generated/main.js`).
          cwd: path.dirname(path.dirname(path.dirname(current))),
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child = spawned;
        children.push(spawned);
        let stderr = '';
        spawned.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        collectLogs(spawned, logs);
        await waitUntil(`${name} to listen`, 60_000, () => {
          if (spawned.exitCode !== null || spawned.signalCode !== null) throw new Error(`${name} exited before listening:\n${stderr}`);
          return logs.slice(from).some((entry) => String(entry.msg).startsWith('listening on') && typeof entry.workers === 'number')
            ? true
            : undefined;
        });
      };
      return {
        name,
        url,
        logs,
        kill: (signal) => child?.kill(signal),
        killAll: () => {
          for (const pid of run('ip', ['netns', 'pids', namespace]).split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
        },
        processes: () => run('ip', ['netns', 'pids', namespace]).split('\n').filter(Boolean).map(Number),
        cutLink: () => run('ip', ['-n', namespace, 'link', 'set', 'eth0', 'down']),
        restoreLink: () => run('ip', ['-n', namespace, 'link', 'set', 'eth0', 'up']),
        stop: async () => {
          if (child) await terminate(child, 15_000);
        },
        start: (build) => start(build),
        running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      };
    });
    // One at a time: three servers compiling their schemas at once on two shared cores would only wait for each other.
    for (const host of hosts) await host.start();
    const hostsMs = Date.now() - hostsStarted;

    const balancerStarted = Date.now();
    const socket = path.join(files, 'haproxy.sock');
    const configFile = path.join(files, 'haproxy.cfg');
    writeFileSync(
      configFile,
      haproxyConfig(
        `${subnet}.3`,
        socket,
        hosts.map((host, index) => ({ name: host.name, address: `${subnet}.${11 + index}` })),
        options.frontend ?? [],
        options.backend,
        options.frontends,
      ),
    );
    const haproxy = spawn('ip', ['netns', 'exec', balancer, haproxyBinary() ?? 'haproxy', '-db', '-f', configFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(haproxy);
    let haproxyOutput = '';
    haproxy.stdout?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
    haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
    const balancerStates = async (): Promise<BalancerStates> => {
      const csv = await haproxyCommand(socket, 'show stat');
      const states: BalancerStates = {};
      for (const line of csv.split('\n')) {
        const [proxy, server, ...fields] = line.split(',');
        if (proxy !== 'app' || !server || server === 'BACKEND') continue;
        // `status` is the 18th column of `show stat`: the 16th after the proxy and server names.
        states[server] = fields[15] ?? '';
      }
      return states;
    };
    await waitUntil('every host UP in the balancer', 30_000, async () => {
      if (haproxy.exitCode !== null) throw new Error(`HAProxy exited:\n${haproxyOutput}`);
      if (!existsSync(socket)) return undefined;
      const states = await balancerStates().catch((): BalancerStates => ({}));
      return hosts.every((host) => states[host.name] === 'UP') ? true : undefined;
    });
    const balancerMs = Date.now() - balancerStarted;

    const user = (role: Role, orgIndex = 0): SeededUser => {
      const org = seeded.orgs[orgIndex];
      const found = seeded.users.find((candidate) => candidate.role === role && candidate.orgId === org?.id);
      if (!found) throw new Error(`no seeded ${role} in org ${orgIndex}`);
      return found;
    };
    const tokenFor = (seededUser: SeededUser): Promise<string> =>
      mintToken(TEST_SECRET, { sub: seededUser.id, org_id: seededUser.orgId, role: seededUser.role });
    return {
      url: `http://${subnet}.3:${BALANCER_PORT}`,
      databaseUrl,
      poolerUrl: poolerAddress,
      hosts,
      seeded,
      clientAddresses,
      frontendUrl: (name) => {
        const extra = options.frontends?.find((candidate) => candidate.name === name);
        if (!extra) throw new Error(`the bed has no frontend ${name}`);
        return `http://${subnet}.3:${extra.port}`;
      },
      build: async (project) => {
        const folder = path.join(bedFolders().scratch, `${id}-build-${builds++}`);
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder, { recursive: true });
        folders.push(folder);
        return buildCompiledServer(folder, project);
      },
      timings: {
        network: networkMs,
        postgres: postgresMs,
        build: buildMs,
        hosts: hostsMs,
        balancer: balancerMs,
        total: Date.now() - started,
      },
      user,
      tokenFor,
      token: (role, orgIndex) => tokenFor(user(role, orgIndex)),
      balancerStates,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
