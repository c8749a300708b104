/**
 * The command line as a user runs it (docs/decisions.md §1): `generate [--check]` on fresh, stale and
 * invalid trees, `migrate`, `seed`, `token`, `dev` on the demo, output that arrives whole through
 * a pipe, and configuration errors at boot. A new application's path (`init`, and `seed`/`dev`
 * with other hooks or none) is in new-application.test.ts.
 */
import { spawn, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../runtime/auth/authentication.js';
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import { cli, cliArguments, commandOf, copyProject, startCli, startProcess } from '../support/cli.js';
import { freePort } from '../support/postgres.js';
import { openDatabase } from '../support/database.js';
import { ownIndexSearch, rankingStatement, sqlitePlan, tableSteps } from '../support/plans.js';
import { ROOT, scratchDir, TEST_SECRET } from '../support/project.js';

/** The committed migrations, in order (the same names for both databases). */
const MIGRATIONS = readdirSync(path.join(ROOT, 'generated/prisma/sqlite/migrations'))
  .filter((name) => /^\d{4}_/.test(name))
  .sort();
/** The name `generate` gives the next migration, which adds the column `bio` to User (docs/decisions.md §9). */
const NEXT_ADD_USER_BIO = `${String(MIGRATIONS.length + 1).padStart(4, '0')}_add_user_bio`;
/** What `migrate status` prints once every committed migration is applied. */
const ALL_APPLIED = `${MIGRATIONS.map((name) => `applied  ${name}\n`).join('')}0 pending\n`;

/** What the reader at the end of a pipe received, and how the CLI before it exited. */
interface Piped {
  /** The CLI's exit code. */
  readonly status: number;
  /** Bytes the reader counted. */
  readonly bytes: number;
  /** Whether what arrived parses as JSON. */
  readonly json: boolean;
  readonly text: string;
}

/**
 * Runs the CLI as `cli … | node -e <reader>` through a shell: a real pipe to another process,
 * which counts the bytes it reads and tries JSON.parse on them. With `stream: 'stderr'`, stderr
 * goes into the pipe instead and stdout is discarded (`2>&1 >/dev/null`).
 */
function piped(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; stream?: 'stdout' | 'stderr' } = {}): Piped {
  const cwd = options.cwd ?? ROOT;
  const reader = `const chunks = []; process.stdin.on('data', (chunk) => chunks.push(chunk)); process.stdin.on('end', () => { const text = Buffer.concat(chunks).toString('utf8'); let json = true; try { JSON.parse(text); } catch { json = false; } process.stdout.write(JSON.stringify({ bytes: Buffer.byteLength(text), json, text })); });`;
  const words = [process.execPath, ...cliArguments(args, cwd)].map((word) => `'${word.replaceAll("'", `'\\''`)}'`);
  const script = `{ ${words.join(' ')}${options.stream === 'stderr' ? ' 2>&1 >/dev/null' : ''}; echo "exit $?" >&2; } | '${process.execPath}' -e "$READER"`;
  const result = spawnSync('/bin/sh', ['-c', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, APP_AUTH__SECRET: TEST_SECRET, APP_LOG__FORMAT: 'json', ...options.env, READER: reader },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  const status = /exit (\d+)\n$/.exec(result.stderr)?.[1];
  if (status === undefined) throw new Error(`the pipe did not run: ${result.stderr}`);
  return { status: Number(status), ...(JSON.parse(result.stdout) as Omit<Piped, 'status'>) };
}

describe('generate --check', { timeout: 120_000 }, () => {
  it('passes on the committed tree', () => {
    const result = cli(['generate', '--check']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^generated\/ is up to date \(\d+ ms\)\n$/);
  });

  describe('on a copy of the project', () => {
    let project: string;

    beforeAll(() => {
      project = copyProject();
    });

    afterAll(() => {
      rmSync(project, { recursive: true, force: true });
    });

    it('fails on a hand-edited or extra generated file, naming them', () => {
      const routes = path.join(project, 'generated/http/routes.ts');
      const original = readFileSync(routes, 'utf8');
      writeFileSync(routes, original.replace('status: 201', 'status: 202'));
      writeFileSync(path.join(project, 'generated/stray.ts'), 'export {};\n');
      const result = cli(['generate', '--check'], { cwd: project });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('generated/ is stale');
      expect(result.stderr).toContain('changed: generated/http/routes.ts');
      expect(result.stderr).toContain('extra: generated/stray.ts');
      writeFileSync(routes, original);
      rmSync(path.join(project, 'generated/stray.ts'));
      expect(cli(['generate', '--check'], { cwd: project }).status).toBe(0);
    });

    it('ignores the Prisma clients, which generate writes again when missing or stale (docs/behaviour.md §13.4)', () => {
      const client = (database: string): string => path.join(project, 'generated/prisma', database, 'client');
      const dropClients = (): void => {
        rmSync(client('sqlite'), { recursive: true, force: true });
        writeFileSync(path.join(client('postgresql'), '.generated-from'), 'a digest of another schema\n');
      };
      dropClients();
      const checked = cli(['generate', '--check'], { cwd: project });
      expect(checked.stderr).toBe('');
      expect(checked.status).toBe(0);
      // The declarations type the database through the clients: --check writes them (ignored files)
      // from the committed schemas, so a fresh clone's check covers the types too.
      expect(checked.stdout).not.toContain('not checked');
      expect(readdirSync(client('sqlite'))).toContain('client.ts');
      dropClients();

      // Without its client, the server says which command writes it rather than failing obscurely.
      const serve = spawnSync(process.execPath, ['--import', 'tsx', path.join(project, 'generated/main.ts')], {
        cwd: project,
        encoding: 'utf8',
        env: {
          ...process.env,
          APP_DATABASE__URL: `file:${path.join(project, 'data/no-client.db')}`,
          APP_HTTP__PORT: '0',
          APP_AUTH__SECRET: TEST_SECRET,
          APP_LOG__FORMAT: 'json',
        },
        timeout: 60_000,
      });
      expect(serve.status).toBe(1);
      expect(`${serve.stdout}${serve.stderr}`).toContain(
        'the Prisma client generated/prisma/sqlite/client is missing (it is not committed): run `resource-service generate`',
      );

      const written = cli(['generate'], { cwd: project });
      expect(written.status).toBe(0);
      expect(written.stdout).toContain('regenerated the Prisma client (sqlite, postgresql)');
      expect(readdirSync(client('sqlite'))).toContain('client.ts');
      // Up to date now: the next run leaves them be.
      expect(cli(['generate'], { cwd: project }).stdout).not.toContain('regenerated the Prisma client');
    });

    it('fails after an entity changes, then generate writes the code and a migration', () => {
      const entity = path.join(project, 'entities/user.entity.ts');
      writeFileSync(
        entity,
        readFileSync(entity, 'utf8').replace(
          "  /**\n   * The user's org; null",
          "  /** A short biography. */\n  @Column()\n  bio?: string | null;\n\n  /**\n   * The user's org; null",
        ),
      );
      const stale = cli(['generate', '--check'], { cwd: project });
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('changed: generated/schema.graphql');
      expect(stale.stderr).toContain('changed: generated/prisma/sqlite/schema.prisma');
      for (const provider of ['sqlite', 'postgresql']) {
        expect(stale.stderr).toContain(`missing migration: generated/prisma/${provider}/migrations/${NEXT_ADD_USER_BIO}`);
      }
      // The Prisma clients are not committed: --check never looks at them.
      expect(stale.stderr).not.toMatch(/prisma\/\w+\/client/);

      const written = cli(['generate'], { cwd: project });
      expect(written.status).toBe(0);
      expect(written.stdout).toContain('regenerated the Prisma client (sqlite, postgresql)');
      expect(written.stdout).toContain(`new migration: generated/prisma/sqlite/migrations/${NEXT_ADD_USER_BIO}`);
      expect(written.stdout).toContain(`new migration: generated/prisma/postgresql/migrations/${NEXT_ADD_USER_BIO}`);
      expect(readFileSync(path.join(project, `generated/prisma/sqlite/migrations/${NEXT_ADD_USER_BIO}/migration.sql`), 'utf8')).toContain(
        'ADD COLUMN "bio" TEXT',
      );
      expect(
        readFileSync(path.join(project, `generated/prisma/postgresql/migrations/${NEXT_ADD_USER_BIO}/migration.sql`), 'utf8'),
      ).toContain('ADD COLUMN     "bio" TEXT');
      expect(readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8')).toContain('bio: String');
      expect(cli(['generate', '--check'], { cwd: project }).status).toBe(0);
    });

    it('refuses a breaking GraphQL change unless --allow-breaking, listing each change', () => {
      const resolver = path.join(project, 'entities/user.resolver.ts');
      const original = readFileSync(resolver, 'utf8');
      const withoutMe = original.replace(/\n {2}\/\*\*\n {3}\* The signed-in caller's own user[\s\S]*?\n {2}\}\n/, '\n');
      expect(withoutMe).not.toContain('me(): Promise');
      writeFileSync(resolver, withoutMe.replace('  users(first?: Int, after?: string)', '  users(first: Int, after?: string)'));
      for (const args of [['generate'], ['generate', '--check']]) {
        const refused = cli(args, { cwd: project });
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain('the GraphQL schema would break existing clients');
        expect(refused.stderr).toContain('FIELD_REMOVED: Query.me was removed.');
        expect(refused.stderr).toContain('ARG_CHANGED_KIND: Query.users arg first has changed type from Int to Int!.');
        expect(refused.stderr).toContain('--allow-breaking');
        // The listed document the break invalidates (entities/documents/users-id-name.graphql) is its consequence, not reported first.
        expect(refused.stderr).not.toContain('graphql-document-invalid');
      }
      expect(readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8')).toContain('  me: User\n');
      const allowed = cli(['generate', '--allow-breaking'], { cwd: project });
      expect(allowed.status).toBe(0);
      expect(allowed.stderr).toContain(
        'entities/documents/users-id-name.graphql:3:13 warning graphql-document-invalid: left out of graphql/documents.json (--allow-breaking): Variable "$first" of type "Int" used in position expecting type "Int!".',
      );
      expect(readFileSync(path.join(project, 'generated/graphql/documents.json'), 'utf8')).not.toContain(
        'users(first: $first, after: $after) {\n    id\n    name\n  }',
      );
      expect(readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8')).not.toContain('  me: User\n');
      writeFileSync(resolver, original);
      expect(cli(['generate', '--allow-breaking'], { cwd: project }).status).toBe(0);
    });

    it('fails --check on a TypeScript error in entities/, with file:line:col and the compiler message', () => {
      const entity = path.join(project, 'entities/org.entity.ts');
      const original = readFileSync(entity, 'utf8');
      writeFileSync(entity, `${original}export const broken: number = 'x';\n`);
      const checked = cli(['generate', '--check'], { cwd: project });
      writeFileSync(entity, original);
      expect(checked.status).toBe(1);
      const line = original.split('\n').length;
      expect(checked.stderr).toContain(
        `entities/org.entity.ts:${String(line)}:14 error type-error: TS2322: Type 'string' is not assignable to type 'number'.`,
      );
      expect(cli(['generate', '--check'], { cwd: project }).status).toBe(0);
    });

    it("locates a renamed column's GraphQL break at the column, with a fix that applies to columns", () => {
      const entity = path.join(project, 'entities/org.entity.ts');
      const original = readFileSync(entity, 'utf8');
      writeFileSync(entity, original.replace('  name!: string;', '  label!: string;'));
      const refused = cli(['generate'], { cwd: project });
      writeFileSync(entity, original);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('FIELD_REMOVED: Org.name was removed. (entities/org.entity.ts:20: renamed to label?)');
      expect(refused.stderr).toContain(
        'a field of an entity is its column: keep the column\'s name and type (rename it back), or add the new column beside the old one, deprecate the old one (@Column({ deprecationReason: … })) and remove it in a later release (docs/guide/migrations.md, "Renaming a column"); or pass --allow-breaking to accept the break',
      );
      expect(refused.stderr).not.toContain('@Query({ deprecationReason');
    });

    it('accepts removing a field the committed schema deprecated, without --allow-breaking, and says so', () => {
      const sdl = path.join(project, 'generated/schema.graphql');
      const original = readFileSync(sdl, 'utf8');
      expect(original).toContain('type Org {\n');
      // The released schema had a field the declarations no longer have: deprecated, then removed.
      const released = (field: string): void => writeFileSync(sdl, original.replace('type Org {\n', `type Org {\n  ${field}\n`));
      released('legacyCode: String @deprecated(reason: "Use id.")');
      const accepted = cli(['generate', '--check'], { cwd: project });
      released('legacyCode: String');
      const refused = cli(['generate', '--check'], { cwd: project });
      writeFileSync(sdl, original);
      // Stale (the committed SDL still lists it), but not refused as a break.
      expect(accepted.stderr).toContain(
        'warning: the GraphQL schema changes in a way clients may notice (DEPRECATED_FIELD_REMOVED): Org.legacyCode was removed; it was deprecated: Use id.\n',
      );
      expect(accepted.stderr).not.toContain('would break existing clients');
      expect(accepted.stderr).toContain('changed: generated/schema.graphql');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('the GraphQL schema would break existing clients');
      expect(refused.stderr).toContain('FIELD_REMOVED: Org.legacyCode was removed.');
      expect(cli(['generate', '--check'], { cwd: project }).status).toBe(0);
    });

    it('refuses invalid declarations with file:line:col and the fix, writing nothing', () => {
      const resolver = path.join(project, 'entities/notification.resolver.ts');
      const before = readFileSync(path.join(project, 'generated/graphql/resolvers.ts'), 'utf8');
      writeFileSync(resolver, readFileSync(resolver, 'utf8').replace("  @Authorized('read', Notification)\n", ''));
      const result = cli(['generate'], { cwd: project });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        "entities/notification.resolver.ts:14:3 error operation-posture-missing: Query.notifications (NotificationResolver.notifications) has no access posture; add @Authorized('read', Entity) to gate it, or @Public() to leave it ungated deliberately",
      );
      expect(result.stderr).toContain('>');
      expect(result.stderr).toContain('1 error, 0 warnings');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(path.join(project, 'generated/graphql/resolvers.ts'), 'utf8')).toBe(before);
    });

    it('reports an empty entities/ as a diagnostic, not a crash', () => {
      const empty = scratchDir('rs-empty-');
      mkdirSync(path.join(empty, 'entities'));
      try {
        const result = cli(['--root', empty, 'generate']);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain('entities:1:1 error app-module-missing');
        expect(result.stderr).not.toContain('EISDIR');
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });

    it('delivers every diagnostic through a pipe, down to the count line', () => {
      const resolver = path.join(project, 'entities/notification.resolver.ts');
      const original = readFileSync(resolver, 'utf8');
      // 400 operations without a posture: about 170 KB of diagnostics, far more than a pipe holds.
      const operations = Array.from(
        { length: 400 },
        (_, index) =>
          `  /** Notifications, again (${index}). */\n  @Query()\n  notifications${index}(first?: Int, after?: string): Promise<Page<Notification>> {\n    return this.notificationService.list({ first, after });\n  }\n`,
      ).join('\n');
      writeFileSync(resolver, original.replace(/\n\}\n$/, `\n\n${operations}}\n`));
      try {
        const result = piped(['generate'], { cwd: project, stream: 'stderr' });
        expect(result.status).toBe(1);
        expect(result.bytes).toBeGreaterThan(128 * 1024);
        // Every headline arrived, then the count line that ends the report.
        const headlines = result.text.match(/^entities\/notification\.resolver\.ts:\d+:\d+ error operation-posture-missing: /gm) ?? [];
        expect(headlines.length).toBeGreaterThanOrEqual(400);
        expect(result.text.endsWith(`\n\n${headlines.length} errors, 0 warnings\n`)).toBe(true);
      } finally {
        writeFileSync(resolver, original);
      }
    });
  });
});

describe('npm run generate: the generator compiled (generator/launch.mjs, docs/decisions.md §10)', { timeout: 120_000 }, () => {
  let project: string;

  beforeAll(() => {
    project = copyProject();
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  /** `node generator/launch.mjs …` in the copy, as `npm run generate` runs it. */
  const launch = (args: readonly string[]): SpawnSyncReturns<string> =>
    spawnSync(process.execPath, [path.join(project, 'generator/launch.mjs'), ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, APP_AUTH__SECRET: TEST_SECRET },
      timeout: 120_000,
    });

  /** Runs `body` with `file` (in the copy) changed by `change`, then puts it back. */
  const withEdited = <T>(file: string, change: (text: string) => string, body: () => T): T => {
    const full = path.join(project, file);
    const original = readFileSync(full, 'utf8');
    writeFileSync(full, change(original));
    try {
      return body();
    } finally {
      writeFileSync(full, original);
    }
  };

  it('writes what the generator run from its sources writes', () => {
    const fresh = launch(['generate', '--check']);
    expect(fresh.stderr).toBe('');
    expect(fresh.stdout).toMatch(/^generated\/ is up to date \(\d+ ms\)\n$/);
    expect(fresh.status).toBe(0);
    // A new column through the compiled generator: the code, both Prisma clients and a migration
    // each, which the generator run from its sources then finds up to date.
    const entity = path.join(project, 'entities/org.entity.ts');
    writeFileSync(
      entity,
      readFileSync(entity, 'utf8').replace(/\n}\n*$/, "\n\n  /** The org's motto. */\n  @Column()\n  motto?: string | null;\n}\n"),
    );
    const written = launch(['generate']);
    expect(written.stderr).toBe('');
    expect(written.stdout).toMatch(/new migration: generated\/prisma\/sqlite\/migrations\/\d{4}_add_org_motto/);
    expect(written.stdout).toContain('regenerated the Prisma client (sqlite, postgresql)');
    expect(written.status).toBe(0);
    // A plain generate: `--check` would also type-check the edited declarations, which both runs do alike.
    const again = cli(['generate'], { cwd: project, fromSources: true });
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/^generated 0 file\(s\), removed 0 in \d+ ms\n$/);
    expect(again.status).toBe(0);
  });

  // The edited runs are plain `generate`s: an edit of the runtime would make `--check` type-check
  // the declarations afresh (generator/typecheck.ts), which is not what these tests are about.
  it('never runs a stale copy: an edited source runs as edited, and as it was once restored', () => {
    const edited = withEdited(
      'generator/cli.ts',
      (text) => text.replace('\n', "\nprocess.stderr.write('the edited generator\\n');\n"),
      () => launch(['generate']),
    );
    expect(edited.stderr).toBe('the edited generator\n');
    expect(edited.status).toBe(0);
    const runtime = withEdited(
      'runtime/graphql/sdl.ts',
      (text) => `${text}\nprocess.stderr.write('the edited runtime\\n');\n`,
      () => launch(['generate']),
    );
    expect(runtime.stderr).toBe('the edited runtime\n');
    const restored = launch(['generate', '--check']);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
  });

  it('compiles one copy for runs that start together, each of which runs whole', async () => {
    const results = await withEdited(
      'runtime/data/instant.ts',
      (text) => `${text}\n// a change that makes a new copy\n`,
      () =>
        Promise.all(
          Array.from({ length: 3 }, () => {
            const child = spawn(process.execPath, [path.join(project, 'generator/launch.mjs'), 'generate'], {
              cwd: project,
              env: { ...process.env, APP_AUTH__SECRET: TEST_SECRET },
            });
            let output = '';
            child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
            child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
            return new Promise<{ code: number | null; output: string }>((resolve) =>
              child.once('close', (code) => resolve({ code, output })),
            );
          }),
        ),
    );
    for (const result of results) {
      expect(result.output).toMatch(/^generated 0 file\(s\), removed 0 in \d+ ms\n$/);
      expect(result.code).toBe(0);
    }
    // No half-written copy is left behind.
    const builds = path.join(ROOT, 'node_modules/.cache/resource-service/compiled-generator');
    expect(readdirSync(builds).filter((name) => /\.\d+-\d+$/.test(name))).toEqual([]);
  });

  it("refuses the commands that import the application's TypeScript, naming the npm script that runs them", () => {
    for (const args of [['serve'], ['--root', project, 'seed', '--json'], ['dev']]) {
      const command = commandOf(args) ?? '';
      const result = launch(args);
      expect(result.stderr).toBe(
        `error: ${command} imports the application's TypeScript: run it as \`npm run ${command}\` (tsx generator/cli.ts ${command}), not through generator/launch.mjs\n`,
      );
      expect(result.status).toBe(1);
    }
  });

  it('runs migrate and token, which read only the migrations and the settings, compiled', () => {
    const url = `file:${path.join(project, 'data', 'launched.db')}`;
    const deployed = spawnSync(process.execPath, [path.join(project, 'generator/launch.mjs'), 'migrate', 'deploy'], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, APP_AUTH__SECRET: TEST_SECRET, APP_DATABASE__URL: url },
    });
    expect(deployed.stderr).toBe('');
    expect(deployed.stdout).toMatch(/^applied \d+ migration\(s\): 0001_init, /);
    expect(deployed.status).toBe(0);
    const token = launch(['token', '--sub', 'x', '--org', 'y', '--role', 'admin']);
    expect(token.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(token.status).toBe(0);
  });

  it('reports a source that does not compile as an error naming the file, without a stack trace', () => {
    const result = withEdited(
      'runtime/data/instant.ts',
      (text) => `${text}\nexport const broken = ;\n`,
      () => launch(['generate', '--check']),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: could not compile the generator \(generator\/launch\.mjs\): /);
    expect(result.stderr).toContain('runtime/data/instant.ts:');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // Nor a half-made copy.
    const builds = path.join(ROOT, 'node_modules/.cache/resource-service/compiled-generator');
    expect(readdirSync(builds).filter((name) => /\.\d+-\d+$/.test(name))).toEqual([]);
  });
});

/** The rows of SQLite's `sqlite_stat1` (the planner's statistics) in the database at `url`; none when it has no such table. */
function statistics(url: string): { tbl: string; idx: string; stat: string }[] {
  const database = new Sqlite(sqliteFilePath(url), { readonly: true });
  try {
    const exists = database.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get();
    return exists
      ? (database.prepare('SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx').all() as {
          tbl: string;
          idx: string;
          stat: string;
        }[])
      : [];
  } finally {
    database.close();
  }
}

describe('migrate, seed, token', { timeout: 120_000 }, () => {
  let dir: string;
  let url: string;

  beforeAll(() => {
    dir = scratchDir('rs-cli-');
    url = `file:${path.join(dir, 'cli.db')}`;
  });

  it('deploys the migrations, then reports them all applied', () => {
    const deployed = cli(['migrate', 'deploy'], { env: { APP_DATABASE__URL: url } });
    expect(deployed.status).toBe(0);
    expect(deployed.stdout).toBe(`applied ${MIGRATIONS.length} migration(s): ${MIGRATIONS.join(', ')}\n`);
    const status = cli(['migrate', 'status'], { env: { APP_DATABASE__URL: url } });
    expect(status.status).toBe(0);
    expect(status.stdout).toBe(ALL_APPLIED);
    // The statistics pass ran after the migration (docs/decisions.md §6): SQLite keeps them in sqlite_stat1.
    // Its tables are empty, so only Prisma's migrations table has any to keep.
    expect(statistics(url)).toContainEqual(expect.objectContaining({ tbl: '_prisma_migrations' }));
  });

  it('seeds orgs, users of every role and posts in both states, printing ids with --json', () => {
    const result = cli(['seed', '--orgs', '3', '--users', '4', '--posts', '2', '--json'], { env: { APP_DATABASE__URL: url } });
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout) as {
      orgs: { id: string }[];
      users: { id: string; role: string }[];
      posts: { id: string; status: string }[];
      tokens: { role: string; token: string }[];
    };
    expect(printed.orgs).toHaveLength(3);
    expect(printed.users).toHaveLength(12);
    expect(new Set(printed.users.map((user) => user.role))).toEqual(new Set(['admin', 'member', 'viewer']));
    expect(printed.posts).toHaveLength(24);
    expect(new Set(printed.posts.map((post) => post.status))).toEqual(new Set(['draft', 'published']));
    for (const entry of [...printed.orgs, ...printed.users, ...printed.posts]) expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(printed.tokens.map((entry) => entry.role)).toEqual(['admin', 'member', 'viewer']);
  });

  it('leaves planner statistics after a seed, so a has_many ranks through its own (fk, id) index (docs/decisions.md §6)', async () => {
    expect(statistics(url).filter((row) => row.tbl === 'Post')).toEqual(
      expect.arrayContaining(
        ['Post_authorId_id_idx', 'Post_reviewerId_id_idx', 'Post_orgId_id_idx'].map((idx) => ({
          tbl: 'Post',
          idx,
          stat: expect.stringMatching(/^24 \d+ 1$/),
        })),
      ),
    );
    const database = await openDatabase(url);
    try {
      const users = await database.user.findMany({ select: { id: true, orgId: true }, orderBy: { id: 'asc' } });
      const details = await sqlitePlan(
        database,
        rankingStatement(
          database,
          'authorId',
          users.map((user) => user.id),
          users[1] ?? { id: '', orgId: '' },
        ),
      );
      expect(tableSteps(details)).toEqual([expect.stringMatching(ownIndexSearch('authorId'))]);
    } finally {
      await database.$disconnect();
    }
  });

  it('prints all of a large seed --json through a pipe, and the other commands too', () => {
    const env = { APP_DATABASE__URL: url };
    const seeded = piped(['seed', '--orgs', '10', '--users', '100', '--posts', '10', '--json'], { env });
    expect(seeded.status).toBe(0);
    expect(seeded.json).toBe(true);
    expect(seeded.bytes).toBeGreaterThan(1_000_000);
    const printed = JSON.parse(seeded.text) as { orgs: unknown[]; users: unknown[]; posts: unknown[]; tokens: unknown[] };
    expect([printed.orgs.length, printed.users.length, printed.posts.length, printed.tokens.length]).toEqual([10, 1_000, 10_000, 3]);

    const status = ALL_APPLIED;
    expect(piped(['migrate', 'status'], { env })).toEqual({ status: 0, bytes: status.length, json: false, text: status });
    const token = piped([
      'token',
      '--sub',
      '01900000-0000-7000-8000-000000000001',
      '--org',
      '01900000-0000-7000-8000-000000000002',
      '--role',
      'admin',
    ]);
    expect(token.status).toBe(0);
    expect(token.text).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  });

  it('seeds nothing with --if-empty when data exists', () => {
    const result = cli(['seed', '--if-empty'], { env: { APP_DATABASE__URL: url } });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('the database already has data; nothing seeded\n');
  });

  it('prints a token that verifies with the configured secret and carries the claims', async () => {
    const sub = '01900000-0000-7000-8000-000000000001';
    const org = '01900000-0000-7000-8000-000000000002';
    const result = cli(['token', '--sub', sub, '--org', org, '--role', 'viewer', '--expires', '5m']);
    expect(result.status).toBe(0);
    const { payload } = await jwtVerify(result.stdout.trim(), new TextEncoder().encode(TEST_SECRET));
    expect(payload).toMatchObject({ sub, org_id: org, role: 'viewer' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
  });

  it('explains a missing option instead of failing obscurely', () => {
    const result = cli(['token', '--sub', 'x']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("required option '--org <uuid>' not specified");
  });

  it('lists the migrate subcommands, each with its own help and options, and refuses an unknown one by name', () => {
    const help = cli(['migrate', '--help']);
    expect(help.status).toBe(0);
    for (const subcommand of ['deploy', 'status', 'dev', 'resolve']) expect(help.stdout).toMatch(new RegExp(`^  ${subcommand}\\b`, 'm'));
    const resolve = cli(['migrate', 'resolve', '--help']);
    expect(resolve.stdout).toContain('--rolled-back <name>');
    expect(resolve.stdout).not.toContain('--keep-backups');
    expect(cli(['migrate', 'deploy', '--help']).stdout).toContain('--keep-backups <n>');
    const unknown = cli(['migrate', 'undo']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('error: unknown migrate action "undo": use deploy, status, dev or resolve\n');
  });

  it('refuses a --port that is no port, for dev and serve, before starting anything', () => {
    for (const command of ['dev', 'serve']) {
      for (const port of ['abc', '70000', '-1', '3.5']) {
        const result = cli([command, '--port', port]);
        expect(result.status, `${command} --port ${port}`).not.toBe(0);
        expect(result.stderr).toContain('expected a port, 0 to 65535');
      }
    }
  });
});

describe('dev', () => {
  it("seeds an empty database, serves, and prints the demo's token per role and curl lines from entities/dev.ts", async () => {
    const project = copyProject();
    // --port and --host stand for APP_HTTP__PORT and APP_HTTP__HOST, and win over them.
    const port = await freePort();
    const running = startCli(['dev', '--port', String(port), '--host', '127.0.0.1'], {
      cwd: project,
      env: { APP_DATABASE__URL: `file:${path.join(project, 'dev.db')}`, APP_HTTP__PORT: '1' },
    });
    try {
      const output = await running.waitFor((stdout) => /\ntry:\n( {2}.*\n){2}\n/.test(stdout), 90_000);
      expect(output).toContain(`applied migrations: ${MIGRATIONS.join(', ')}\nseeded 2 orgs, 6 users, 12 posts\n`);
      const url = /\nserving (http:\S+)\n/.exec(output)?.[1] ?? '';
      expect(url).toBe(`http://127.0.0.1:${String(port)}`);
      for (const role of ['admin', 'member', 'viewer']) {
        expect(output).toMatch(
          new RegExp(
            `\\n${role} \\(${role[0]?.toUpperCase()}${role.slice(1)} of Acme\\):\\n {2}export TOKEN_${role.toUpperCase()}=[\\w-]+\\.[\\w-]+\\.[\\w-]+\\n`,
          ),
        );
      }
      expect(output).toContain(
        `\ntry:\n  curl -s "${url}/v2/posts?first=5" -H "Authorization: Bearer $TOKEN_MEMBER"\n  curl -s ${url}/graphql -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN_MEMBER" -d '{"query":"{ users(first: 5) { id name email } }"}'\n`,
      );
      // The printed token works on the printed route.
      const token = /export TOKEN_MEMBER=(\S+)/.exec(output)?.[1] ?? '';
      const response = await fetch(`${url}/v2/posts?first=5`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await running.stop();
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the development secret (docs/hostile-input.md §10)', () => {
  it('is random per checkout, kept beside the development database, and signs what dev and token print; dev answers this machine only', async () => {
    /** The secret `checkout` keeps beside its development database, checked to be its owner's only. */
    const secretOf = (checkout: string): string => {
      const file = path.join(checkout, 'data/.dev-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const secret = readFileSync(file, 'utf8').trim();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      return secret;
    };
    const [checkout, other] = [copyProject(), copyProject()];
    const env = { APP_DATABASE__URL: `file:${path.join(checkout, 'data/dev.db')}`, APP_HTTP__PORT: '0' };
    const running = startCli(['dev'], { cwd: checkout, env, unset: ['APP_AUTH__SECRET', 'APP_HTTP__HOST'] });
    try {
      const output = await running.waitFor((stdout) => /\ntry:\n( {2}.*\n){2}\n/.test(stdout), 90_000);
      const secret = secretOf(checkout);
      const url = /\nserving (http:\S+)\n/.exec(output)?.[1] ?? '';
      // The printed token and one the token command mints both verify: they share the secret.
      const printed = /export TOKEN_MEMBER=(\S+)/.exec(output)?.[1] ?? '';
      const member = JSON.parse(Buffer.from(printed.split('.')[1] ?? '', 'base64url').toString()) as { sub: string; org_id: string };
      const minted = cli(['token', '--sub', member.sub, '--org', member.org_id, '--role', 'member'], {
        cwd: checkout,
        env,
        unset: ['APP_AUTH__SECRET'],
      }).stdout.trim();
      for (const token of [printed, minted])
        expect((await fetch(`${url}/v2/posts?first=1`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      // Listening on loopback only: the machine's other addresses are refused.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
      if (external !== undefined) await expect(fetch(`http://${external}:${new URL(url).port}/health`)).rejects.toThrow();

      // Another checkout makes its own on first use (here by `token`, which signs with it too).
      const elsewhere = cli(['token', '--sub', member.sub, '--org', member.org_id, '--role', 'member'], {
        cwd: other,
        env: { APP_DATABASE__URL: `file:${path.join(other, 'data/dev.db')}` },
        unset: ['APP_AUTH__SECRET'],
      });
      expect(elsewhere.status, elsewhere.stderr).toBe(0);
      expect(secretOf(other)).not.toBe(secret);
      // Its tokens are not this checkout's.
      expect((await fetch(`${url}/v2/posts?first=1`, { headers: { authorization: `Bearer ${elsewhere.stdout.trim()}` } })).status).toBe(
        401,
      );
    } finally {
      await running.stop();
      for (const folder of [checkout, other]) rmSync(folder, { recursive: true, force: true });
    }
  }, 240_000);

  it('is never a constant: a server started without one refuses every token minted elsewhere', async () => {
    const project = copyProject();
    const running = startCli(['serve'], {
      cwd: project,
      env: { APP_DATABASE__URL: `file:${path.join(project, 'data/serve.db')}`, APP_HTTP__PORT: '0', NODE_ENV: 'development' },
      unset: ['APP_AUTH__SECRET'],
    });
    try {
      await running.waitFor((stdout) => /listening on/.test(stdout), 60_000);
      const url = /"url":"(http:[^"]+)"/.exec(running.stdout())?.[1] ?? '';
      // `serve` uses the checkout's development secret; a token signed with any other is refused.
      const secret = readFileSync(path.join(project, 'data/.dev-secret'), 'utf8').trim();
      const claims = { sub: '01900000-0000-7000-8000-000000000001', org_id: '01900000-0000-7000-8000-000000000002', role: 'admin' };
      expect((await fetch(`${url}/v2/posts`, { headers: { authorization: `Bearer ${await mintToken(secret, claims)}` } })).status).not.toBe(
        401,
      );
      expect(
        (
          await fetch(`${url}/v2/posts`, {
            headers: { authorization: `Bearer ${await mintToken('development-secret-change-me-in-production-0123456789', claims)}` },
          })
        ).status,
      ).toBe(401);
      // Started directly, with no secret, the server checks tokens against one of its own process: even the checkout's is refused.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        APP_DATABASE__URL: `file:${path.join(project, 'data/serve.db')}`,
        APP_HTTP__PORT: '0',
        APP_LOG__FORMAT: 'json',
        NODE_ENV: 'development',
      };
      delete env.APP_AUTH__SECRET;
      const direct = startProcess(process.execPath, ['--import', 'tsx', path.join(project, 'generated/main.ts')], { cwd: project, env });
      try {
        await direct.waitFor((stdout) => /listening on/.test(stdout), 60_000);
        expect(direct.stdout()).toContain('APP_AUTH__SECRET is not set: tokens are checked against a random secret of this process');
        const directUrl = /"url":"(http:[^"]+)"/.exec(direct.stdout())?.[1] ?? '';
        expect(
          (await fetch(`${directUrl}/v2/posts`, { headers: { authorization: `Bearer ${await mintToken(secret, claims)}` } })).status,
        ).toBe(401);
      } finally {
        await direct.stop();
      }
    } finally {
      await running.stop();
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('configuration (docs/behaviour.md §4.5)', () => {
  it('refuses to boot on invalid values, naming every bad variable, without a stack trace', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'generated/main.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        APP_HTTP__PORT: 'eighty',
        APP_HTTP__VERSIONING: 'path',
        APP_GRAPHQL__MAX_DEPTH: '0',
        APP_DATABASE__URL: 'mysql://x',
      },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('invalid configuration:');
    expect(result.stderr).toContain('APP_HTTP__PORT: expected an integer between 0 and 65535 (got "eighty")');
    expect(result.stderr).toContain('APP_HTTP__VERSIONING: expected uri, header or media_type (got "path")');
    expect(result.stderr).toContain('APP_GRAPHQL__MAX_DEPTH: expected at least 1 (got "0")');
    expect(result.stderr).toContain('APP_DATABASE__URL: expected file:<path> or postgres://… (got "mysql://x")');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
