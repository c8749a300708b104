// Runs on: sqlite, postgresql
/**
 * Changing the schema safely (docs/decisions.md §11), on the database under test, through the CLI
 * as a user runs it on a copy of the demo with seeded data: a new migration's data loss and
 * unexecutable steps are diagnostics counted on the development database and need
 * `--accept-data-loss`; a migration that fails while applying leaves the database as it was, is
 * recorded as failed in plain words, and `migrate resolve` gets past it; deleted or edited
 * migrations and a diverged database are drift in `generate --check` and `migrate status`; a SQLite
 * file is copied before a deploy. Each scenario ends with the data intact.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterFactory } from '../../runtime/data/database.js';
import { riskySteps } from '../../generator/emit/prisma/migration-risks.js';
import {
  applyMigrations,
  deployMigrations,
  folderDrift,
  plainReason,
  readMigrationFolders,
  renderMigrationChecksums,
} from '../../runtime/data/migrations.js';
import { cli, copyProject, editFile, type RunningCli, startCli } from '../support/cli.js';
import { createPostgresDatabase, createTestDatabase, runSql, seedDatabase, testProvider } from '../support/database.js';
import { ROOT, scratchDir } from '../support/project.js';

const provider = testProvider();
const migrations = `generated/prisma/${provider}/migrations`;

const query = runSql;

/** The columns of `table`. */
async function columnsOf(url: string, table: string): Promise<string[]> {
  const rows =
    provider === 'sqlite'
      ? await query(url, `SELECT name FROM pragma_table_info('${table}')`)
      : await query(url, `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${table}'`);
  return rows.map((row) => String(row.name)).sort();
}

/** The tables of the database. */
async function tablesOf(url: string): Promise<string[]> {
  const rows =
    provider === 'sqlite'
      ? await query(url, "SELECT name FROM sqlite_master WHERE type = 'table'")
      : await query(url, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
  return rows.map((row) => String(row.name)).sort();
}

/**
 * The demo's database migrated and seeded through the CLI (`migrate deploy`, `seed`) as a user does
 * it, once per file: each {@link seededProject} starts from a copy of it, not from two more CLI runs.
 * Resolves with its URL.
 */
let seededBase: Promise<string> | undefined;
function seededBaseDatabase(): Promise<string> {
  seededBase ??= (async () => {
    const url = provider === 'postgresql' ? await createPostgresDatabase() : `file:${path.join(scratchDir('rs-seeded-'), 'app.db')}`;
    const env = { APP_DATABASE__URL: url };
    const cwd = copyProject();
    expect(cli(['migrate', 'deploy'], { cwd, env }).status).toBe(0);
    expect(cli(['seed', '--orgs', '1', '--users', '2', '--posts', '2'], { cwd, env }).status).toBe(0);
    rmSync(cwd, { recursive: true, force: true });
    return url;
  })();
  return seededBase;
}

/** A copy of the demo with its own migrated, seeded database of the provider under test: a copy of {@link seededBaseDatabase}. */
async function seededProject(): Promise<{ project: string; env: Record<string, string>; url: string }> {
  const base = await seededBaseDatabase();
  const project = copyProject();
  let url: string;
  if (provider === 'postgresql') {
    url = await createPostgresDatabase(undefined, new URL(base).pathname.slice(1));
  } else {
    const file = path.join(project, 'data', 'app.db');
    mkdirSync(path.dirname(file), { recursive: true });
    // VACUUM INTO: a whole, consistent copy, whatever of it is still in the write-ahead log.
    const source = new Database(base.slice('file:'.length), { readonly: true });
    source.exec(`VACUUM INTO '${file.replaceAll("'", "''")}'`);
    source.close();
    url = `file:${file}`;
  }
  return { project, env: { APP_DATABASE__URL: url }, url };
}

/** A {@link seededProject} made before the tests of the enclosing `describe` and removed after them. */
function useSeededProject(): { project: string; env: Record<string, string>; url: string } {
  const state = { project: '', env: {} as Record<string, string>, url: '' };
  beforeAll(async () => {
    Object.assign(state, await seededProject());
  }, 120_000);
  afterAll(() => rmSync(state.project, { recursive: true, force: true }));
  return state;
}

/** The migration folders of the project under test's database. */
const folders = (project: string): string[] => readMigrationFolders(path.join(project, migrations)).map((folder) => folder.name);

/** Output with no engine backtrace in it. */
function expectPlain(text: string): void {
  expect(text).not.toMatch(/^\s+\d+: \w+::|at schema-engine\/|\.rs:\d+/m);
}

describe(`a new migration's risky steps, measured on the development database (${provider})`, { timeout: 180_000 }, () => {
  const seeded = useSeededProject();

  it('a misspelt decorator (`@Colum()`) is refused by name instead of dropping the column', () => {
    const { project, env } = seeded;
    editFile(project, 'entities/post.entity.ts', (text) => text.replace('  @Column()\n  title!: string;', '  @Colum()\n  title!: string;'));
    const run = cli(['generate', '--allow-breaking'], { cwd: project, env });
    editFile(project, 'entities/post.entity.ts', (text) => text.replace('  @Colum()\n  title!: string;', '  @Column()\n  title!: string;'));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/entities\/post\.entity\.ts:\d+:\d+ error decorator-unknown: @Colum on Post\.title .*did you mean Column\?/);
    expect(folders(project)).toHaveLength(4);
  });

  it('a dropped column is an error naming it with the values it holds, until --accept-data-loss; nothing is written before', async () => {
    const { project, env, url } = seeded;
    const [{ count }] = (await query(url, 'SELECT COUNT("title") AS count FROM "Post"')) as [{ count: unknown }];
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace(/ {2}\/\*\* 1\.\.200 characters\. \*\/\n {2}@Column\(\)\n {2}title!: string;\n/, ''),
    );
    const refused = cli(['generate', '--allow-breaking'], { cwd: project, env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /entities\/post\.entity\.ts:\d+:\d+ error migration-data-loss: the new migration 0005_drop_post_title: You are about to drop the column `title` on the `Post` table, which still contains (\d+) non-null values\./,
    );
    expect(Number(/which still contains (\d+) non-null values/.exec(refused.stderr)?.[1])).toBe(Number(count));
    expect(refused.stderr).toMatch(
      /Fix: if Post\.title vanished by mistake \(a misspelt decorator such as @Colum\(\), a deleted line\), restore it; .*pass --accept-data-loss/,
    );
    // --allow-breaking (a wire change) is not a licence to lose data, and nothing was written.
    expect(folders(project)).toHaveLength(4);
    expect(readFileSync(path.join(project, `generated/prisma/${provider}/schema.prisma`), 'utf8')).toMatch(/\btitle\s+String/);

    const accepted = cli(['generate', '--allow-breaking', '--accept-data-loss'], { cwd: project, env });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stderr).toMatch(/warning migration-data-loss: .*drop the column `title`/);
    expect(folders(project)).toContain('0005_drop_post_title');
    // Written, not applied: the data is intact until a deploy.
    expect(await query(url, 'SELECT COUNT("title") AS count FROM "Post"')).toEqual([{ count }]);
  });
});

describe(`a required column on a populated database (${provider})`, { timeout: 180_000 }, () => {
  let project: string;
  let env: Record<string, string>;
  let url: string;
  let posts: unknown;
  beforeAll(async () => {
    ({ project, env, url } = await seededProject());
    [{ posts }] = (await query(url, 'SELECT COUNT(*) AS posts FROM "Post"')) as [{ posts: unknown }];
  }, 120_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('is refused by generate with the rows that make it fail and the fixes', () => {
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace('  /** 1..200 characters. */\n', '  /** A URL name. */\n  @Column()\n  slug!: string;\n\n  /** 1..200 characters. */\n'),
    );
    const refused = cli(['generate', '--allow-breaking'], { cwd: project, env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `error migration-unexecutable: the new migration 0005_add_post_slug: Added the required column \`slug\` to the \`Post\` table without a default value. There are ${Number(posts)} rows in this table, it is not possible to execute this step.`,
    );
    expect(refused.stderr).toMatch(/Fix: give Post\.slug a default \(@Column\(\{ default: … \}\)\), or add it optional first/);
    expect(folders(project)).toHaveLength(4);
  });

  it('written anyway, it fails on deploy and leaves the database as it was, recorded as failed in plain words', async () => {
    expect(cli(['generate', '--allow-breaking', '--accept-data-loss'], { cwd: project, env }).status).toBe(0);
    const tablesBefore = await tablesOf(url);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(deploy.status).toBe(1);
    expect(deploy.stderr, deploy.stderr).toMatch(
      /^error: migration 0005_add_post_slug failed: Post\.slug is required but rows of Post have no value for it/,
    );
    expect(deploy.stderr).toContain('the database is as it was before it');
    expect(deploy.stderr).toContain('npm run migrate -- resolve --rolled-back 0005_add_post_slug');
    expectPlain(deploy.stderr);
    // Nothing of it stayed: no column, no half-made table, every row.
    expect(await columnsOf(url, 'Post')).not.toContain('slug');
    expect(await tablesOf(url)).toEqual(tablesBefore);
    expect(await query(url, 'SELECT COUNT(*) AS posts FROM "Post"')).toEqual([{ posts }]);

    const status = cli(['migrate', 'status'], { cwd: project, env });
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(
      /^failed {3}0005_add_post_slug \(started [^)]+\): Post\.slug is required but rows of Post have no value for it/m,
    );
    expect(status.stdout).not.toMatch(/^applied {2}0005_add_post_slug/m);
    expectPlain(status.stdout);

    const again = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/nothing applied: the database records a failed migration:\n {2}0005_add_post_slug/);
    expectPlain(again.stderr);
  });

  it('fixed by hand (a default in its SQL), recorded with --accept-edited-migrations, resolved and deployed: every row kept', async () => {
    const file = path.join(project, migrations, '0005_add_post_slug', 'migration.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"slug" TEXT NOT NULL', `"slug" TEXT NOT NULL DEFAULT ''`));
    const check = cli(['generate', '--check'], { cwd: project, env });
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(
      /error migration-drift: the migration generated\/prisma\/\w+\/migrations\/0005_add_post_slug was edited after generate wrote it/,
    );
    expect(cli(['generate', '--accept-edited-migrations'], { cwd: project, env }).status).toBe(0);
    // The migration is recorded; what --check still refuses is the demo's code creating posts
    // without the new required slug (the TypeScript checker's finding, not a migration's).
    const rechecked = cli(['generate', '--check'], { cwd: project, env });
    expect(rechecked.stderr).not.toContain('migration-drift');
    const errors = rechecked.stderr.split('\n').filter((line) => / error [\w-]+: /.test(line));
    expect(errors.length, rechecked.stderr).toBeGreaterThan(0);
    for (const line of errors) expect(line).toMatch(/ error type-error: .*slug/);

    const unknown = cli(['migrate', 'resolve', '--rolled-back', '0009_nothing'], { cwd: project, env });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('there is no migration "0009_nothing"');
    const resolved = cli(['migrate', 'resolve', '--rolled-back', '0005_add_post_slug'], { cwd: project, env });
    expect(resolved.stdout).toContain('recorded 0005_add_post_slug as rolled back');
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(deploy.status, deploy.stderr).toBe(0);
    expect(deploy.stdout).toContain('applied 1 migration(s): 0005_add_post_slug');
    if (provider === 'sqlite') {
      // The copy kept before each deploy that applied something, named in the log.
      const backup = /kept a copy of the database before migrating: (\S+)/.exec(deploy.stdout)?.[1] ?? '';
      expect(backup).toMatch(/backups\/app-\d{8}T\d{6}Z-before-0005_add_post_slug\.db$/);
      const copy = new Database(path.resolve(project, backup), { readonly: true });
      expect(copy.prepare('SELECT COUNT(*) AS posts FROM "Post"').get()).toEqual({ posts });
      expect((copy.prepare("SELECT name FROM pragma_table_info('Post')").all() as { name: string }[]).map((row) => row.name)).not.toContain(
        'slug',
      );
      copy.close();
    }
    const status = cli(['migrate', 'status'], { cwd: project, env });
    expect(status.status, status.stdout).toBe(0);
    expect(status.stdout).toMatch(/^applied {2}0005_add_post_slug$/m);
    expect(await query(url, 'SELECT COUNT(*) AS posts FROM "Post"')).toEqual([{ posts }]);
    expect(await query(url, `SELECT COUNT(*) AS posts FROM "Post" WHERE "slug" = ''`)).toEqual([{ posts }]);
  });
});

describe(`drift: deleted and edited migrations, a diverged database (${provider})`, { timeout: 180_000 }, () => {
  const seeded = useSeededProject();

  it('a deleted unapplied migration fails generate --check and migrate status; restored, a fresh database gets its column', async () => {
    const { project, env, url } = seeded;
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace(
        '  /** 1..200 characters. */\n',
        '  /** A subtitle, if any. */\n  @Column()\n  subtitle?: string | null;\n\n  /** 1..200 characters. */\n',
      ),
    );
    const generated = cli(['generate'], { cwd: project, env });
    expect(generated.status, generated.stderr).toBe(0);
    const name = folders(project).at(-1) ?? '';
    expect(name).toBe('0005_add_post_subtitle');
    const saved = path.join(project, 'saved-migration');
    cpSync(path.join(project, migrations, name), saved, { recursive: true });
    rmSync(path.join(project, migrations, name), { recursive: true });

    for (const args of [['generate', '--check'], ['generate']]) {
      const run = cli(args, { cwd: project, env });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `error migration-drift: the migration generated/prisma/${provider}/migrations/${name} was deleted after generate wrote it`,
      );
      expect(run.stderr).toContain(`git checkout -- generated/prisma/${provider}/migrations/${name}`);
    }
    const status = cli(['migrate', 'status'], { cwd: project, env });
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(new RegExp(`^deleted  ${name}: deleted after generate wrote the migrations`, 'm'));

    cpSync(saved, path.join(project, migrations, name), { recursive: true });
    expect(cli(['generate', '--check'], { cwd: project, env }).status).toBe(0);
    const fresh = provider === 'postgresql' ? await createPostgresDatabase() : `file:${path.join(project, 'fresh.db')}`;
    expect(cli(['migrate', 'deploy'], { cwd: project, env: { APP_DATABASE__URL: fresh } }).status).toBe(0);
    expect(await columnsOf(fresh, 'Post')).toContain('subtitle');
    expect(cli(['seed', '--orgs', '1', '--users', '1', '--posts', '1'], { cwd: project, env: { APP_DATABASE__URL: fresh } }).status).toBe(
      0,
    );
    // The development database was never touched.
    expect(await columnsOf(url, 'Post')).not.toContain('subtitle');
  });

  it('a migration edited after it was applied, and one the folder lacks, fail migrate status', () => {
    const { project, env } = seeded;
    const file = path.join(project, migrations, '0003_create_comment', 'migration.sql');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, `${original}\n-- edited\n`);
    const edited = cli(['migrate', 'status'], { cwd: project, env });
    writeFileSync(file, original);
    expect(edited.status).toBe(1);
    expect(edited.stdout).toMatch(/^edited {3}0003_create_comment: changed after it was applied/m);
    expect(edited.stdout).toMatch(/^edited {3}0003_create_comment: edited after generate wrote the migrations/m);

    const folder = path.join(project, migrations, '0003_create_comment');
    const moved = path.join(project, 'moved-0003');
    cpSync(folder, moved, { recursive: true });
    rmSync(folder, { recursive: true });
    const diverged = cli(['migrate', 'status'], { cwd: project, env });
    cpSync(moved, folder, { recursive: true });
    expect(diverged.status).toBe(1);
    expect(diverged.stdout).toMatch(/^unknown {2}0003_create_comment: applied to the database but not in/m);
  });

  it.runIf(provider === 'sqlite')(
    'a table made by hand is schema drift in migrate status, and not in generate --check, which reads no database',
    () => {
      const { project, env, url } = seeded;
      const database = new Database(url.slice('file:'.length));
      database.exec('CREATE TABLE "Extra" ("id" TEXT PRIMARY KEY)');
      database.close();
      const status = cli(['migrate', 'status'], { cwd: project, env });
      expect(status.status).toBe(1);
      expect(status.stdout).toContain("drift    the database's schema differs from what its applied migrations create:");
      expect(status.stdout).toContain('Extra');
      // generate --check checks the repository only (docs/behaviour.md §13.5): the folders are as written.
      const check = cli(['generate', '--check'], { cwd: project, env });
      expect(check.status, check.stderr).toBe(0);
      expect(check.stderr).not.toContain('Extra');
    },
  );
});

/**
 * Opens a transaction on the database at `url` that holds a lock a migration of `Post` needs (SQLite:
 * the write lock; PostgreSQL: a read of `Post`), until the returned function ends it.
 */
async function holdLock(url: string): Promise<() => Promise<void>> {
  if (provider === 'sqlite') {
    const holder = new Database(url.slice('file:'.length));
    holder.exec('BEGIN IMMEDIATE');
    return () => {
      holder.exec('ROLLBACK');
      holder.close();
      return Promise.resolve();
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT COUNT(*) FROM "Post"');
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}

describe(`deploying while the server runs (${provider})`, { timeout: 180_000 }, () => {
  const seeded = useSeededProject();
  let server: RunningCli | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  /** GET `path` on the running server, on a connection of its own (no keep-alive socket the server may have closed meanwhile): its status. */
  const statusOf = (path: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const base = /"url":"(http:[^"]+)"/.exec(server?.stdout() ?? '')?.[1] ?? '';
      get(new URL(path, base), { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });

  it('a new migration is applied with the old version serving, which goes on answering', async () => {
    const { project, env, url } = seeded;
    server = startCli(['serve'], { cwd: project, env: { ...env, APP_HTTP__PORT: '0', APP_HTTP__HOST: '127.0.0.1' } });
    await server.waitFor((stdout) => /listening on/.test(stdout), 60_000);
    expect(await statusOf('/health')).toBe(200);
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace(
        '  /** 1..200 characters. */\n',
        '  /** A subtitle, if any. */\n  @Column()\n  subtitle?: string | null;\n\n  /** 1..200 characters. */\n',
      ),
    );
    expect(cli(['generate'], { cwd: project, env }).status).toBe(0);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(deploy.status, deploy.stderr).toBe(0);
    expect(deploy.stdout).toContain('applied 1 migration(s): 0005_add_post_subtitle');
    expect(await columnsOf(url, 'Post')).toContain('subtitle');
    expect(cli(['migrate', 'status'], { cwd: project, env }).status).toBe(0);
    // The old version does not know the column, and serves on.
    expect(await statusOf('/health')).toBe(200);
    expect(await statusOf('/v1/posts')).toBe(401);
  });

  it('a lock held past the wait fails the deploy in plain words, the database as it was; deployed again once it ends', async () => {
    const { project, env, url } = seeded;
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace(
        '  /** 1..200 characters. */\n',
        '  /** A tagline, if any. */\n  @Column()\n  tagline?: string | null;\n\n  /** 1..200 characters. */\n',
      ),
    );
    expect(cli(['generate'], { cwd: project, env }).status).toBe(0);
    const name = folders(project).at(-1) ?? '';
    // A long transaction: SQLite's write lock; on PostgreSQL, a read of the table the migration alters.
    const release = await holdLock(url);
    let deploy;
    try {
      deploy = cli(['migrate', 'deploy'], { cwd: project, env });
    } finally {
      await release();
    }
    expect(deploy.status).toBe(1);
    expect(deploy.stderr).not.toContain('SocketTimeout');
    expectPlain(deploy.stderr);
    expect(await columnsOf(url, 'Post')).not.toContain('tagline');
    const status = cli(['migrate', 'status'], { cwd: project, env });
    if (provider === 'sqlite') {
      // The engine could not even record it: nothing was written.
      expect(deploy.stderr).toMatch(/^error: the database is locked: another connection held its write lock for longer than 5 s/);
      expect(deploy.stderr).toContain(`nothing was applied and ${name} is still pending`);
      expect(status.stdout).toMatch(new RegExp(`^pending  ${name}$`, 'm'));
    } else {
      expect(deploy.stderr).toMatch(
        new RegExp(
          `^error: migration ${name} failed: another connection held a lock on what it changes for longer than the migration waits`,
        ),
      );
      expect(status.stdout).toMatch(new RegExp(`^failed {3}${name} \\(started [^)]+\\): another connection held a lock`, 'm'));
      expect(cli(['migrate', 'resolve', '--rolled-back', name], { cwd: project, env }).status).toBe(0);
    }
    const again = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(again.status, again.stderr).toBe(0);
    expect(await columnsOf(url, 'Post')).toContain('tagline');
  });

  it('a migration that fails with the server running leaves the database as it was, recorded as failed in plain words', async () => {
    const { project, env, url } = seeded;
    editFile(project, 'entities/post.entity.ts', (text) =>
      text.replace('  /** 1..200 characters. */\n', '  /** A URL name. */\n  @Column()\n  slug!: string;\n\n  /** 1..200 characters. */\n'),
    );
    expect(cli(['generate', '--allow-breaking', '--accept-data-loss'], { cwd: project, env }).status).toBe(0);
    const tablesBefore = await tablesOf(url);
    const deploy = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(deploy.status).toBe(1);
    expect(deploy.stderr, deploy.stderr).toMatch(
      /^error: migration \d{4}_add_post_slug failed: Post\.slug is required but rows of Post have no value for it/,
    );
    expectPlain(deploy.stderr);
    expect(await columnsOf(url, 'Post')).not.toContain('slug');
    expect(await tablesOf(url)).toEqual(tablesBefore);
    const status = cli(['migrate', 'status'], { cwd: project, env });
    expect(status.stdout).toMatch(/^failed {3}\d{4}_add_post_slug \(started [^)]+\): Post\.slug is required/m);
    expect(await statusOf('/health')).toBe(200);
  });
});

describe(`applying migrations (${provider})`, () => {
  it('a migration failing half-way leaves nothing of it behind, one transaction', async () => {
    const url = await createTestDatabase(provider);
    const dir = path.join(copyProject(), migrations);
    const before = await tablesOf(url);
    const failing = path.join(dir, '0005_half_way');
    cpSync(path.join(dir, '0003_create_comment'), failing, { recursive: true });
    writeFileSync(
      path.join(failing, 'migration.sql'),
      'CREATE TABLE "Made" ("id" TEXT PRIMARY KEY);\nINSERT INTO "Made" ("id") VALUES (\'a;b\');\nINSERT INTO "Missing" ("id") VALUES (\'x\');\n',
    );
    const schema = readFileSync(path.join(ROOT, `generated/prisma/${provider}/schema.prisma`), 'utf8');
    await expect(applyMigrations(schema, dir, await createAdapterFactory(url))).rejects.toMatchObject({
      name: 'MigrationFailedError',
      migration: '0005_half_way',
    });
    expect(await tablesOf(url)).toEqual(before);
  });

  it.runIf(provider === 'sqlite')('keeps the newest copies before deploys, the oldest removed', async () => {
    const project = copyProject();
    const url = `file:${path.join(project, 'data', 'app.db')}`;
    const all = path.join(project, migrations);
    const dir = path.join(project, 'staged');
    const schema = readFileSync(path.join(ROOT, `generated/prisma/${provider}/schema.prisma`), 'utf8');
    const names = readdirSync(all)
      .filter((name) => /^\d{4}_/.test(name))
      .sort();
    const kept: string[] = [];
    for (const name of names) {
      cpSync(path.join(all, name), path.join(dir, name), { recursive: true });
      const deployment = await deployMigrations(url, schema, dir, await createAdapterFactory(url), { keepBackups: 1 });
      expect(deployment.applied).toEqual([name]);
      if (deployment.backup !== undefined) kept.push(deployment.backup);
    }
    // No copy of a database with nothing applied yet; then one per deploy, only the newest kept.
    expect(kept).toHaveLength(names.length - 1);
    const backups = readdirSync(path.join(project, 'data', 'backups'));
    expect(backups).toEqual([path.basename(kept.at(-1) ?? '')]);
    expect(existsSync(kept.at(-1) ?? '')).toBe(true);
  });
});

describe(`every kind of risky step, counted on a seeded database (${provider})`, () => {
  it('finds each step between two schemas and its count query answers on the database', async () => {
    const url = await createTestDatabase(provider);
    await seedDatabase(url, { orgs: 2, users: 3, posts: 2 });
    const previous = readFileSync(path.join(ROOT, `generated/prisma/${provider}/schema.prisma`), 'utf8');
    const model = (text: string, name: string, change: (body: string) => string): string =>
      text.replace(new RegExp(`model ${name} \\{[^}]*\\}`), change);
    let next = model(previous, 'Post', (body) =>
      body
        .replace(/(\n\s+title\s+)String/, '$1Int')
        .replace(/(\n\s+reviewerId\s+)String\?/, '$1String')
        .replace(/(\n\s+body\s+)String[^\n]*/, '$1String @unique'),
    );
    next = model(next, 'Post', (body) => body.replace(/\n\s+publishedAt[^\n]*/, '').replace(/\n}$/, '\n  rating Int\n}'));
    next = next.replace(/(enum PostStatus \{[^}]*?)\n\s+published/, '$1');
    const steps = riskySteps(previous, next);
    const kinds = steps.map((step) => `${step.kind} ${step.table}.${step.columns.join(',')}${step.detail ? ` ${step.detail}` : ''}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'type-change Post.title String to Int',
        'made-required Post.reviewerId',
        'drop-column Post.publishedAt',
        'required-without-default Post.rating',
        'unique-added Post.body',
        'enum-value-removed Post.status published',
      ]),
    );
    // Each count matches the same question asked directly.
    const expected: Record<string, string> = {
      'type-change': 'SELECT COUNT(*) AS n FROM "Post" WHERE "title" IS NOT NULL',
      'made-required': 'SELECT COUNT(*) AS n FROM "Post" WHERE "reviewerId" IS NULL',
      'drop-column': 'SELECT COUNT(*) AS n FROM "Post" WHERE "publishedAt" IS NOT NULL',
      'required-without-default': 'SELECT COUNT(*) AS n FROM "Post"',
      'unique-added': 'SELECT COUNT(*) AS n FROM (SELECT "body" FROM "Post" GROUP BY "body" HAVING COUNT(*) > 1) AS d',
      'enum-value-removed': `SELECT COUNT(*) AS n FROM "Post" WHERE "status" = 'published'`,
    };
    for (const step of steps.filter((candidate) => candidate.table === 'Post')) {
      const [{ n: counted }] = (await query(url, step.countQuery.replace(/^SELECT COUNT\(([^)]*)\)/, 'SELECT COUNT($1) AS n'))) as [
        { n: unknown },
      ];
      const [{ n: direct }] = (await query(url, expected[step.kind] ?? '')) as [{ n: unknown }];
      expect(Number(counted), step.kind).toBe(Number(direct));
    }
    // The dropped table of an entity that is gone.
    const gone = riskySteps(previous, previous.replace(/model Digest \{[^}]*\}\n/, ''));
    expect(gone).toContainEqual(expect.objectContaining({ kind: 'drop-table', table: 'Digest' }));
  });
});

describe('plain reasons and checksums', () => {
  it('a recorded reason is one line without a backtrace, whatever the engine logged', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 4 }), (message, frames) => {
        const log = [
          message,
          ...frames.map((frame, index) => `   ${index}: sql_schema_connector::${frame}\n             at schema-engine/x.rs:${index}`),
        ].join('\n');
        const reason = plainReason(log);
        expect(reason).not.toContain('\n');
        expect(reason).not.toMatch(/schema-engine\//);
        // Idempotent: a reason recorded once reads the same when read back.
        expect(plainReason(reason)).toBe(reason);
      }),
    );
  });

  it('any change to a written migration is drift, and only that one', () => {
    const written = readMigrationFolders(path.join(ROOT, migrations));
    fc.assert(
      fc.property(fc.nat({ max: written.length - 1 }), fc.string({ minLength: 1 }), (index, extra) => {
        const changed = written.map((folder, at) => (at === index ? { ...folder, script: `${folder.script}${extra}` } : folder));
        const recorded = JSON.parse(renderMigrationChecksums(written)) as { migrations: Record<string, string> };
        expect(folderDrift('unused', changed, recorded.migrations)).toEqual([{ kind: 'edited', name: written[index]?.name }]);
        expect(folderDrift('unused', written, recorded.migrations)).toEqual([]);
      }),
    );
  });
});
