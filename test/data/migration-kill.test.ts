// Runs on: sqlite, postgresql
/**
 * Migrations survive a kill (docs/decisions.md §11, RELIABILITY.md §5): `migrate deploy`, run through
 * the CLI on a copy of the demo with two pending migrations — one slow (it creates a table, fills it
 * with 300 000 rows, indexes it and alters `Post`), then one filling 100 000 — gets SIGKILL at points swept across
 * its whole run, on a fresh copy of one seeded database each time. A kill must leave each migration
 * either pending (no record, none of its changes) or applied (recorded finished, all of them), and
 * the next deploy must either complete or name the `migrate resolve` that the database bears out;
 * following it, the deploy completes with the schema whole and the data intact. On SQLite every copy
 * kept before a deploy must open whole. Then the states an earlier version's kill could leave (a
 * migration recorded as started, its changes committed or not or in part) and a hand-edited script
 * that ends its own transaction: deploy, status and resolve must say what is true.
 */
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterFactory } from '../../runtime/data/database.js';
import { applyMigrations, migrationStatus, readMigrationFolders, renderMigrationChecksums } from '../../runtime/data/migrations.js';
import { cli, copyProject, startCli } from '../support/cli.js';
import { createPostgresDatabase, seedDatabase, testProvider } from '../support/database.js';
import { reportFigures } from '../support/properties.js';
import { scratchDir } from '../support/project.js';

const provider = testProvider();
/** Kill points swept across one deploy's run (`MIGRATION_KILLS` for more). */
const KILL_POINTS = Number(process.env.MIGRATION_KILLS ?? 12);
const FILLED_ROWS = 300_000;

/** The migrations this suite adds to the demo's four: ballast applied before the kills (so SQLite's copy takes a while), then the two deployed. */
const BALLAST = '0005_fill_ballast';
const SLOW = '0006_fill_kill_rows';
const SECOND = '0007_fill_kill_after';
const PENDING = [SLOW, SECOND] as const;
const SECOND_ROWS = 100_000;
const SCRIPTS: Record<string, string> = {
  [BALLAST]: `CREATE TABLE "Ballast" ("id" INTEGER NOT NULL PRIMARY KEY, "payload" TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
INSERT INTO "Ballast" ("id", "payload") SELECT i, 'ballast row ' || i || ' keeps the copy before a deploy busy for a while; ballast, ballast, ballast' FROM n;
`,
  [SLOW]: `CREATE TABLE "KillFill" ("id" INTEGER NOT NULL PRIMARY KEY, "label" TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${FILLED_ROWS})
INSERT INTO "KillFill" ("id", "label") SELECT i, 'row ' || i FROM n;
CREATE INDEX "KillFill_label_idx" ON "KillFill"("label");
ALTER TABLE "Post" ADD COLUMN "killNote" TEXT;
`,
  [SECOND]: `CREATE TABLE "KillAfter" ("id" INTEGER NOT NULL PRIMARY KEY, "note" TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SECOND_ROWS})
INSERT INTO "KillAfter" ("id", "note") SELECT i, 'note ' || i FROM n;
CREATE INDEX "KillAfter_note_idx" ON "KillAfter"("note");
`,
};

/** Writes `name`'s folder with `script` into `dir` and records the folders' checksums, as `generate --accept-edited-migrations` would. */
function writeMigration(dir: string, name: string, script: string): void {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, 'migration.sql'), script);
  writeFileSync(path.join(dir, 'checksums.json'), renderMigrationChecksums(readMigrationFolders(dir)));
}

/** Runs `sql` (a script, or one `SELECT`) on the database at `url` with its driver; the rows of the last statement. */
async function run(url: string, sql: string): Promise<Record<string, unknown>[]> {
  if (provider === 'sqlite') {
    const database = new Database(url.slice('file:'.length));
    try {
      if (/^\s*SELECT/i.test(sql)) return database.prepare(sql).all() as Record<string, unknown>[];
      database.exec(sql);
      return [];
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = (await client.query(sql)) as pg.QueryResult | pg.QueryResult[];
    return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** The tables of the database at `url`. */
async function tables(url: string): Promise<Set<string>> {
  const rows =
    provider === 'sqlite'
      ? await run(url, "SELECT name FROM sqlite_master WHERE type = 'table'")
      : await run(url, 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
  return new Set(rows.map((row) => String(row.name)));
}

/** Whether `Post` has the column the slow migration adds. */
async function hasKillNote(url: string): Promise<boolean> {
  const rows =
    provider === 'sqlite'
      ? await run(url, `SELECT name FROM pragma_table_info('Post') WHERE name = 'killNote'`)
      : await run(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'Post' AND column_name = 'killNote'`);
  return rows.length > 0;
}

/** What of a migration's changes the database holds, looked at directly. */
type Changes = 'absent' | 'present' | 'partial';

async function changesOf(url: string, name: string): Promise<Changes> {
  const present = await tables(url);
  const parts =
    name === SLOW
      ? [
          present.has('KillFill') && Number((await run(url, 'SELECT COUNT(*) AS n FROM "KillFill"'))[0]?.n) === FILLED_ROWS,
          await hasKillNote(url),
        ]
      : [present.has('KillAfter') && Number((await run(url, 'SELECT COUNT(*) AS n FROM "KillAfter"'))[0]?.n) === SECOND_ROWS];
  return parts.every(Boolean) ? 'present' : parts.some(Boolean) ? 'partial' : 'absent';
}

/** How the database records a migration: no row, finished, or started and not finished (with its reason, or none). */
type Record_ = 'none' | 'finished' | 'failed' | 'interrupted';

async function recordOf(url: string, name: string): Promise<Record_> {
  const rows = await run(
    url,
    `SELECT finished_at, logs FROM _prisma_migrations WHERE migration_name = '${name}' AND rolled_back_at IS NULL ORDER BY started_at`,
  );
  const row = rows.at(-1);
  if (row === undefined) return 'none';
  if (row.finished_at !== null) return 'finished';
  return typeof row.logs === 'string' && row.logs !== '' ? 'failed' : 'interrupted';
}

/** Every applied migration is recorded finished exactly once, nothing unfinished is left, the schema is whole and the data intact. */
async function expectComplete(url: string, posts: number): Promise<void> {
  const rows = await run(url, 'SELECT migration_name, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL');
  expect(rows.filter((row) => row.finished_at === null)).toEqual([]);
  const names = rows.map((row) => String(row.migration_name)).sort();
  expect(new Set(names).size, names.join(', ')).toBe(names.length);
  expect(names).toEqual(expect.arrayContaining([BALLAST, ...PENDING]));
  for (const name of PENDING) expect(await changesOf(url, name), name).toBe('present');
  expect(await run(url, 'SELECT COUNT(*) AS n FROM "Post"')).toEqual([{ n: provider === 'sqlite' ? posts : String(posts) }]);
  expect(Number((await run(url, 'SELECT COUNT(*) AS n FROM "Ballast"'))[0]?.n)).toBe(60_000);
}

/**
 * Records `name` on the database at `url` as an earlier version left a migration its process was
 * killed in: started, not finished, no reason.
 */
async function recordStarted(url: string, name: string): Promise<void> {
  const checksum = createHash('sha256')
    .update(SCRIPTS[name] ?? '')
    .digest('hex');
  const startedAt = new Date().toISOString().replace(/Z$/, '+00:00');
  await run(
    url,
    `INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name, applied_steps_count) VALUES ('${randomUUID()}', '${checksum}', '${startedAt}', '${name}', 0)`,
  );
}

/** The `migrate resolve` advice a deploy or status names, as [mark, migration] pairs. */
function namedFixes(text: string): [string, string][] {
  return [...text.matchAll(/resolve --(applied|rolled-back) (\d{4}_\w+)/g)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

/**
 * When one deploy reached its phases: `anchor`, ms after the spawn, when it began migrating (see
 * {@link openProbe}); `committed` (each of {@link PENDING} recorded finished) and `exit`, ms after
 * the anchor. Measured from the anchor, the migrations' own work varies far less from run to run
 * than the time the CLI takes to start, which a loaded machine stretches.
 */
interface Timing {
  readonly anchor: number;
  readonly committed: readonly number[];
  readonly exit: number;
}

/** Where a kill lands: `delay` ms after the spawn, or after the deploy began migrating. */
interface KillPoint {
  readonly after: 'spawn' | 'anchor';
  readonly delay: number;
}

/**
 * The kill points of one sweep: the first quarter of {@link KILL_POINTS} spread over the start (the
 * CLI loading, the engine, the status check), the rest over the migrations' own work, starting from
 * the calibrated window — from well before the slow one commits to just after the process exits —
 * and narrowing it as kills land: one that finds nothing applied moves its start later, one whose
 * deploy had already finished moves its end earlier. A loaded machine stretches or shrinks a run by
 * more than the window is wide, so a fixed schedule from one calibrated run may land wholly before
 * or after it; this one converges on where the states change, whatever the machine does.
 */
class KillSweep {
  private readonly early = Math.ceil(KILL_POINTS / 4);
  private start: number;
  private end: number;

  constructor(private readonly timing: Timing) {
    this.start = Math.max(0, (timing.committed[0] ?? timing.exit) - 500);
    this.end = timing.exit + 60;
  }

  /** Where kill point `point` lands. */
  at(point: number): KillPoint {
    if (point < this.early) return { after: 'spawn', delay: Math.round(((point + 0.5) / this.early) * this.timing.anchor) };
    // Spread inside the window by the golden ratio's fractions: never twice in one place.
    const fraction = ((point - this.early) * 0.618_034 + 0.5) % 1;
    return { after: 'anchor', delay: Math.round(this.start + fraction * (this.end - this.start)) };
  }

  /** Narrows the window by what the kill at `kill` left: nothing applied, the deploy finished, or in between. */
  learn(kill: KillPoint, left: 'nothing' | 'finished' | 'between'): void {
    if (kill.after !== 'anchor') return;
    if (left === 'nothing') this.start += (kill.delay - this.start) / 2;
    if (left === 'finished') this.end -= (this.end - kill.delay) / 2;
    // Never narrower than a few hundred milliseconds: the next run may be slower or faster again.
    if (this.end - this.start < 300) {
      const middle = (this.start + this.end) / 2;
      [this.start, this.end] = [Math.max(0, middle - 150), middle + 150];
    }
  }
}

/** The test's own look at the database a deploy runs on. */
interface Probe {
  /** The migrations recorded finished. */
  finished(): Promise<string[]>;
  /**
   * Whether the deploy has begun migrating: on SQLite, its copy before the deploy is made (a `.db`
   * file in `backups/`); on PostgreSQL, the schema engine holds its advisory lock (72707369).
   */
  migrating(): Promise<boolean>;
  close(): Promise<void>;
}

async function openProbe(url: string): Promise<Probe> {
  const finished = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL';
  if (provider === 'sqlite') {
    const file = url.slice('file:'.length);
    const backups = path.join(path.dirname(file), 'backups');
    const probe = new Database(file);
    return {
      finished: () => Promise.resolve((probe.prepare(finished).all() as { migration_name: string }[]).map((row) => row.migration_name)),
      migrating: () => Promise.resolve(existsSync(backups) && readdirSync(backups).some((name) => name.endsWith('.db'))),
      close: () => Promise.resolve(void probe.close()),
    };
  }
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  return {
    finished: async () => (await probe.query<{ migration_name: string }>(finished)).rows.map((row) => row.migration_name),
    migrating: async () =>
      (
        await probe.query<{ held: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
        )
      ).rows[0]?.held === true,
    close: () => probe.end(),
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe(`migrate deploy killed at any point (${provider})`, { timeout: 240_000 }, () => {
  let project: string;
  let dir: string;
  let base: string;
  let posts: number;
  const env = (url: string): Record<string, string> => ({ APP_DATABASE__URL: url });

  /** A fresh copy of the seeded base database, migrated up to the ballast; its URL. */
  async function copyOfBase(): Promise<string> {
    if (provider === 'postgresql') return createPostgresDatabase(undefined, new URL(base).pathname.slice(1));
    const file = path.join(scratchDir('rs-kill-'), 'app.db');
    const source = new Database(base.slice('file:'.length), { readonly: true });
    try {
      source.exec(`VACUUM INTO '${file.replaceAll("'", "''")}'`);
    } finally {
      source.close();
    }
    return `file:${file}`;
  }

  /** Runs one whole deploy on `url`, asking the database from here every 5 ms when it reached each phase. */
  async function timeDeploy(url: string): Promise<Timing> {
    const probe = await openProbe(url);
    const started = performance.now();
    const deploy = startCli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    let exit: number | undefined;
    const exited = new Promise<number | null>((resolve) => deploy.child.once('exit', (code) => resolve(code)));
    void exited.then(() => (exit = performance.now() - started));
    let anchor: number | undefined;
    const committed: number[] = [];
    try {
      while (exit === undefined) {
        if (anchor === undefined && (await probe.migrating().catch(() => false))) anchor = performance.now() - started;
        const names = await probe.finished().catch((): string[] => []);
        for (const [index, name] of PENDING.entries())
          if (committed[index] === undefined && names.includes(name)) committed[index] = performance.now() - started;
        await pause(5);
      }
    } finally {
      await probe.close();
    }
    expect(await exited, deploy.stderr()).toBe(0);
    expect(deploy.stdout()).toContain(`applied 2 migration(s): ${SLOW}, ${SECOND}`);
    expect(anchor, 'the deploy was never seen migrating').toBeDefined();
    const from = anchor ?? 0;
    return { anchor: from, committed: committed.map((at) => at - from), exit: exit - from };
  }

  /** Runs a deploy on `url` and kills it at `kill`; resolves with its exit code (null when killed). */
  async function killDeploy(url: string, kill: KillPoint): Promise<number | null> {
    const probe = await openProbe(url);
    const deploy = startCli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    let done = false;
    const exited = new Promise<number | null>((resolve) => deploy.child.once('exit', (code) => resolve(code)));
    void exited.then(() => (done = true));
    try {
      if (kill.after === 'anchor') while (!done && !(await probe.migrating().catch(() => false))) await pause(5);
    } finally {
      await probe.close();
    }
    const timer = setTimeout(() => deploy.child.kill('SIGKILL'), kill.delay);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  beforeAll(async () => {
    project = copyProject();
    dir = path.join(project, `generated/prisma/${provider}/migrations`);
    // The base: the demo's migrations and the ballast, applied from a folder without the two deployed, then seeded.
    const staged = path.join(scratchDir('rs-kill-staged-'), 'migrations');
    cpSync(dir, staged, { recursive: true });
    writeMigration(staged, BALLAST, SCRIPTS[BALLAST] ?? '');
    base = provider === 'postgresql' ? await createPostgresDatabase() : `file:${path.join(scratchDir('rs-kill-base-'), 'app.db')}`;
    const schema = readFileSync(path.join(project, `generated/prisma/${provider}/schema.prisma`), 'utf8');
    await applyMigrations(schema, staged, await createAdapterFactory(base));
    await seedDatabase(base, { orgs: 1, users: 2, posts: 3 });
    posts = Number((await run(base, 'SELECT COUNT(*) AS n FROM "Post"'))[0]?.n);
    for (const name of [BALLAST, ...PENDING]) writeMigration(dir, name, SCRIPTS[name] ?? '');
  }, 120_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it(`leaves each migration pending or applied, and the next deploy completes (${KILL_POINTS} kill points)`, async () => {
    const tally: Record<string, number> = {};
    const outcomes: Record<string, number> = {};
    const points: string[] = [];
    // How long a whole deploy takes here, and when each migration commits: the kill points are spread over it.
    const calibration = await copyOfBase();
    const timing = await timeDeploy(calibration);
    const sweep = new KillSweep(timing);
    await expectComplete(calibration, posts);

    for (let point = 0; point < KILL_POINTS; point += 1) {
      const url = await copyOfBase();
      const kill = sweep.at(point);
      const code = await killDeploy(url, kill);

      // What the kill left, migration by migration: recorded finished with all its changes, or no record and none.
      const left: string[] = [];
      for (const name of PENDING) {
        const [record, changes] = [await recordOf(url, name), await changesOf(url, name)];
        left.push(`${record}/${changes}`);
        expect(`${name}: ${record}/${changes}`).toMatch(/: (none\/absent|finished\/present)$/);
      }
      const state = code === 0 ? 'completed before the kill' : left.join(' + ');
      tally[state] = (tally[state] ?? 0) + 1;
      points.push(`${kill.after}+${kill.delay}: ${state}`);
      sweep.learn(kill, code === 0 ? 'finished' : left.every((entry) => entry.startsWith('none')) ? 'nothing' : 'between');

      if (provider === 'sqlite') {
        // Every copy kept before a deploy is whole: a kill mid-copy leaves only a `.partial` file.
        const backups = path.join(path.dirname(url.slice('file:'.length)), 'backups');
        for (const name of existsSync(backups) ? readdirSync(backups).filter((file) => file.endsWith('.db')) : []) {
          const copy = new Database(path.join(backups, name), { readonly: true });
          try {
            expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
            expect(copy.prepare('SELECT COUNT(*) AS n FROM "Post"').get()).toEqual({ n: posts });
          } finally {
            copy.close();
          }
        }
      }

      const next = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
      if (next.status === 0) {
        const pending = PENDING.filter((_, index) => left[index]?.startsWith('none'));
        expect(next.stdout).toContain(
          pending.length > 0 ? `applied ${pending.length} migration(s): ${pending.join(', ')}` : 'no pending migrations',
        );
        outcomes['next deploy completed'] = (outcomes['next deploy completed'] ?? 0) + 1;
      } else {
        // Not reached by a kill any more; if it ever is, the advice must be what the database bears out.
        const fixes = namedFixes(next.stderr);
        expect(fixes.length, next.stderr).toBeGreaterThan(0);
        for (const [mark, name] of fixes) {
          expect(mark, next.stderr).toBe((await changesOf(url, name)) === 'present' ? 'applied' : 'rolled-back');
          expect(cli(['migrate', 'resolve', `--${mark}`, name], { cwd: project, env: env(url) }).status).toBe(0);
        }
        const after = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
        expect(after.status, after.stderr).toBe(0);
        outcomes['resolved as advised, then completed'] = (outcomes['resolved as advised, then completed'] ?? 0) + 1;
      }
      await expectComplete(url, posts);
      const status = await migrationStatus(
        readFileSync(path.join(project, `generated/prisma/${provider}/schema.prisma`), 'utf8'),
        dir,
        await createAdapterFactory(url),
      );
      expect({ pending: status.pending, failed: status.failed }).toEqual({ pending: [], failed: [] });
    }
    reportFigures({
      suite: `migration kills (${provider})`,
      killPoints: KILL_POINTS,
      anchorMs: Math.round(timing.anchor),
      committedMsAfterAnchor: timing.committed.map(Math.round),
      exitMsAfterAnchor: Math.round(timing.exit),
      states: tally,
      outcomes,
      points,
    });
    // The sweep reached the middle of the run, not only its ends.
    expect(Object.keys(tally).length, JSON.stringify(tally)).toBeGreaterThan(1);
  });
  /** What an earlier version said for every migration it found unfinished, wherever its changes stood. */
  const expectNoGuess = (text: string): void => {
    expect(text).not.toContain('unknown error');
    expect(text).not.toContain('as it was before it');
  };

  it('an earlier version killed after the commit (changes in, recorded as started): deploy and status name --applied, --rolled-back is refused', async () => {
    const url = await copyOfBase();
    await run(url, SCRIPTS[SLOW] ?? '');
    await recordStarted(url, SLOW);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(deploy.status).toBe(1);
    expect(deploy.stderr).toMatch(
      new RegExp(
        `nothing applied: the database records a failed migration:\\n {2}${SLOW} \\(started [^)]+\\): interrupted: no reason is recorded \\(the process applying it stopped before it finished\\); its changes are in the database \\(checked: everything it creates or alters is there\\)\\n`,
      ),
    );
    expect(deploy.stderr).toContain(`\`npm run migrate -- resolve --applied ${SLOW}\` records it as applied; then deploy again`);
    expect(namedFixes(deploy.stderr)).toEqual([['applied', SLOW]]);
    expectNoGuess(deploy.stderr);
    const status = cli(['migrate', 'status'], { cwd: project, env: env(url) });
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(
      new RegExp(
        `^failed {3}${SLOW} \\(started [^)]+\\): interrupted: .*; its changes are in the database \\(checked: .*\\); \`migrate resolve --applied ${SLOW}\` records it as applied; then deploy again$`,
        'm',
      ),
    );
    const wrong = cli(['migrate', 'resolve', '--rolled-back', SLOW], { cwd: project, env: env(url) });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(
      `${SLOW} is not rolled back: its changes are in the database (checked: everything it creates or alters is there), and the next deploy would run it again over them; \`migrate resolve --applied ${SLOW}\` records it as applied`,
    );
    expect(cli(['migrate', 'resolve', '--applied', SLOW], { cwd: project, env: env(url) }).status).toBe(0);
    const again = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`applied 1 migration(s): ${SECOND}`);
    await expectComplete(url, posts);
  });

  it('an earlier version killed before the commit (nothing in, recorded as started): deploy names --rolled-back, --applied is refused', async () => {
    const url = await copyOfBase();
    await recordStarted(url, SLOW);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(deploy.status).toBe(1);
    expect(deploy.stderr).toContain('its changes are not in the database (checked: nothing it creates or alters is there)');
    expect(deploy.stderr).toContain(`\`npm run migrate -- resolve --rolled-back ${SLOW}\` lets the next deploy run it again`);
    expect(namedFixes(deploy.stderr)).toEqual([['rolled-back', SLOW]]);
    expectNoGuess(deploy.stderr);
    const wrong = cli(['migrate', 'resolve', '--applied', SLOW], { cwd: project, env: env(url) });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(`${SLOW} is not applied: its changes are not in the database`);
    expect(cli(['migrate', 'resolve', '--rolled-back', SLOW], { cwd: project, env: env(url) }).status).toBe(0);
    const again = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain(`applied 2 migration(s): ${SLOW}, ${SECOND}`);
    await expectComplete(url, posts);
  });

  it('part of a migration in the database: deploy names what is there and what is missing, and both ways out', async () => {
    const url = await copyOfBase();
    // The table and its rows, not the column of Post.
    await run(url, (SCRIPTS[SLOW] ?? '').replace(/ALTER TABLE[^;]*;/, ''));
    await recordStarted(url, SLOW);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(deploy.status).toBe(1);
    expect(deploy.stderr).toMatch(
      /only part of its changes is in the database \(checked: there, [^;]*KillFill[^;]*; missing, [^)]*Post[^)]*\)/,
    );
    expect(deploy.stderr).not.toMatch(/missing, [^)]*KillFill/);
    expect(deploy.stderr).toContain(
      `finish its changes by hand and record it with \`npm run migrate -- resolve --applied ${SLOW}\`, or undo them and run \`npm run migrate -- resolve --rolled-back ${SLOW}\` so the next deploy runs it again`,
    );
    expectNoGuess(deploy.stderr);
    // Finished by hand, it is what the migration makes: --applied is now the one named, and taken.
    await run(url, 'ALTER TABLE "Post" ADD COLUMN "killNote" TEXT');
    expect(cli(['migrate', 'resolve', '--applied', SLOW], { cwd: project, env: env(url) }).status).toBe(0);
    const again = cli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    expect(again.status, again.stderr).toBe(0);
    await expectComplete(url, posts);
  });

  it('a hand-edited script that ends its transaction itself: deploy does not claim the database is as it was', async () => {
    const edited = copyProject();
    try {
      const folder = path.join(edited, `generated/prisma/${provider}/migrations`);
      writeMigration(folder, BALLAST, SCRIPTS[BALLAST] ?? '');
      const name = '0006_commits_itself';
      // Early commits with the script's own COMMIT; the duplicate titles then fail the rest.
      writeMigration(
        folder,
        name,
        'CREATE TABLE "Early" ("id" TEXT NOT NULL PRIMARY KEY);\nCOMMIT;\nBEGIN;\nCREATE TABLE "Late" ("title" TEXT NOT NULL PRIMARY KEY);\nINSERT INTO "Late" ("title") SELECT \'same\' FROM "Post";\n',
      );
      const url = await copyOfBase();
      const deploy = cli(['migrate', 'deploy'], { cwd: edited, env: env(url) });
      expect(deploy.status).toBe(1);
      expect(deploy.stderr).toMatch(
        new RegExp(`^error: migration ${name} failed: .*its script ends the transaction it runs in \\(a COMMIT, END or ROLLBACK in it\\)`),
      );
      expect(deploy.stderr).toContain(
        `it did not roll back whole: whether its changes are in the database could not be checked (${name} ends its transaction itself, so replaying it cannot tell what it changes); it is recorded as failed`,
      );
      expect(deploy.stderr).toContain(
        `take the COMMIT, END or ROLLBACK out of its script (and record the edit with \`npm run generate -- --accept-edited-migrations\`); then if its changes are in the database, \`npm run migrate -- resolve --applied ${name}\``,
      );
      expect(deploy.stderr).not.toContain('as it was before it');
      expect(await tables(url)).toContain('Early');
      expect(await tables(url)).not.toContain('Late');
      const status = cli(['migrate', 'status'], { cwd: edited, env: env(url) });
      expect(status.stdout).toMatch(
        new RegExp(`^failed {3}${name} \\(started [^)]+\\): .*its script ends the transaction it runs in`, 'm'),
      );
    } finally {
      rmSync(edited, { recursive: true, force: true });
    }
  });
});
