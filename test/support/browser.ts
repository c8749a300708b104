/**
 * Debian's Chromium driven by playwright-core (no browser download): headless, with background
 * networking off so the machine's closed network is never touched. Playwright gives every launch a
 * fresh profile.
 */
import { type Browser, chromium } from 'playwright-core';

/** Where `apt-get install chromium` puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
