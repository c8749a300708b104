// Runs on: sqlite, postgresql
/**
 * Crashes (RELIABILITY.md §5): the server is killed with SIGKILL in the middle of a stream of concurrent
 * writes, several times over, and restarted on the same database each time. Every write that was
 * acknowledged (201 with its id) must be stored and readable after the restart; the database
 * must open cleanly (SQLite in WAL mode: `PRAGMA integrity_check` is `ok`; PostgreSQL: the server
 * boots and reads). Runs on the provider under test.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../runtime/auth/authentication.js';
import { TEST_SECRET } from '../support/project.js';
import { testProvider } from '../support/database.js';
import { reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const WRITERS = 8;

describe(`kill -9 during writes (${testProvider()})`, () => {
  const tally = { kills: 0, acknowledged: 0, attempted: 0, lostAfterAck: 0 };
  afterAll(() => reportFigures({ suite: `crash (${testProvider()})`, ...tally }));

  it(`keeps every acknowledged write across ${KILLS} kills`, async () => {
    let server: TestServer = await startTestServer({ seed: { orgs: 1, users: 3, posts: 1 } });
    const databaseUrl = server.databaseUrl;
    const admin = server.user('admin');
    const token = await mintToken(TEST_SECRET, { sub: admin.id, org_id: admin.orgId, role: admin.role });
    const acknowledged = new Map<string, string>();

    for (let round = 0; round < KILLS; round += 1) {
      let stop = false;
      let sequence = 0;
      const target = server;
      const writer = async (): Promise<void> => {
        while (!stop) {
          const title = `crash round ${round} write ${(sequence += 1)}`;
          tally.attempted += 1;
          try {
            const response = await target.fetch('/v2/posts', {
              method: 'POST',
              token,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ title }),
            });
            if (response.status !== 201) throw new Error(`write answered ${response.status}: ${await response.text()}`);
            const { id } = (await response.json()) as { id: string };
            acknowledged.set(id, title);
          } catch (error) {
            // A write cut off by the kill was never acknowledged: it may or may not be stored.
            if (!stop) throw error;
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, () => writer());
      // Kill at a different moment each round, once writes are flowing.
      const ackedBefore = acknowledged.size;
      await expect.poll(() => acknowledged.size - ackedBefore, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(20 + round * 37);
      stop = true;
      target.kill('SIGKILL');
      expect((await target.exited).signal).toBe('SIGKILL');
      tally.kills += 1;
      await Promise.all(writers);

      if (databaseUrl.startsWith('file:')) {
        const file = new Database(databaseUrl.slice('file:'.length));
        try {
          expect(file.pragma('journal_mode', { simple: true })).toBe('wal');
          expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          file.close();
        }
      }

      server = await startTestServer({ databaseUrl });
      const missing: string[] = [];
      for (const [id, title] of acknowledged) {
        const response = await server.fetch(`/v2/posts/${id}`, { token });
        if (response.status !== 200 || ((await response.json()) as { title: string }).title !== title) missing.push(id);
      }
      tally.lostAfterAck += missing.length;
      expect(missing, 'acknowledged writes missing after the restart').toEqual([]);
    }

    // Every acknowledged row is also in the list, once.
    const listed = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const response = await server.fetch(`/v2/posts?first=100${after ? `&after=${after}` : ''}`, { token });
      for (const post of (await response.json()) as { id: string }[]) listed.add(post.id);
      after = response.headers.get('x-next-cursor') ?? undefined;
      if (!after) break;
    }
    expect([...acknowledged.keys()].filter((id) => !listed.has(id))).toEqual([]);
    tally.acknowledged = acknowledged.size;
    await server.stop();
  }, 180_000);
});
