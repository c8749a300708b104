/**
 * The database check behind /health (runtime/transports/health/index.ts): reused while fresh, answered stale while
 * a new check runs, waited for once too old; one check for concurrent callers; a check that fails
 * or hangs is "down".
 */
import { describe, expect, it } from 'vitest';
import { HealthCheck } from '../../runtime/transports/health/index.js';

/** A database whose answers the test controls, and a clock it moves. */
function harness(options: { timeout?: number } = {}) {
  let time = 0;
  let reachable = true;
  let checks = 0;
  let release: (() => void) | undefined;
  let hold = false;
  const check = new HealthCheck(
    () => {
      checks += 1;
      if (!hold) return Promise.resolve(reachable);
      return new Promise<boolean>((resolve) => (release = () => resolve(reachable)));
    },
    { fresh: 500, stale: 1_000, now: () => time, ...options },
  );
  return {
    check,
    at: (ms: number) => (time = ms),
    set: (value: boolean) => (reachable = value),
    hold: (value: boolean) => (hold = value),
    release: () => release?.(),
    checks: () => checks,
  };
}

describe('HealthCheck', () => {
  it('reuses a fresh answer, answers a stale one while checking again, and waits once it is too old', async () => {
    const h = harness();
    expect(await h.check.state()).toBe(true);
    expect(h.checks()).toBe(1);
    h.set(false);
    h.at(499);
    expect(await h.check.state()).toBe(true);
    expect(h.checks()).toBe(1);
    h.at(600);
    // Stale: the old answer now, a new check behind it.
    expect(await h.check.state()).toBe(true);
    expect(h.checks()).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await h.check.state()).toBe(false);
    expect(h.checks()).toBe(2);
    h.set(true);
    h.at(5_000);
    expect(await h.check.state()).toBe(true);
    expect(h.checks()).toBe(3);
  });

  it('shares one check among concurrent callers', async () => {
    const h = harness();
    h.hold(true);
    const answers = Promise.all([h.check.state(), h.check.state(), h.check.state()]);
    h.release();
    expect(await answers).toEqual([true, true, true]);
    expect(h.checks()).toBe(1);
  });

  it("remembers a check's word for why it is not up (the database's `full`) as it remembers down", async () => {
    let state: boolean | string = 'full';
    const check = new HealthCheck(() => Promise.resolve(state), { fresh: 500, stale: 1_000, now: () => 0 });
    expect(await check.state()).toBe('full');
    state = true;
    expect(await check.state()).toBe('full');
  });

  it('counts a check that rejects or outlasts its timeout as down', async () => {
    expect(await new HealthCheck(() => Promise.reject(new Error('connection refused'))).state()).toBe(false);
    const h = harness({ timeout: 20 });
    h.hold(true);
    expect(await h.check.state()).toBe(false);
  });
});
