/**
 * The MCP host's session table (runtime/transports/mcp/sessions.ts; docs/hostile-input.md §7):
 * bounded in number per pool (one more closes the pool's least recently used) and per caller, in
 * idle time, bound to the caller who opened each session, and closed whole at shutdown; anonymous
 * sessions never close signed-in ones, whatever the order and mix of openings (generated).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SessionLimits, SessionTable, type TableSession } from '../../runtime/transports/mcp/sessions.js';

/** Limits large enough not to matter in a test about something else. */
const ROOMY: SessionLimits = { signedIn: 10, anonymous: 10, perCaller: 10 };

function session(owner: string, closed: string[], name: string, options: { quota?: string; anonymous?: boolean } = {}): TableSession {
  return {
    owner,
    quota: options.quota ?? owner,
    anonymous: options.anonymous ?? owner === 'anonymous',
    close: () => {
      closed.push(name);
      return Promise.resolve();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('MCP sessions', () => {
  it('answers a session only to the caller who opened it', async () => {
    const table = new SessionTable(ROOMY, 60_000, () => undefined);
    const alice = session('alice', [], 'a');
    table.add('a', alice);
    expect(table.use('a', 'alice')).toBe(alice);
    expect(table.use('a', 'mallory')).toBeUndefined();
    expect(table.use('a', 'anonymous')).toBeUndefined();
    expect(table.use('missing', 'alice')).toBeUndefined();
    await table.closeAll();
  });

  it('closes the least recently used session when one more is opened past the limit', async () => {
    const closed: string[] = [];
    const evicted: string[] = [];
    const table = new SessionTable({ ...ROOMY, signedIn: 2 }, 60_000, (id, reason) => evicted.push(`${id}:${reason}`));
    table.add('a', session('x', closed, 'a'));
    table.add('b', session('x', closed, 'b'));
    table.use('a', 'x');
    table.add('c', session('x', closed, 'c'));
    expect(closed).toEqual(['b']);
    expect(evicted).toEqual(['b:capacity']);
    expect(table.size).toBe(2);
    expect(table.use('b', 'x')).toBeUndefined();
    await table.closeAll();
    expect(closed.sort()).toEqual(['a', 'b', 'c']);
    expect(table.size).toBe(0);
  });

  it('closes sessions unused for longer than the idle timeout, and keeps the ones in use', async () => {
    vi.useFakeTimers();
    const closed: string[] = [];
    const table = new SessionTable(ROOMY, 10_000, () => undefined);
    table.add('idle', session('x', closed, 'idle'));
    table.add('busy', session('x', closed, 'busy'));
    for (let second = 0; second < 15; second++) {
      await vi.advanceTimersByTimeAsync(1_000);
      table.use('busy', 'x');
    }
    expect(closed).toEqual(['idle']);
    expect(table.use('busy', 'x')).toBeDefined();
    await table.closeAll();
  });

  it("closes a caller's own least recently used session past its limit, not another caller's", async () => {
    const closed: string[] = [];
    const table = new SessionTable({ ...ROOMY, perCaller: 2 }, 60_000, () => undefined);
    table.add('a1', session('alice', closed, 'a1'));
    table.add('b1', session('bob', closed, 'b1'));
    table.add('a2', session('alice', closed, 'a2'));
    table.add('a3', session('alice', closed, 'a3'));
    expect(closed).toEqual(['a1']);
    expect(table.use('b1', 'bob')).toBeDefined();
    await table.closeAll();
  });

  it('keeps every signed-in session however many anonymous ones are opened, from any addresses (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ anonymous: fc.boolean(), caller: fc.integer({ min: 0, max: 5 }) }), { maxLength: 80 }),
        fc.record({
          signedIn: fc.integer({ min: 1, max: 8 }),
          anonymous: fc.integer({ min: 1, max: 8 }),
          perCaller: fc.integer({ min: 1, max: 4 }),
        }),
        async (openings, limits) => {
          const closed: string[] = [];
          const table = new SessionTable(limits, 60_000, () => undefined);
          const open = new Map<string, TableSession>();
          for (const [index, opening] of openings.entries()) {
            const owner = opening.anonymous ? 'anonymous' : `user-${opening.caller}`;
            const quota = opening.anonymous ? `anonymous-${opening.caller}` : owner;
            const id = String(index);
            const added = session(owner, closed, id, { quota, anonymous: opening.anonymous });
            const signedInBefore = [...open].filter(([key, value]) => !value.anonymous && !closed.includes(key)).map(([key]) => key);
            table.add(id, added);
            open.set(id, added);
            // An anonymous opening closes no signed-in session.
            if (opening.anonymous) for (const key of signedInBefore) expect(closed).not.toContain(key);
          }
          // Every pool and every caller within its limit.
          const live = [...open].filter(([key]) => !closed.includes(key)).map(([, value]) => value);
          expect(live.filter((value) => value.anonymous).length).toBeLessThanOrEqual(limits.anonymous);
          expect(live.filter((value) => !value.anonymous).length).toBeLessThanOrEqual(limits.signedIn);
          for (const quota of new Set(live.map((value) => value.quota)))
            expect(live.filter((value) => value.quota === quota).length).toBeLessThanOrEqual(limits.perCaller);
          expect(table.size).toBe(live.length);
          await table.closeAll();
        },
      ),
      { numRuns: 200 },
    );
  });
});
