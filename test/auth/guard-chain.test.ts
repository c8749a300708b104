// Runs on: sqlite
/**
 * A guard chain (docs/behaviour.md §5.2–§5.4; runtime/auth/guards.ts `runGuards`): guards run once each,
 * in order; a chain whose guards decide at once decides at once (the GraphQL operation is then
 * prepared without a turn of the microtask queue), and a guard that answers with a promise is
 * awaited before the next runs. A guard answering false, at once or later, refuses with FORBIDDEN
 * naming it; a failure it throws, at once or by rejecting, is what refuses; nothing after it runs.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type RequestContext } from '../../runtime/auth/context.js';
import { type CanActivate, type GuardContext, type NamedGuard, runGuards } from '../../runtime/auth/guards.js';
import { FailureError } from '../../runtime/failures/result.js';

const logger = pino({ level: 'silent' });
const start = {
  transport: 'graphql' as const,
  fields: ['Query.users'],
  authentication: { kind: 'anonymous' as const },
  seeded: ANONYMOUS,
};

/** A guard recording that it ran, deciding with `verdict` (a value, a promise, or a throw), seeding `mark`. */
function guard(name: string, ran: string[], verdict: () => boolean | Promise<boolean>, mark?: string): NamedGuard {
  const canActivate = (context: GuardContext): boolean | Promise<boolean> => {
    ran.push(name);
    if (mark) context.seed({ ...context.seeded, transport: 'graphql', observation: { requestId: mark } } as RequestContext);
    return verdict();
  };
  return { name, guard: { canActivate } satisfies CanActivate };
}

describe('runGuards', () => {
  it('decides at once when every guard decides at once, with what the last seeded', () => {
    const ran: string[] = [];
    const seeded = runGuards([guard('a', ran, () => true, 'first'), guard('b', ran, () => true, 'second')], start, logger);
    expect(seeded).not.toBeInstanceOf(Promise);
    expect((seeded as RequestContext).observation?.requestId).toBe('second');
    expect(ran).toEqual(['a', 'b']);
  });

  it('awaits a guard answering with a promise before the next runs, and keeps what each seeded', async () => {
    const ran: string[] = [];
    let settle: (allowed: boolean) => void = () => undefined;
    const pending = runGuards(
      [
        guard('a', ran, () => true, 'first'),
        guard('later', ran, () => new Promise<boolean>((resolve) => (settle = resolve))),
        guard('c', ran, () => true),
      ],
      start,
      logger,
    );
    expect(pending).toBeInstanceOf(Promise);
    expect(ran).toEqual(['a', 'later']);
    settle(true);
    expect((await pending).observation?.requestId).toBe('first');
    expect(ran).toEqual(['a', 'later', 'c']);
  });

  it('refuses with FORBIDDEN naming the guard that answered false, at once or later, and runs nothing after it', async () => {
    const ran: string[] = [];
    expect(() => runGuards([guard('no', ran, () => false), guard('after', ran, () => true)], start, logger)).toThrow(
      expect.objectContaining({ failure: expect.objectContaining({ code: 'FORBIDDEN', message: 'no refused the operation' }) }) as Error,
    );
    await expect(
      runGuards([guard('later-no', ran, () => Promise.resolve(false)), guard('after', ran, () => true)], start, logger),
    ).rejects.toMatchObject({ failure: { code: 'FORBIDDEN', message: 'later-no refused the operation' } });
    expect(ran).toEqual(['no', 'later-no']);
  });

  it("refuses with the failure a guard throws or rejects with, not FORBIDDEN's", async () => {
    const failure = new FailureError({ code: 'UNAUTHENTICATED', message: 'sign in' });
    expect(() =>
      runGuards(
        [
          guard('throws', [], () => {
            throw failure;
          }),
        ],
        start,
        logger,
      ),
    ).toThrow(failure);
    await expect(runGuards([guard('rejects', [], () => Promise.reject(failure))], start, logger)).rejects.toBe(failure);
  });
});
