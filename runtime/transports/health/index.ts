/**
 * `GET /health` (docs/decisions.md §4; docs/guide/deployment.md "Several hosts behind a load balancer"): 200 `{ "status": "ok", "db": "ok" }`, or 503
 * `{ "status": "unavailable", "db": "down" }` when a check fails — one field per
 * {@link HealthContribution} of the server's transports, the database's (`db`) first, saying `full`
 * instead of `down` when the database answers but has no room to write (docs/behaviour.md §7) — or
 * 503 `{ "status": "draining", … }` once a shutdown has begun (docs/behaviour.md §4.9). Mounted
 * before the rate limit (placement `unmetered`), neutral to API versions (docs/behaviour.md §9.3.3).
 *
 * Each check is a {@link HealthCheck} (docs/hostile-input.md §2): whether the database answers a
 * trivial statement within a timeout, remembered briefly so that a health check never waits for a
 * database round trip while the process is busy.
 *
 * A statement's answer arrives as one more event behind everything queued in the event loop, so
 * on PostgreSQL a check that always asks made `/health` wait behind bursts of hostile requests
 * (RELIABILITY.md §8; on SQLite the check is synchronous). The
 * answer is reused while it is younger than `fresh` ms; until `stale` ms it is still answered and
 * a new check runs in the background; older, the caller waits for a new check. Concurrent callers
 * share one check. So `/health` reflects the database as it was at most `stale` ms (plus the
 * check's own time) ago.
 */
import { defineTransport, type HealthContribution, type HealthState, type Transport, type TransportFactory } from '../index.js';

/** Options of {@link HealthCheck}. */
export interface HealthCheckOptions {
  /** Milliseconds an answer is reused as it is (default 500). */
  readonly fresh?: number;
  /** Milliseconds an answer is still given while a new check runs (default 1 000). */
  readonly stale?: number;
  /** Milliseconds a check may take before it counts as "down" (default 2 000). */
  readonly timeout?: number;
  /** The clock, in milliseconds (tests). */
  readonly now?: () => number;
}

/** What one check finds (whether the database answers, and has room to write), checked at most about once per `fresh` ms. */
export class HealthCheck {
  private last: { readonly state: HealthState; readonly at: number } | undefined;
  private running: Promise<HealthState> | undefined;
  private readonly fresh: number;
  private readonly stale: number;
  private readonly timeout: number;
  private readonly now: () => number;

  /** @param check resolves what it found ({@link HealthState}; never rejects: a failure is `false`) */
  constructor(
    private readonly check: () => Promise<HealthState>,
    options: HealthCheckOptions = {},
  ) {
    this.fresh = options.fresh ?? 500;
    this.stale = options.stale ?? 1_000;
    this.timeout = options.timeout ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  /** What the check found, as of at most `stale` ms ago; never rejects. */
  async state(): Promise<HealthState> {
    const age = this.last ? this.now() - this.last.at : Number.POSITIVE_INFINITY;
    if (this.last && age < this.fresh) return this.last.state;
    if (this.last && age < this.stale) {
      void this.refresh();
      return this.last.state;
    }
    return this.refresh();
  }

  /** Runs one check (or joins the one running) and remembers its answer. */
  private refresh(): Promise<HealthState> {
    this.running ??= Promise.race([
      this.check().catch(() => false),
      new Promise<HealthState>((resolve) => setTimeout(() => resolve(false), this.timeout).unref()),
    ]).then((state) => {
      this.last = { state, at: this.now() };
      this.running = undefined;
      return state;
    });
    return this.running;
  }
}

/** The path the health transport serves. */
const HEALTH_PATH = '/health';

/**
 * The `/health` transport: `GET /health` asks every contribution (each through its own
 * {@link HealthCheck}, so at most about twice a second) and answers 200 when all are up, 503
 * otherwise (each field `ok`, `down`, or the word its check gave: `full`), and 503 `draining` once
 * the server is draining (docs/behaviour.md §4.9). Never rejects: a check that fails or times out is `down`.
 */
export function health<Container>(options: HealthCheckOptions = {}): TransportFactory<Container> {
  return defineTransport('health', (): Transport => ({
    name: 'health',
    entrypoints: [{ name: 'health', path: HEALTH_PATH, description: 'health check' }],
    http: {
      placement: 'unmetered',
      paths: [HEALTH_PATH],
      mount: (app, mounted) => {
        const checks = mounted.health.map((contribution: HealthContribution) => ({
          name: contribution.name,
          check: new HealthCheck(contribution.check, options),
        }));
        app.get(HEALTH_PATH, async (_request, response) => {
          const states = await Promise.all(checks.map(async ({ name, check }) => [name, await check.state()] as const));
          const up = states.every(([, state]) => state === true);
          const draining = mounted.draining();
          response.status(up && !draining ? 200 : 503).json({
            status: draining ? 'draining' : up ? 'ok' : 'unavailable',
            ...Object.fromEntries(states.map(([name, state]) => [name, state === true ? 'ok' : state === false ? 'down' : state])),
          });
        });
      },
    },
  }));
}
