/**
 * Debian's Chromium driven by playwright-core (no browser download): headless, with background
 * networking off so the machine's closed network is never touched. Playwright gives every launch a
 * fresh profile.
 *
 * Without Chromium, `npm test` still runs (docs/decisions.md §5): the browser tests skip themselves and
 * vitest.config.ts prints one line naming the install command. `REQUIRE_BROWSER=1` (which
 * `.ci/run` sets) turns that skip into a failure, so CI never passes without the browser tests.
 */
import { accessSync, constants } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { TestContext } from 'vitest';

/**
 * Where `apt-get install chromium` puts the browser, unless `TEST_CHROMIUM` names another path
 * (a path with nothing there simulates a machine without Chromium).
 */
const CHROMIUM = process.env.TEST_CHROMIUM || '/usr/bin/chromium';

/** Whether an executable Chromium is at {@link CHROMIUM}. */
export function chromiumInstalled(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a missing Chromium fails the browser tests rather than skipping them (`REQUIRE_BROWSER=1`). */
function browserRequired(): boolean {
  return process.env.REQUIRE_BROWSER === '1';
}

/** The one line `npm test` prints when Chromium is missing: what happens to the browser tests, and the fix. */
export function missingChromiumLine(): string {
  return browserRequired()
    ? `Chromium is not installed (${CHROMIUM}) and REQUIRE_BROWSER=1: the browser tests fail (apt-get install chromium)`
    : `Chromium is not installed (${CHROMIUM}): the browser tests are skipped (apt-get install chromium to run them)`;
}

/**
 * Launches headless Chromium for the test running in `context`. When Chromium is not installed,
 * skips that test, or under `REQUIRE_BROWSER=1` fails it with {@link missingChromiumLine}.
 */
export async function launchChromium(context: TestContext): Promise<Browser> {
  if (!chromiumInstalled()) {
    if (browserRequired()) throw new Error(missingChromiumLine());
    context.skip('Chromium is not installed: apt-get install chromium');
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
