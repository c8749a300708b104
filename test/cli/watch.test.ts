/**
 * `generate --watch` (docs/decisions.md §10): the real command in a copy of the project, edited
 * as a developer would — the `ok` line and how soon it comes, diagnostics that do not end the
 * process, a schema change writing a migration named after its SQL; and the watcher under it: its
 * bursts and serialised runs (generator/watch.ts).
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeBatch, DeclarationWatcher } from '../../generator/watch.js';
import { copyProject, editFile, type RunningCli, startCli } from '../support/cli.js';
import { scratchDir } from '../support/project.js';

/** How soon a change that leaves the Prisma schema alone must be reported (docs/decisions.md §10). */
const OK_WITHIN = 500;

/** `ok, N files changed in T ms` lines printed so far. */
function okLines(stdout: string): { files: number; ms: number; rest: string }[] {
  return [...stdout.matchAll(/^ok, (\d+) files changed in (\d+) ms(.*)$/gm)].map((match) => ({
    files: Number(match[1]),
    ms: Number(match[2]),
    rest: match[3] ?? '',
  }));
}

describe('generate --watch, on a copy of the project', () => {
  let project: string;
  let watching: RunningCli;

  beforeAll(async () => {
    project = copyProject();
    watching = startCli(['generate', '--watch'], { cwd: project });
    await watching.waitFor((stdout) => stdout.includes('watching entities/ for changes'), 90_000);
  }, 120_000);

  afterAll(async () => {
    const code = await watching.stop();
    rmSync(project, { recursive: true, force: true });
    // SIGTERM ends it cleanly.
    expect(code).toBe(0);
  });

  /** Waits for the `n`-th ok line; returns it with the milliseconds from `since` until it arrived. */
  async function nthOk(n: number, since: number): Promise<{ files: number; ms: number; rest: string; observed: number }> {
    await watching.waitFor((stdout) => okLines(stdout).length >= n, 60_000);
    const line = okLines(watching.stdout())[n - 1];
    if (!line) throw new Error('no ok line');
    return { ...line, observed: performance.now() - since };
  }

  it('reports a change to a resolver as ok within 0.5 s, once per burst', async () => {
    expect(okLines(watching.stdout())).toEqual([{ files: 0, ms: expect.any(Number) as number, rest: '' }]);
    // A first change warms the process; the second is measured.
    editFile(project, 'entities/post.resolver.ts', (text) => text.replace('One post by id;', 'One post, by id;'));
    const warm = await nthOk(2, performance.now());
    expect(warm.files).toBe(3);
    const saved = performance.now();
    editFile(project, 'entities/post.resolver.ts', (text) => text.replace('One post, by id;', 'One post by its id;'));
    const measured = await nthOk(3, saved);
    // schema.graphql (the description) and graphql/resolvers.ts (its JSDoc).
    expect(measured.files).toBe(3);
    expect(measured.ms).toBeLessThanOrEqual(OK_WITHIN);
    // What the test saw, pipe and scheduling included, on a machine running other suites beside it.
    expect(measured.observed).toBeLessThan(OK_WITHIN * 2);
    expect(readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8')).toContain('One post by its id;');

    // Three files saved at once are one run.
    editFile(project, 'entities/post.resolver.ts', (text) => text.replace('One post by its id;', 'One post by id;'));
    editFile(project, 'entities/notification.resolver.ts', (text) => text.replace(/\n$/, '\n// saved again\n'));
    editFile(project, 'entities/user.resolver.ts', (text) => text.replace(/\n$/, '\n// saved again\n'));
    const burst = await nthOk(4, performance.now());
    expect(burst.files).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(okLines(watching.stdout())).toHaveLength(4);
    // A file the generator does not read starts nothing.
    writeFileSync(path.join(project, 'entities/notes.md'), 'not TypeScript\n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(okLines(watching.stdout())).toHaveLength(4);
  }, 120_000);

  it('prints the diagnostics of an invalid declaration, keeps running, and is ok again once it is fixed', async () => {
    const resolver = path.join(project, 'entities/notification.resolver.ts');
    const original = readFileSync(resolver, 'utf8');
    const routes = readFileSync(path.join(project, 'generated/graphql/resolvers.ts'), 'utf8');
    const before = okLines(watching.stdout()).length;
    writeFileSync(resolver, original.replace("  @Authorized('read', Notification)\n", ''));
    await watching.waitForStderr((stderr) => stderr.includes('1 error, 0 warnings'), 30_000);
    expect(watching.stderr()).toContain(
      "entities/notification.resolver.ts:14:3 error operation-posture-missing: Query.notifications (NotificationResolver.notifications) has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately",
    );
    expect(watching.stderr()).not.toMatch(/\n\s+at /);
    // Nothing written, and the process lives on.
    expect(readFileSync(path.join(project, 'generated/graphql/resolvers.ts'), 'utf8')).toBe(routes);
    expect(watching.child.exitCode).toBeNull();
    expect(okLines(watching.stdout())).toHaveLength(before);

    // The fix is ok again.
    writeFileSync(resolver, original);
    const fixed = await nthOk(before + 1, performance.now());
    expect(fixed.files).toBe(0);
    expect(watching.child.exitCode).toBeNull();
  }, 60_000);

  it('prints a TypeScript error in entities/ as a warning after the cycle, and keeps running', async () => {
    const entity = path.join(project, 'entities/org.entity.ts');
    const original = readFileSync(entity, 'utf8');
    const before = okLines(watching.stdout()).length;
    writeFileSync(entity, `${original}export const broken: number = 'x';\n`);
    // Generating does not wait for the checker: the ok line comes first, the warning when the check answers.
    await nthOk(before + 1, performance.now());
    await watching.waitForStderr(
      (stderr) => stderr.includes("warning type-error: TS2322: Type 'string' is not assignable to type 'number'."),
      90_000,
    );
    expect(watching.stderr()).toContain(`entities/org.entity.ts:${String(original.split('\n').length)}:14 warning type-error`);
    expect(watching.child.exitCode).toBeNull();
    writeFileSync(entity, original);
    await nthOk(before + 2, performance.now());
  }, 120_000);

  it('writes a migration named after its SQL when the schema changes, and survives a removed file', async () => {
    const before = okLines(watching.stdout()).length;
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace(
        '  /** Set when the post is published. */',
        '  /** A one-line summary. */\n  @Column()\n  summary?: string | null;\n\n  /** Set when the post is published. */',
      ),
    );
    const migrated = await nthOk(before + 1, performance.now());
    expect(migrated.rest).toMatch(/^, new migration \d{4}_add_post_summary$/);
    expect(migrated.files).toBeGreaterThan(2);
    const name = /new migration (\S+)/.exec(migrated.rest)?.[1] ?? '';
    for (const database of ['sqlite', 'postgresql'])
      expect(readFileSync(path.join(project, `generated/prisma/${database}/migrations/${name}/migration.sql`), 'utf8')).toContain(
        '"summary" TEXT',
      );

    // Removing a file another imports is an error like any other.
    const notification = readFileSync(path.join(project, 'entities/notification.entity.ts'), 'utf8');
    unlinkSync(path.join(project, 'entities/notification.entity.ts'));
    await watching.waitForStderr((stderr) => (stderr.match(/\d+ errors?, \d+ warnings?/g) ?? []).length >= 2, 30_000);
    expect(watching.child.exitCode).toBeNull();
    writeFileSync(path.join(project, 'entities/notification.entity.ts'), notification);
    await nthOk(before + 2, performance.now());
  }, 90_000);
});

describe('the watcher (generator/watch.ts)', () => {
  let dir: string;

  beforeAll(() => {
    dir = scratchDir('rs-watch-');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one batch per burst, never two at once, and goes on after a batch throws', async () => {
    const batches: ChangeBatch[] = [];
    const errors: unknown[] = [];
    let running = 0;
    let overlapped = false;
    let release: (() => void) | undefined;
    const watcher = new DeclarationWatcher({
      dir,
      quiet: 50,
      onBatch: async (batch) => {
        running += 1;
        overlapped ||= running > 1;
        batches.push(batch);
        if (batch.files.includes('slow.ts')) await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
        if (batch.files.includes('boom.ts')) throw new Error('boom');
      },
      onError: (error) => errors.push(error),
    });
    await watcher.start();
    try {
      const until = async (check: () => boolean): Promise<void> => {
        for (let waited = 0; !check(); waited += 20) {
          if (waited > 10_000) throw new Error('timed out');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      // A burst of five saves, and a file the generator does not read: one batch of the five.
      for (const name of ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'x.d.ts', 'swap.tmp'])
        writeFileSync(path.join(dir, name), 'export {};\n');
      await until(() => batches.length === 1);
      expect(batches[0]?.files).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']);
      // Saves while a batch runs make the next batch, after it.
      writeFileSync(path.join(dir, 'slow.ts'), 'export {};\n');
      await until(() => release !== undefined);
      writeFileSync(path.join(dir, 'a.ts'), 'export const a = 1;\n');
      unlinkSync(path.join(dir, 'b.ts'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(batches).toHaveLength(2);
      release?.();
      await until(() => batches.length === 3);
      expect(batches[2]?.files).toEqual(['a.ts', 'b.ts']);
      // A batch that throws is reported; the next change still runs.
      writeFileSync(path.join(dir, 'boom.ts'), 'export {};\n');
      await until(() => errors.length === 1);
      writeFileSync(path.join(dir, 'c.ts'), 'export const c = 1;\n');
      await until(() => batches.length === 5);
      expect(overlapped).toBe(false);
      expect(batches.every((batch) => batch.firstEventAt <= performance.now())).toBe(true);
    } finally {
      await watcher.close();
    }
  }, 30_000);
});
