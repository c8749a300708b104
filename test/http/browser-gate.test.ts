/**
 * `npm test` on a machine without Chromium (docs/decisions.md §5, docs/how-to.md "Run the tests"): the browser tests skip
 * themselves, announced by one line that names the install command, and everything else runs;
 * under `REQUIRE_BROWSER=1` (what `.ci/run` sets) they fail instead. A machine without Chromium is
 * simulated by pointing `TEST_CHROMIUM` at a path with nothing there, and vitest runs the `/api`
 * browser suite (test/http/openapi.test.ts) as a child process.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, scratchDir } from '../support/project.js';

const MISSING = path.join(os.tmpdir(), 'no-such-dir', 'chromium');
const BROWSER_TEST = 'lists the operations of the version picked (Swagger UI from npm assets, no CDN)';

interface Results {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

/** Runs `vitest run test/http/openapi.test.ts` on SQLite as `npm test` would, with Chromium missing. */
function vitestWithoutChromium(env: Record<string, string>, filter?: string): { run: SpawnSyncReturns<string>; results: Results } {
  const output = path.join(scratchDir('rs-browser-gate-'), 'results.json');
  // The child is a vitest run of its own, not a worker of this one; a URL that is set keeps its
  // global setup from starting a PostgreSQL cluster the sqlite project does not use.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['REQUIRE_BROWSER', 'TEST_DATABASE'].includes(name)),
  );
  const run = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      'test/http/openapi.test.ts',
      '--project',
      'sqlite',
      ...(filter ? ['-t', filter] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${output}`,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { TEST_POSTGRES_URL: 'postgres://unused@127.0.0.1:1/unused', ...inherited, NO_COLOR: '1', TEST_CHROMIUM: MISSING, ...env },
      timeout: 120_000,
    },
  );
  return { run, results: JSON.parse(readFileSync(output, 'utf8')) as Results };
}

const browserTest = (results: Results) =>
  results.testResults.flatMap((file) => file.assertionResults).find((test) => test.title === BROWSER_TEST);

describe('npm test without Chromium', () => {
  it('skips the browser tests with one line naming the install command, and runs the rest', () => {
    const { run, results } = vitestWithoutChromium({});
    const output = `${run.stdout}${run.stderr}`;
    expect(output.split('\n').filter((line) => line.includes('Chromium'))).toEqual([
      `Chromium is not installed (${MISSING}): the browser tests are skipped (apt-get install chromium to run them)`,
    ]);
    expect(run.status).toBe(0);
    expect(browserTest(results)?.status).toBe('skipped');
    expect([results.numFailedTests, results.numPendingTests]).toEqual([0, 1]);
    expect(results.numPassedTests).toBeGreaterThan(10);
  }, 120_000);

  it('fails them instead under REQUIRE_BROWSER=1, as in CI', () => {
    const { run, results } = vitestWithoutChromium({ REQUIRE_BROWSER: '1' }, 'in a browser');
    expect(run.status).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toContain(
      `Chromium is not installed (${MISSING}) and REQUIRE_BROWSER=1: the browser tests fail (apt-get install chromium)`,
    );
    expect(browserTest(results)).toMatchObject({
      status: 'failed',
      failureMessages: [expect.stringContaining('apt-get install chromium')],
    });
    expect(results.numFailedTests).toBe(1);
  }, 120_000);
});
