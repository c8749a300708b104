/**
 * The MCP host's session table (runtime/transports/mcp/sessions.ts; docs/hostile-input.md §7):
 * bounded in number (one more closes the least recently used) and in idle time, bound to the caller
 * who opened each session, and closed whole at shutdown.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionTable, type TableSession } from '../runtime/transports/mcp/sessions.js';

function session(owner: string, closed: string[], name: string): TableSession {
  return {
    owner,
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
    const table = new SessionTable(10, 60_000, () => undefined);
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
    const table = new SessionTable(2, 60_000, (id, reason) => evicted.push(`${id}:${reason}`));
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
    const table = new SessionTable(10, 10_000, () => undefined);
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
});
