/**
 * Starting a new application (docs/decisions.md §7 "New applications", docs/architecture.md §4), as a user who cloned
 * the demo would, in a copy of this project: `init` refuses to lose anything, `init --reset`
 * clears the demo's output and database and writes a one-entity application (`Note`, no `Date`
 * column), and then `generate`, `migrate deploy`, `seed` (the application's own hook), `serve` and
 * `dev` work with no table, role or route of the demo. Also: an application written over the
 * demo's by hand, and one without development hooks.
 */
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GraphQLScalarType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExecutableSchema } from '../../runtime/graphql/schema.js';
import { cli, copyProject, listeningUrl, startCli } from '../support/cli.js';
import { APPLICATION_CYCLES, importCycles, typeCheckAndLint } from '../support/hygiene.js';
import type { StaticFindings } from '../support/static-checks.js';
import { ROOT } from '../support/project.js';

const TEMPLATE_ENTITIES = path.join(ROOT, 'templates/new-application/entities');

/** What `seed --json` prints for the template application. */
interface SeededNotes {
  readonly notes: readonly { id: string; ownerId: string; text: string }[];
  readonly tokens: readonly { role: string; name: string; token: string }[];
}

/** POSTs a GraphQL query with a bearer token; the parsed answer. */
async function graphql(
  url: string,
  token: string,
  query: string,
): Promise<{ status: number; body: { data?: Record<string, unknown> | null; errors?: unknown[] } }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] } };
}

describe('a new application from scratch: init → generate → migrate → seed → serve', { timeout: 120_000 }, () => {
  let project: string;
  let env: Record<string, string>;
  let database: string;

  beforeAll(() => {
    project = copyProject();
    database = path.join(project, 'data/app.db');
    env = { APP_DATABASE__URL: `file:${database}` };
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  it("init refuses while the demo's declarations, output or database remain, changing nothing", () => {
    // The demo has been run here: its migrations are applied to the development database.
    expect(cli(['migrate', 'deploy'], { cwd: project, env }).status).toBe(0);
    expect(existsSync(database)).toBe(true);

    const overDemo = cli(['init'], { cwd: project, env });
    expect(overDemo.status).toBe(1);
    expect(overDemo.stderr).toContain('error: entities/ already holds declarations');
    expect(overDemo.stderr).toContain('init never overwrites them');
    expect(overDemo.stderr).toContain('git rm -r -q entities');

    rmSync(path.join(project, 'entities'), { recursive: true }); // what `git rm -r entities` leaves
    const withState = cli(['init'], { cwd: project, env });
    expect(withState.status).toBe(1);
    expect(withState.stderr).toContain(
      "generated/: the previous application's output, its GraphQL schema (the baseline of breaking changes) and migrations (",
    );
    expect(withState.stderr).toMatch(/migrations \((\d+) sqlite, \1 postgresql\)/);
    expect(withState.stderr).toContain("data/app.db: the previous application's development database");
    expect(withState.stderr).toContain('pass --reset to remove them');
    expect(existsSync(path.join(project, 'entities'))).toBe(false);
    expect(existsSync(path.join(project, 'generated/schema.graphql'))).toBe(true);
    expect(existsSync(database)).toBe(true);
  });

  it("init --reset removes the demo's generated/ and database and writes a one-entity application", () => {
    const result = cli(['init', '--reset'], { cwd: project, env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("removed generated/: the previous application's output");
    expect(result.stdout).toContain("removed data/app.db: the previous application's development database");
    const written = readdirSync(TEMPLATE_ENTITIES).sort();
    expect(written).toEqual([
      'abilities.ts',
      'app.module.ts',
      'dev.ts',
      'note.entity.ts',
      'note.resolver.ts',
      'note.service.ts',
      'notes.controller.ts',
    ]);
    expect(result.stdout).toContain(`wrote ${written.map((file) => `entities/${file}`).join(', ')}\n`);
    expect(result.stdout).toContain('next: `npm run dev`');
    expect(readdirSync(path.join(project, 'entities')).sort()).toEqual(written);
    expect(existsSync(path.join(project, 'generated'))).toBe(false);
    expect(existsSync(database)).toBe(false);
  });

  it('generate writes the application and its first migration, with no baseline to break', () => {
    const result = cli(['generate'], { cwd: project, env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('new migration: generated/prisma/sqlite/migrations/0001_init\n');
    expect(result.stdout).toContain('new migration: generated/prisma/postgresql/migrations/0001_init\n');
    expect(readdirSync(path.join(project, 'generated/prisma/sqlite/migrations')).sort()).toEqual([
      '0001_init',
      'checksums.json',
      'migration_lock.toml',
    ]);
    const check = cli(['generate', '--check'], { cwd: project, env });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  // One program serves the type check and the type-aware lint, as in test/project/hygiene.test.ts.
  let checked: Promise<StaticFindings> | undefined;
  const staticFindings = (): Promise<StaticFindings> => {
    if (checked === undefined) {
      writeFileSync(
        path.join(project, 'tsconfig.app.json'),
        JSON.stringify({ extends: './tsconfig.json', include: ['entities', 'generated', 'runtime'], exclude: [] }),
      );
      checked = typeCheckAndLint(project, 'tsconfig.app.json', ['entities', 'generated']);
    }
    return checked;
  };

  it('type-checks: the written declarations with their generated code (tsc --noEmit, strict)', async () => {
    expect(
      existsSync(path.join(project, 'entities/note.service.ts')) &&
        existsSync(path.join(project, 'generated/repositories/note.repository.ts')),
    ).toBe(true);
    expect((await staticFindings()).typeErrors).toEqual([]);
  }, 120_000);

  it("lints clean: the template's declarations with their generated code (eslint.config.js, type-aware)", async () => {
    // The repository's own lint skips templates/: their imports resolve only here, after generate.
    const { lint, linted } = await staticFindings();
    expect(lint).toEqual([]);
    expect(linted).toEqual(expect.arrayContaining(['entities/note.service.ts', 'generated/repositories/note.repository.ts']));
  }, 300_000);

  it("has no import cycle across the template's declarations and its generated code, type-only imports included", async () => {
    expect(await importCycles(project, ['entities', 'generated'], APPLICATION_CYCLES)).toEqual([]);
  }, 120_000);

  let seeded: SeededNotes;

  it("migrate deploy applies the first migration; seed runs the application's own hook with its sizes", () => {
    const deployed = cli(['migrate', 'deploy'], { cwd: project, env });
    expect(deployed.status).toBe(0);
    expect(deployed.stdout).toBe('applied 1 migration(s): 0001_init\n');

    const help = cli(['seed', '--help'], { cwd: project, env });
    expect(help.stdout).toContain('--notes <n>');
    expect(help.stdout).not.toContain('--orgs');

    const result = cli(['seed', '--notes', '3', '--json'], { cwd: project, env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    seeded = JSON.parse(result.stdout) as SeededNotes;
    expect(seeded.notes.map((note) => note.text)).toEqual(['Note 1', 'Note 2', 'Note 3']);
    expect(seeded.tokens.map(({ role, name }) => ({ role, name }))).toEqual([{ role: 'member', name: 'Developer' }]);

    expect(cli(['seed', '--orgs', '2'], { cwd: project, env }).stderr).toContain("unknown option '--orgs'");
    const again = cli(['seed', '--if-empty'], { cwd: project, env });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe('the database already has data; nothing seeded\n');
  });

  it('serve answers a GraphQL query and a REST request with the seeded notes', async () => {
    const server = startCli(['serve'], { cwd: project, env: { ...env, APP_HTTP__PORT: '0' } });
    try {
      const url = listeningUrl(await server.waitFor((stdout) => listeningUrl(stdout) !== undefined)) ?? '';
      const token = seeded.tokens[0]?.token ?? '';
      const answer = await graphql(url, token, '{ notes(first: 10) { id text } }');
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data).toEqual({ notes: seeded.notes.map(({ id, text }) => ({ id, text })) });

      const response = await fetch(`${url}/notes?first=2`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(seeded.notes.slice(0, 2));
      expect(response.headers.get('x-next-cursor')).toBe(seeded.notes[1]?.id);

      // The abilities of the template: another user's token sees none of these notes.
      const stranger = cli(
        ['token', '--sub', '01900000-0000-7000-8000-0000000000ff', '--org', '01900000-0000-7000-8000-000000000002', '--role', 'member'],
        { cwd: project, env },
      ).stdout.trim();
      expect((await graphql(url, stranger, '{ notes { id } }')).body.data).toEqual({ notes: [] });
    } finally {
      await server.stop();
    }
  });

  it('dev on a fresh database seeds it with the default sizes and prints the token and curl lines of entities/dev.ts', async () => {
    const fresh = path.join(project, 'data/dev.db');
    const running = startCli(['dev'], { cwd: project, env: { APP_DATABASE__URL: `file:${fresh}`, APP_HTTP__PORT: '0' } });
    try {
      const output = await running.waitFor((stdout) => /\ntry:\n( {2}.*\n){2}\n/.test(stdout));
      expect(output).toContain('generated 0 file(s), removed 0');
      expect(output).toContain('applied migrations: 0001_init\nseeded 2 notes\n');
      const url = /\nserving (http:\S+)\n/.exec(output)?.[1] ?? '';
      expect(output).toMatch(/\nmember \(Developer\):\n {2}export TOKEN_MEMBER=[\w-]+\.[\w-]+\.[\w-]+\n/);
      expect(output).toContain(`\ntry:\n  curl -s "${url}/notes?first=5" -H "Authorization: Bearer $TOKEN_MEMBER"\n`);
      const token = /export TOKEN_MEMBER=(\S+)/.exec(output)?.[1] ?? '';
      const response = await fetch(`${url}/notes?first=5`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await response.json()) as { text: string }[]).map((note) => note.text)).toEqual(['Note 1', 'Note 2']);
    } finally {
      await running.stop();
    }
  });

  it('without development hooks, seed says how to add them and dev serves an unseeded database', async () => {
    rmSync(path.join(project, 'entities/dev.ts'));
    const seed = cli(['seed'], { cwd: project, env });
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain(
      'error: nothing to seed: entities/dev.ts does not exist. Add one: `export default defineDevHooks({ seed: async (database, { sizes }) => { … } })`',
    );
    expect(seed.stderr).not.toMatch(/\n\s+at /);

    const running = startCli(['dev'], {
      cwd: project,
      env: { APP_DATABASE__URL: `file:${path.join(project, 'data/bare.db')}`, APP_HTTP__PORT: '0' },
    });
    try {
      const output = await running.waitFor((stdout) => stdout.includes('mint a token by hand'));
      expect(output).toContain('no entities/dev.ts: nothing seeded and no token printed');
      expect(output).not.toMatch(/^seeded /m);
      const url = /\nserving (http:\S+)\n/.exec(output)?.[1] ?? '';
      const token = cli(
        ['token', '--sub', '01900000-0000-7000-8000-000000000001', '--org', '01900000-0000-7000-8000-000000000002', '--role', 'member'],
        { cwd: project, env },
      ).stdout.trim();
      expect((await graphql(url, token, '{ notes { id } }')).body.data).toEqual({ notes: [] });
    } finally {
      await running.stop();
    }
  });
});

describe("a new application written over the demo's, without init", { timeout: 120_000 }, () => {
  let project: string;

  beforeAll(() => {
    project = copyProject();
    rmSync(path.join(project, 'entities'), { recursive: true });
    cpSync(TEMPLATE_ENTITIES, path.join(project, 'entities'), { recursive: true });
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  it("generate refuses the demo's schema as a baseline, pointing at init --reset, which keeps entities/; then generate starts afresh", () => {
    const env = { APP_DATABASE__URL: `file:${path.join(project, 'data/app.db')}` };
    const refused = cli(['generate'], { cwd: project, env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('FIELD_REMOVED: Query.users was removed.');
    expect(refused.stderr).toContain(
      "every query of the committed schema is gone: if entities/ is a new application in place of another, `npm run init -- --reset` removes the previous one's generated/ and database and keeps entities/",
    );

    const reset = cli(['init', '--reset'], { cwd: project, env });
    expect(reset.status).toBe(0);
    expect(reset.stdout).toContain('removed generated/');
    expect(reset.stdout).toContain('kept the declarations in entities/ (7 file(s))');
    expect(readdirSync(path.join(project, 'entities')).sort()).toEqual(readdirSync(TEMPLATE_ENTITIES).sort());

    const generated = cli(['generate'], { cwd: project, env });
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    expect(generated.stdout).toContain('new migration: generated/prisma/sqlite/migrations/0001_init\n');
  });
});

describe('the executable schema of an application without a Date column', () => {
  it('builds without the DateTime scalar, and with it when the SDL declares it', () => {
    const noDates = buildExecutableSchema('type Query { ping: String }', { Query: { ping: () => 'pong' } }, []);
    expect(noDates.getType('DateTime')).toBeUndefined();
    const withDates = buildExecutableSchema('scalar DateTime\ntype Query { now: DateTime }', { Query: { now: () => new Date(0) } }, []);
    const scalar = withDates.getType('DateTime');
    expect(scalar).toBeInstanceOf(GraphQLScalarType);
    expect((scalar as GraphQLScalarType).serialize(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
