/**
 * `GET /health` (docs/decisions.md §4; docs/guide/deployment.md "Several hosts behind a load balancer"): 200 `{ "status": "ok", "db": "ok" }`, or 503
 * `{ "status": "unavailable", "db": "down" }` when a check fails — one field per
 * {@link HealthContribution} of the server's transports, the database's (`db`) first — or 503
 * `{ "status": "draining", … }` once a shutdown has begun (docs/behaviour.md §4.9). Mounted
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
import { defineTransport, type HealthContribution, type Transport, type TransportFactory } from '../index.js';

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

/** Whether the database answers, checked at most about once per `fresh` ms. */
export class HealthCheck {
  private last: { readonly reachable: boolean; readonly at: number } | undefined;
  private running: Promise<boolean> | undefined;
  private readonly fresh: number;
  private readonly stale: number;
  private readonly timeout: number;
  private readonly now: () => number;

  /** @param check resolves whether the database answered (never rejects: a failure is `false`) */
  constructor(
    private readonly check: () => Promise<boolean>,
    options: HealthCheckOptions = {},
  ) {
    this.fresh = options.fresh ?? 500;
    this.stale = options.stale ?? 1_000;
    this.timeout = options.timeout ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether the database is reachable, as of at most `stale` ms ago; never rejects. */
  async reachable(): Promise<boolean> {
    const age = this.last ? this.now() - this.last.at : Number.POSITIVE_INFINITY;
    if (this.last && age < this.fresh) return this.last.reachable;
    if (this.last && age < this.stale) {
      void this.refresh();
      return this.last.reachable;
    }
    return this.refresh();
  }

  /** Runs one check (or joins the one running) and remembers its answer. */
  private refresh(): Promise<boolean> {
    this.running ??= Promise.race([
      this.check().catch(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), this.timeout).unref()),
    ]).then((reachable) => {
      this.last = { reachable, at: this.now() };
      this.running = undefined;
      return reachable;
    });
    return this.running;
  }
}

/** The path the health transport serves. */
const HEALTH_PATH = '/health';

/**
 * The `/health` transport: `GET /health` asks every contribution (each through its own
 * {@link HealthCheck}, so at most about twice a second) and answers 200 when all are up, 503
 * otherwise, and 503 `draining` once the server is draining (docs/behaviour.md §4.9). Never
 * rejects: a check that fails or times out is `down`.
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
          const states = await Promise.all(checks.map(async ({ name, check }) => [name, await check.reachable()] as const));
          const up = states.every(([, reachable]) => reachable);
          const draining = mounted.draining();
          response.status(up && !draining ? 200 : 503).json({
            status: draining ? 'draining' : up ? 'ok' : 'unavailable',
            ...Object.fromEntries(states.map(([name, reachable]) => [name, reachable ? 'ok' : 'down'])),
          });
        });
      },
    },
  }));
}
