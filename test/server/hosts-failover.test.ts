// Runs on: postgresql
/**
 * What happens to clients of three application hosts behind HAProxy (test/support/hosts.ts) when
 * hosts go away, run with the balancer settings docs/guide/haproxy.cfg ships (docs/guide/deployment.md
 * "Several hosts behind a load balancer"): a host killed under a write load loses no acknowledged
 * write and fails only requests it held; a rolling deploy with `APP_HTTP__DRAIN_DELAY` fails no
 * request and moves each WebSocket (closed 1001) to another host (docs/behaviour.md §4.9); an
 * expand/contract migration — a column added, a build using it rolled out, the column dropped after
 * a build that no longer uses it — fails no request; and the shipped rate limit holds one client
 * to one budget across the three hosts. Skipped with one line where namespaces cannot be made,
 * unless `REQUIRE_HOSTS=1`.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { queryOnce } from '../support/bed-clients.js';
import { cliArguments, copyProject, editFile } from '../support/cli.js';
import { type AppHost, type HostBed, hostsRequired, hostsUnavailable, startHostBed } from '../support/hosts.js';
import { ROOT } from '../support/project.js';

const unavailable = hostsUnavailable();
if (unavailable) process.stderr.write(`${unavailable}\n`);

/** The lines of the shipped HAProxy example between `# >>> name` and `# <<< name`, comments left out. */
function exampleBlock(name: string): string[] {
  const lines = readFileSync(path.join(ROOT, 'docs/guide/haproxy.cfg'), 'utf8').split('\n');
  const from = lines.findIndex((line) => line.trim() === `# >>> ${name}`);
  const to = lines.findIndex((line) => line.trim() === `# <<< ${name}`);
  if (from < 0 || to < from) throw new Error(`docs/guide/haproxy.cfg has no block "${name}"`);
  return lines
    .slice(from + 1, to)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * Runs the CLI for `project` (test/support/cli.ts) to its end without blocking this process,
 * whose load must go on meanwhile; resolves with its exit code and output.
 */
function cliAsync(
  project: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArguments(args, project), {
      cwd: project,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Whether process `pid` still runs (a zombie has closed its sockets already: not running). */
function living(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One request of a load: when it started and ended, its status (0: no answer), and the host named. */
interface Outcome {
  readonly write: boolean;
  readonly started: number;
  readonly ended: number;
  readonly status: number;
  /** `x-served-by`: the host that answered (absent from an answer the balancer made itself). */
  readonly host: string;
  /** The server HAProxy last tried (`x-balancer-server`, on every answer, the balancer's own too). */
  readonly tried: string;
  readonly id?: string;
  readonly error?: string;
}

/** A bounded load through the balancer; {@link stop} ends it early, `done` has every request's outcome. */
interface Load {
  readonly outcomes: Outcome[];
  /** Requests sent and not answered yet, by start time. */
  readonly inFlight: Set<{ started: number }>;
  stop(): void;
  readonly done: Promise<Outcome[]>;
}

/**
 * `clients` clients, each sending one request after another (`gap` ms apart) until `seconds` have
 * passed, `limit` requests were sent in all, or {@link Load.stop}: a `POST /v2/posts` when `writes(n)` holds of the
 * client's n-th request, else a `GET /v2/posts?first=5`.
 */
function startLoad(
  url: string,
  token: string,
  options: { clients: number; seconds: number; limit: number; gap?: number; writes: (n: number) => boolean; label: string },
): Load {
  const outcomes: Outcome[] = [];
  const inFlight = new Set<{ started: number }>();
  let stopped = false;
  const deadline = Date.now() + options.seconds * 1_000;
  const one = async (write: boolean, title: string): Promise<Outcome> => {
    const started = Date.now();
    const marker = { started };
    inFlight.add(marker);
    try {
      const response = await fetch(write ? `${url}/v2/posts` : `${url}/v2/posts?first=5`, {
        method: write ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: write ? JSON.stringify({ title }) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      const id = write && response.status === 201 ? (JSON.parse(text) as { id?: string }).id : undefined;
      return {
        write,
        started,
        ended: Date.now(),
        status: response.status,
        host: response.headers.get('x-served-by') ?? '',
        tried: response.headers.get('x-balancer-server') ?? '',
        ...(id === undefined ? {} : { id }),
        ...(response.ok ? {} : { error: text.slice(0, 200) }),
      };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      return { write, started, ended: Date.now(), status: 0, host: '', tried: '', error: `${String(error)}: ${String(cause)}` };
    } finally {
      inFlight.delete(marker);
    }
  };
  const done = Promise.all(
    Array.from({ length: options.clients }, async (_, client) => {
      for (let n = 0; !stopped && Date.now() < deadline && outcomes.length < options.limit; n++) {
        outcomes.push(await one(options.writes(n), `${options.label} ${client}.${n}`));
        if (options.gap) await pause(options.gap);
      }
    }),
  ).then(() => outcomes);
  return {
    outcomes,
    inFlight,
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** The outcomes that failed: no answer, or anything but 2xx. */
const failed = (outcomes: readonly Outcome[]): Outcome[] => outcomes.filter((outcome) => outcome.status < 200 || outcome.status > 299);

/** A summary of a load for the log: requests, failures, writes acknowledged, requests per host. */
function summary(outcomes: readonly Outcome[]): Record<string, unknown> {
  const perHost: Record<string, number> = {};
  for (const outcome of outcomes) perHost[outcome.host || '-'] = (perHost[outcome.host || '-'] ?? 0) + 1;
  return {
    requests: outcomes.length,
    failed: failed(outcomes).length,
    writesAcknowledged: outcomes.filter((outcome) => outcome.id !== undefined).length,
    perHost,
  };
}

/** Two later versions of the demo, each a generated copy of the project (test/support/cli.ts). */
interface Versions {
  /** The demo with a nullable `Post.subtitle` its create input writes: its last migration adds the column. */
  readonly expanded: string;
  /** {@link expanded} without the column again: its last migration drops it. */
  readonly contracted: string;
  /** How long each step took (ms). */
  readonly timings: Record<string, number>;
}

/** Makes {@link Versions}: copies of this project edited and generated (`generate` reads only the project). */
async function prepareVersions(env: Record<string, string>): Promise<Versions> {
  const timings: Record<string, number> = {};
  const since = Date.now();
  const expanded = copyProject();
  editFile(expanded, 'entities/post.entity.ts', (text) =>
    text.replace(
      '  /** 1..200 characters. */\n',
      '  /** A subtitle, if any. */\n  @Column()\n  subtitle?: string | null;\n\n  /** 1..200 characters. */\n',
    ),
  );
  editFile(expanded, 'entities/post.dto.ts', (text) =>
    text
      .replace('  body?: string;\n}', '  body?: string;\n  /** A subtitle. */\n  subtitle?: string;\n}')
      .replace(".default(''),\n})", ".default(''),\n  subtitle: z.string().max(200).optional(),\n})"),
  );
  editFile(expanded, 'entities/post.service.ts', (text) =>
    text.replace("      body: input.body ?? '',\n", "      body: input.body ?? '',\n      subtitle: input.subtitle ?? null,\n"),
  );
  const expand = await cliAsync(expanded, ['generate'], env);
  if (expand.status !== 0) throw new Error(`generate (expand) failed:\n${expand.output}`);
  const added = lastMigration(expanded);
  if (!added.endsWith('_add_post_subtitle')) throw new Error(`the expand migration is ${added}`);
  timings.generateExpand = Date.now() - since;

  const contracting = Date.now();
  const contracted = copyProject();
  for (const folder of ['entities', 'generated'])
    cpSync(path.join(expanded, folder), path.join(contracted, folder), { recursive: true, force: true });
  editFile(contracted, 'entities/post.entity.ts', (text) =>
    text.replace('  /** A subtitle, if any. */\n  @Column()\n  subtitle?: string | null;\n\n', ''),
  );
  editFile(contracted, 'entities/post.dto.ts', (text) =>
    text.replace('  /** A subtitle. */\n  subtitle?: string;\n', '').replace('  subtitle: z.string().max(200).optional(),\n', ''),
  );
  editFile(contracted, 'entities/post.service.ts', (text) => text.replace('      subtitle: input.subtitle ?? null,\n', ''));
  const contract = await cliAsync(contracted, ['generate', '--allow-breaking', '--accept-data-loss'], env);
  if (contract.status !== 0) throw new Error(`generate (contract) failed:\n${contract.output}`);
  const dropped = lastMigration(contracted);
  if (dropped === added) throw new Error('the contract made no migration');
  timings.generateContract = Date.now() - contracting;
  return { expanded, contracted, timings };
}

/** The name of the last PostgreSQL migration of `project`. */
function lastMigration(project: string): string {
  return (
    readdirSync(path.join(project, 'generated', 'prisma', 'postgresql', 'migrations'))
      .filter((name) => /^\d{4}_/.test(name))
      .at(-1) ?? ''
  );
}

describe.skipIf(unavailable !== undefined && !hostsRequired())('hosts lost, drained and redeployed behind HAProxy', () => {
  let bed: HostBed | undefined;
  const clients: Client[] = [];
  const figures: Record<string, unknown> = {};
  /** The expand/contract test's versions, generated in the background while the tests before it run. */
  let versions: Promise<Versions> | undefined;

  const hosts = (): HostBed => {
    if (!bed) throw new Error('the bed did not start');
    return bed;
  };

  /** Polls the balancer until `host` is in `state`; resolves with how long that took (ms). */
  async function balancerSays(host: AppHost, state: string, timeout = 15_000): Promise<number> {
    const since = Date.now();
    await expect.poll(async () => (await hosts().balancerStates())[host.name], { timeout, interval: 100 }).toBe(state);
    return Date.now() - since;
  }

  /**
   * Drains `host` with SIGTERM, restarts it (with `build` when given) and waits until the balancer
   * holds it `UP` again; resolves with the milliseconds each step took.
   */
  async function redeploy(host: AppHost, build?: string): Promise<{ stop: number; start: number; up: number }> {
    const stopping = Date.now();
    await host.stop();
    const stop = Date.now() - stopping;
    const starting = Date.now();
    await host.start(build);
    const start = Date.now() - starting;
    const up = await balancerSays(host, 'UP');
    return { stop, start, up };
  }

  /**
   * A `postPublished` subscriber of the first org through the balancer, retrying after a close: the
   * hosts it was connected to in order, the close codes it saw, and the posts it received.
   */
  async function subscriber(): Promise<{ hosts: string[]; codes: number[]; items: string[]; client: Client }> {
    const connectedTo: string[] = [];
    const Recording = class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols);
        this.once('upgrade', (response) => connectedTo.push(String(response.headers['x-served-by'] ?? '')));
      }
    };
    const token = await hosts().token('member');
    const client = createClient({
      url: `${hosts().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: Recording,
      connectionParams: { Authorization: `Bearer ${token}` },
      lazy: false,
      retryAttempts: 20,
      retryWait: () => pause(100),
      shouldRetry: () => true,
    });
    clients.push(client);
    const codes: number[] = [];
    client.on('closed', (event) => codes.push((event as { code: number }).code));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connection_ack through the balancer')), 10_000);
      client.on('connected', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const items: string[] = [];
    client.subscribe<{ postPublished: { id: string } }>(
      { query: 'subscription { postPublished { id } }' },
      {
        next: (value) => {
          if (value.data) items.push(value.data.postPublished.id);
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    return { hosts: connectedTo, codes, items, client };
  }

  /** Creates and publishes a post in the first org through the balancer; resolves with its id. */
  async function publish(title: string): Promise<string> {
    const admin = await hosts().token('admin');
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    const created = await fetch(`${hosts().url}/v2/posts`, { method: 'POST', headers, body: JSON.stringify({ title }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const published = await fetch(`${hosts().url}/v2/posts/${id}/publish`, { method: 'POST', headers });
    expect(published.status).toBe(200);
    return id;
  }

  beforeAll(async () => {
    if (unavailable) throw new Error(unavailable);
    bed = await startHostBed({
      hosts: 3,
      // The shipped settings: health-check timing, retries of connection failures on another server.
      backend: exampleBlock('health and failover'),
      // Which server the balancer last tried, also on the answers it makes itself (a 502).
      frontend: ['http-after-response set-header x-balancer-server %[srv_name]'],
      env: { APP_HTTP__DRAIN_DELAY: '2000', APP_HTTP__SHUTDOWN_TIMEOUT: '5000' },
    });
    process.stderr.write(`host bed up: ${JSON.stringify(bed.timings)} ms\n`);
    versions = prepareVersions({ APP_DATABASE__URL: bed.databaseUrl });
    // Awaited by its test; a failure here fails that test, not the process.
    versions.catch(() => undefined);
  }, 240_000);

  afterAll(async () => {
    await versions?.catch(() => undefined);
    await Promise.all(clients.splice(0).map(async (client) => client.dispose()));
    process.stderr.write(`failover figures: ${JSON.stringify(figures)}\n`);
    if (bed) process.stderr.write(`host bed torn down in ${await bed.close()} ms\n`);
  }, 60_000);

  it('a host killed under a write load: no acknowledged write lost, taken out by the health check, failures only on requests it held', async () => {
    const victim = hosts().hosts[2];
    if (!victim) throw new Error('the bed has fewer than three hosts');
    const token = await hosts().token('member');
    const load = startLoad(hosts().url, token, { clients: 12, seconds: 8, limit: 3_000, writes: () => true, label: 'Kill' });
    await pause(2_000);
    const inFlightAtKill = load.inFlight.size;
    const killedAt = Date.now();
    const pids = victim.processes();
    try {
      victim.killAll();
      // A process takes a moment to die: until its sockets are closed, the balancer may still send it requests.
      await expect.poll(() => pids.filter(living), { timeout: 5_000, interval: 5 }).toEqual([]);
      const goneAt = Date.now();
      await balancerSays(victim, 'DOWN');
      const downAt = Date.now();
      const outcomes = await load.done;

      const failures = failed(outcomes);
      const survivors = new Set(
        hosts()
          .hosts.filter((host) => host !== victim)
          .map((host) => host.name),
      );
      // The requests in flight between the kill and the balancer taking the host out, and of those the
      // ones another host did not answer: at most, those the balancer sent the lost host.
      const untilDown = outcomes.filter((outcome) => outcome.started <= downAt && outcome.ended >= killedAt);
      const sentToVictim = untilDown.filter((outcome) => !survivors.has(outcome.host));
      const acknowledged = outcomes.flatMap((outcome) => (outcome.id === undefined ? [] : [outcome.id]));
      const stored = new Set(
        (await queryOnce<{ id: string }>(hosts().databaseUrl, 'SELECT id FROM "Post" WHERE id = ANY($1::uuid[])', [acknowledged])).map(
          (row) => row.id,
        ),
      );
      Object.assign(figures, {
        kill: {
          ...summary(outcomes),
          inFlightAtKill,
          dyingMs: goneAt - killedAt,
          downAfterMs: downAt - killedAt,
          inFlightUntilDown: untilDown.length,
          sentToVictim: sentToVictim.length,
          failures: failures.map((failure) => ({
            status: failure.status,
            tried: failure.tried,
            startedAfterKill: failure.started - killedAt,
            endedAfterKill: failure.ended - killedAt,
            error: failure.error?.slice(0, 160),
          })),
        },
      });
      // Every acknowledged write is stored.
      expect(acknowledged.length).toBeGreaterThan(100);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      // Failures: only requests the balancer sent the host before it took it out: in flight at the kill,
      // or sent on a kept-alive connection to it whose close had not reached the balancer yet.
      expect(failures.length).toBeLessThanOrEqual(sentToVictim.length);
      expect(sentToVictim.length).toBeLessThan(untilDown.length);
      for (const failure of failures) {
        expect(failure.started).toBeLessThanOrEqual(downAt);
        // The balancer answered 502 naming the host, or closed the client's connection (a request it had sent on a kept-alive one).
        expect(['', victim.name]).toContain(failure.tried);
      }
      // Once it is out, the survivors answer everything.
      const after = outcomes.filter((outcome) => outcome.started > downAt);
      expect(after.length).toBeGreaterThan(20);
      expect(new Set(after.map((outcome) => outcome.host))).toEqual(survivors);
    } finally {
      // Back in the rotation for the tests after this one.
      await victim.start();
      await balancerSays(victim, 'UP');
    }
  }, 60_000);

  it('a rolling deploy: each host drained with SIGTERM and restarted under a load, no request failed, WebSockets closed 1001 and back on another host', async () => {
    const names = hosts().hosts.map((host) => host.name);
    // Subscribers until every host holds at least one.
    const subscribers: Awaited<ReturnType<typeof subscriber>>[] = [];
    for (let attempt = 0; attempt < 12 && new Set(subscribers.map((held) => held.hosts[0])).size < names.length; attempt++)
      subscribers.push(await subscriber());
    expect(new Set(subscribers.map((held) => held.hosts[0]))).toEqual(new Set(names));
    await pause(300);

    const token = await hosts().token('member');
    const load = startLoad(hosts().url, token, { clients: 6, seconds: 60, limit: 20_000, writes: (n) => n % 3 === 0, label: 'Roll' });
    const steps: Record<string, unknown> = {};
    const rolled = Date.now();
    for (const host of hosts().hosts) steps[host.name] = await redeploy(host);
    load.stop();
    const outcomes = await load.done;
    Object.assign(figures, { rollingDeploy: { ...summary(outcomes), rollMs: Date.now() - rolled, steps } });

    expect(failed(outcomes)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(200);
    // Every host answered, before and after its restart.
    expect(new Set(outcomes.map((outcome) => outcome.host))).toEqual(new Set(names));
    for (const held of subscribers) {
      // Each drain of a host it was on closed it with 1001, and it came back on another host.
      expect(held.codes.length).toBeGreaterThanOrEqual(1);
      expect(new Set(held.codes)).toEqual(new Set([1001]));
      expect(held.hosts).toHaveLength(held.codes.length + 1);
      for (let index = 1; index < held.hosts.length; index++) expect(held.hosts[index]).not.toBe(held.hosts[index - 1]);
    }
    // And goes on receiving events.
    await pause(500);
    const id = await publish('After the rolling deploy');
    await expect
      .poll(() => subscribers.map((held) => held.items.filter((item) => item === id).length), { timeout: 10_000 })
      .toEqual(subscribers.map(() => 1));
  }, 120_000);

  it('an expand/contract migration while the previous build serves: a column added, used by the next build, dropped after the one that stops using it; no request failed', async () => {
    const { expanded, contracted, timings } = await (versions ?? Promise.reject(new Error('the versions were not prepared')));
    const env = { APP_DATABASE__URL: hosts().databaseUrl };
    const token = await hosts().token('member');
    const columns = async (): Promise<string[]> =>
      (
        await queryOnce<{ name: string }>(
          hosts().databaseUrl,
          "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'Post' ORDER BY 1",
        )
      ).map((row) => row.name);
    // Bounded by time, and paced so that it lasts through every step.
    const load = startLoad(hosts().url, token, {
      clients: 4,
      seconds: 150,
      limit: 40_000,
      gap: 20,
      writes: (n) => n % 3 === 0,
      label: 'Migrate',
    });
    const timed = async <T>(name: string, step: () => Promise<T> | T): Promise<T> => {
      const since = Date.now();
      const result = await step();
      timings[name] = Date.now() - since;
      return result;
    };
    try {
      // Expand: the nullable column, applied while the first build serves.
      await pause(1_000);
      const deployed = await timed('deployExpand', () => cliAsync(expanded, ['migrate', 'deploy'], env));
      expect(deployed.status, deployed.output).toBe(0);
      expect(await columns()).toContain('subtitle');

      // The build that uses it, rolled out host by host.
      const second = await timed('buildSecond', () => hosts().build(expanded));
      await timed('rollSecond', async () => {
        for (const host of hosts().hosts) await redeploy(host, second);
      });
      const admin = await hosts().token('admin');
      const created = await fetch(`${hosts().url}/v2/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'With a subtitle', subtitle: 'Stored in the new column' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const rows = await queryOnce<{ subtitle: string | null }>(hosts().databaseUrl, 'SELECT subtitle FROM "Post" WHERE id = $1', [id]);
      expect(rows[0]?.subtitle).toBe('Stored in the new column');

      // Contract: a build that no longer uses the column rolled out first, then the column dropped.
      const third = await timed('buildThird', () => hosts().build(contracted));
      await timed('rollThird', async () => {
        for (const host of hosts().hosts) await redeploy(host, third);
      });
      const dropped = await timed('deployContract', () => cliAsync(contracted, ['migrate', 'deploy'], env));
      expect(dropped.status, dropped.output).toBe(0);
      expect(await columns()).not.toContain('subtitle');
      await pause(1_000);
    } finally {
      load.stop();
    }
    const outcomes = await load.done;
    Object.assign(figures, { expandContract: { ...summary(outcomes), timings } });
    expect(failed(outcomes)).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(200);
  }, 240_000);
});

/** A GET through `url` from the local address `from`, with a fresh connection; resolves with its status, body and headers. */
function getFrom(url: string, from: string, token: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { localAddress: from, agent: false, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, timeout: 10_000 },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('timed out')));
  });
}

describe.skipIf(unavailable !== undefined && !hostsRequired())('one rate limit across three hosts, at the balancer', () => {
  let bed: HostBed | undefined;
  /** The limit of the shipped example: requests per client address in any 10 s. */
  const LIMIT = 100;

  const hosts = (): HostBed => {
    if (!bed) throw new Error('the bed did not start');
    return bed;
  };

  beforeAll(async () => {
    if (unavailable) throw new Error(unavailable);
    bed = await startHostBed({
      hosts: 3,
      frontend: exampleBlock('rate limit'),
      // The same balancer without the example's lines: what the servers' own limits alone allow.
      frontends: [{ name: 'unlimited', port: 8081 }],
      backend: exampleBlock('health and failover'),
      extraClientAddresses: 1,
      // Each process's own limit, as large as the balancer's (as a deployment without the balancer's limit would set it).
      env: { APP_HTTP__RATE_LIMIT: String(LIMIT), APP_HTTP__RATE_LIMIT_WINDOW: '10000' },
    });
    process.stderr.write(`host bed up: ${JSON.stringify(bed.timings)} ms\n`);
  }, 240_000);

  afterAll(async () => {
    if (bed) process.stderr.write(`host bed torn down in ${await bed.close()} ms\n`);
  }, 60_000);

  it("holds one client to the example's limit across the three hosts, answering the rest 429; another client is unaffected", async () => {
    const [first, second] = hosts().clientAddresses;
    if (!first || !second) throw new Error('the bed has no second client address');
    const token = await hosts().token('member');
    const burst = async (url: string, from: string, count: number): Promise<Awaited<ReturnType<typeof getFrom>>[]> => {
      const answers: Awaited<ReturnType<typeof getFrom>>[] = [];
      let sent = 0;
      // Eight at a time: a burst, bounded.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (; sent < count;) {
            sent++;
            answers.push(await getFrom(`${url}/v2/posts?first=1`, from, token));
          }
        }),
      );
      return answers;
    };

    // Through the shipped limit: exactly the budget passes, served by all three hosts; the rest is the balancer's 429.
    const started = Date.now();
    const limited = await burst(hosts().url, first, 3 * LIMIT);
    const took = Date.now() - started;
    const accepted = limited.filter((answer) => answer.status === 200);
    const refused = limited.filter((answer) => answer.status === 429);
    // The same burst past the balancer's limit, through the servers' own limits alone: spread over
    // six processes, each counting its own share, nearly all of it passes.
    const spread = await burst(hosts().frontendUrl('unlimited'), first, 3 * LIMIT);
    const spreadAccepted = spread.filter((answer) => answer.status === 200).length;
    process.stderr.write(
      `rate limit figures: ${JSON.stringify({ limit: LIMIT, burst: 3 * LIMIT, spreadAccepted, accepted: accepted.length, refused: refused.length, burstMs: took })}\n`,
    );
    expect(took).toBeLessThan(10_000);
    expect(spreadAccepted).toBeGreaterThan(2 * LIMIT);
    expect(accepted.length).toBe(LIMIT);
    expect(refused.length).toBe(2 * LIMIT);
    expect(new Set(accepted.map((answer) => answer.headers['x-served-by']))).toEqual(new Set(hosts().hosts.map((host) => host.name)));
    const sample = refused[0];
    expect(sample?.headers['retry-after']).toBe('10');
    expect(sample?.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(sample?.headers['x-served-by']).toBeUndefined();
    expect(JSON.parse(sample?.body ?? '{}')).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', title: 'Too Many Requests' });

    // Another client address has its own budget.
    const other = await burst(hosts().url, second, 20);
    expect(other.map((answer) => answer.status)).toEqual(other.map(() => 200));
  }, 60_000);
});
