// Runs on: postgresql
/**
 * Metrics of a cluster (docs/behaviour.md §12.2): with two workers, one scrape shows the whole
 * server — on the metrics port the primary serves, or on the main port behind the token, whichever
 * worker answers it. Runs in the postgresql project only (several workers need PostgreSQL).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/** The count of `/health` requests in an exposition, summed over its samples. */
function healthRequests(text: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_request_duration_seconds_count{') && line.includes('route="/health"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** Sends `count` requests to `/health`, each on a connection of its own (so the workers share them). */
async function sendHealthRequests(server: TestServer, count: number): Promise<void> {
  for (let index = 0; index < count; index++) await (await server.fetch('/health', { headers: { connection: 'close' } })).arrayBuffer();
}

/** The pids of the workers that wrote an access line for `/health`. */
function servingPids(server: TestServer): Set<unknown> {
  return new Set(server.logs.filter((entry) => entry.route === '/health' && typeof entry.status === 'number').map((entry) => entry.pid));
}

describe('two workers (APP_HTTP__WORKERS=2) with metrics on', () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('serves the sum of both workers on the metrics port the primary opens', async () => {
    server = await startTestServer({ env: { APP_HTTP__WORKERS: '2', APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0' } });
    const metrics = server.logs.find((entry) => typeof entry.metrics === 'string' && String(entry.msg).startsWith('serving metrics'))
      ?.metrics as string | undefined;
    expect(metrics).toMatch(/\/metrics$/);
    await sendHealthRequests(server, 20);
    expect(servingPids(server).size).toBe(2);
    const text = await (await fetch(metrics ?? '')).text();
    expect(healthRequests(text)).toBe(20);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('answers the sum of both workers on the main port behind the token, whichever worker is asked', async () => {
    const token = 'cluster-metrics-token-0123456789';
    server = await startTestServer({ env: { APP_HTTP__WORKERS: '2', APP_METRICS__ENABLED: 'true', APP_METRICS__TOKEN: token } });
    expect(server.logs.some((entry) => String(entry.msg).startsWith('serving metrics'))).toBe(false);
    await sendHealthRequests(server, 20);
    expect(servingPids(server).size).toBe(2);
    for (let scrape = 0; scrape < 4; scrape++) {
      const response = await server.fetch('/metrics', { headers: { authorization: `Bearer ${token}`, connection: 'close' } });
      expect(response.status).toBe(200);
      expect(healthRequests(await response.text())).toBe(20);
    }
    expect((await server.fetch('/metrics', { headers: { connection: 'close' } })).status).toBe(401);
  });
});
