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
 * The delay (ms after the spawn) of kill point `point` of {@link KILL_POINTS}: a quarter of them
 * spread over the start (the CLI loading, the engine, the status check, SQLite's copy), the rest over
 * the migrations' own work — from well before the slow one commits to just after the process exits
 * — where the states change; each point a little later than the one before, across both.
 */
function killDelay(point: number, timing: { readonly exit: number; readonly committed: readonly number[] }): number {
  const migrating = Math.max(0, (timing.committed[0] ?? timing.exit) - 500);
  const early = Math.ceil(KILL_POINTS / 4);
  if (point < early) return Math.round(((point + 0.5) / early) * migrating);
  return Math.round(migrating + ((point - early + 0.5) / (KILL_POINTS - early)) * (timing.exit + 60 - migrating));
}

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

  /**
   * Runs one whole deploy on `url`, asking the database from here every 10 ms on one connection:
   * when (ms after the spawn) each of {@link PENDING} was recorded finished, and when the process
   * exited.
   */
  async function timeDeploy(url: string): Promise<{ exit: number; committed: number[] }> {
    const finished = 'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL';
    let ask: () => Promise<unknown[]>;
    let close: () => Promise<void>;
    if (provider === 'sqlite') {
      const probe = new Database(url.slice('file:'.length));
      ask = () => Promise.resolve(probe.prepare(finished).all());
      close = () => Promise.resolve(void probe.close());
    } else {
      const probe = new pg.Client({ connectionString: url });
      await probe.connect();
      ask = async () => (await probe.query<{ migration_name: string }>(finished)).rows;
      close = () => probe.end();
    }
    const started = performance.now();
    const deploy = startCli(['migrate', 'deploy'], { cwd: project, env: env(url) });
    let exit: number | undefined;
    const exited = new Promise<number | null>((resolve) => deploy.child.once('exit', (code) => resolve(code)));
    void exited.then(() => (exit = performance.now() - started));
    const committed: number[] = [];
    try {
      while (exit === undefined) {
        const names = (await ask().catch(() => [])).map((row) => (row as { migration_name: string }).migration_name);
        for (const [index, name] of PENDING.entries())
          if (committed[index] === undefined && names.includes(name)) committed[index] = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await close();
    }
    expect(await exited, deploy.stderr()).toBe(0);
    expect(deploy.stdout()).toContain(`applied 2 migration(s): ${SLOW}, ${SECOND}`);
    return { exit, committed };
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
    await expectComplete(calibration, posts);
    const duration = timing.exit;

    for (let point = 0; point < KILL_POINTS; point += 1) {
      const url = await copyOfBase();
      const delay = killDelay(point, timing);
      const deploy = startCli(['migrate', 'deploy'], { cwd: project, env: env(url) });
      const exited = new Promise<number | null>((resolve) => deploy.child.once('exit', (code) => resolve(code)));
      const timer = setTimeout(() => deploy.child.kill('SIGKILL'), delay);
      const code = await exited;
      clearTimeout(timer);

      // What the kill left, migration by migration: recorded finished with all its changes, or no record and none.
      const left: string[] = [];
      for (const name of PENDING) {
        const [record, changes] = [await recordOf(url, name), await changesOf(url, name)];
        left.push(`${record}/${changes}`);
        expect(`${name}: ${record}/${changes}`).toMatch(/: (none\/absent|finished\/present)$/);
      }
      const state = code === 0 ? 'completed before the kill' : left.join(' + ');
      tally[state] = (tally[state] ?? 0) + 1;
      points.push(`${delay}:${state}`);

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
      deployMs: Math.round(duration),
      committedMs: timing.committed.map(Math.round),
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
