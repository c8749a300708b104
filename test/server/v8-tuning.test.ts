/**
 * The V8 settings the server runs with (docs/decisions.md §6, "An old generation sized to what it
 * holds"): after a full collection the old generation may grow to 1.5 times what survived it, not
 * V8's up to 4, unless the process was started with its own `--heap-growing-percent`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/project.js';

/** Runs the heap-growth fixture in a child Node with `flags`; how far its old generation grew past what stayed alive. */
function growth(flags: readonly string[]): number {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', ...flags, '--import', 'tsx', path.join(ROOT, 'test/fixtures/heap-growth.ts')],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  const { base, ratio } = JSON.parse(result.stdout.trim()) as { base: number; ratio: number };
  expect(base).toBeGreaterThan(25);
  return ratio;
}

describe('V8 tuning for serving', () => {
  it('keeps the old generation near what it holds, and leaves a --heap-growing-percent given on the command line alone', () => {
    const tuned = growth([]);
    // Factor 1.5, plus V8's minimum step and what the churn itself keeps alive.
    expect(tuned).toBeLessThan(2.9);
    // The operator's own factor (4) wins over the server's.
    const given = growth(['--heap-growing-percent=300']);
    expect(given).toBeGreaterThan(3.2);
  }, 120_000);
});
