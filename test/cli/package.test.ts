/**
 * The package as users get it (docs/behaviour.md §13): what `npm pack` ships, installed into an
 * empty folder without this repository's lock file. There, as a new user: `init`, `npm install`,
 * `dev` (health, a printed token, rows from a REST list and from GraphQL), `generate --check`, the
 * new application's own `npm test`, `build` + `start`, `init <dir>`, an upgrade (a bumped version
 * makes `--check` fail naming both versions until `generate`), and the commands again with
 * `node_modules` read-only. Nothing may be written inside the installed package.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, startProcess } from '../support/cli.js';
import { packagesNeedingOtherNode } from '../support/engines.js';
import { freePort } from '../support/postgres.js';
import { ROOT, scratchDir } from '../support/project.js';

const MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  author?: string;
  license?: string;
};

/** The environment of a user's shell: without the condition that points this repository at its sources (.npmrc). */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // npm's own variables would make a nested npm act for this repository; TEST_DATABASE is the suite's.
  const inherited = Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && key !== 'TEST_DATABASE');
  const env: NodeJS.ProcessEnv = { ...Object.fromEntries(inherited), NO_COLOR: '1', ...extra };
  env.NODE_OPTIONS = (env.NODE_OPTIONS ?? '').replace(/--conditions[= ]resource-service-source/g, '').trim();
  return env;
}

/** Runs `command` in `cwd` to its end; the result, with both outputs. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { env?: Record<string, string>; timeout?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: userEnvironment(options.env), encoding: 'utf8', timeout: options.timeout ?? 180_000 });
}

/** `resource-service <args>` in `cwd`, as `npx resource-service` runs it (the installed bin). */
function cli(cwd: string, args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return run(path.join(cwd, 'node_modules', '.bin', 'resource-service'), args, cwd, { env });
}

/**
 * A folder holding better-sqlite3's prebuilt binary under the name prebuild-install asks GitHub
 * for (`better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`), packed from the one this
 * checkout built: what a user's install downloads, which this machine cannot reach. Without it,
 * npm compiles SQLite from source in the empty folder. prebuild-install reads the folder from
 * `npm_config_better_sqlite3_local_prebuilds`, its setting for machines without that download; a
 * version or ABI it does not name falls back to the compile.
 */
function localPrebuilds(folder: string): string {
  const module = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(path.join(module, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  succeeded(run('tar', ['-czf', path.join(folder, name), 'build/Release/better_sqlite3.node'], module));
  return folder;
}

/** Fails with the command's output when it did not exit 0. */
function succeeded(result: SpawnSyncReturns<string>): string {
  expect(result.status, `${result.stdout}\n${result.stderr}${result.error ? `\n${String(result.error)}` : ''}`).toBe(0);
  return result.stdout;
}

/** A digest of every file under `dir` (paths and bytes): equal before and after means nothing was written there. */
function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(`${path.relative(dir, full)}\0`).update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** Resolves once `process` printed `pattern`; its output so far. */
async function waitFor(process: RunningCli, pattern: RegExp): Promise<string> {
  return process.waitFor((stdout) => pattern.test(stdout), 120_000);
}

/** GET `pathname` of `url` with a bearer token; status and parsed body. */
async function getJson(url: string, pathname: string, token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL(pathname, url), { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

/** POST a GraphQL query with a bearer token; the parsed body. */
async function graphql(url: string, query: string, token: string): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> {
  const response = await fetch(new URL('/graphql', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
}

/**
 * `dev` in `app` on a free port, until its first server is up: the health answer, and the rows the
 * printed token reads from `GET /notes` and from GraphQL `notes`.
 */
async function devServes(app: string): Promise<{ health: number; rest: unknown; graphql: unknown }> {
  const port = await freePort();
  const dev = startProcess(path.join(app, 'node_modules', '.bin', 'resource-service'), ['dev'], {
    cwd: app,
    env: userEnvironment({ APP_HTTP__PORT: String(port) }),
  });
  try {
    const printed = await waitFor(dev, /watching entities\//);
    const url = /serving (http:\/\/\S+)/.exec(printed)?.[1];
    const token = /export TOKEN_MEMBER=(\S+)/.exec(printed)?.[1];
    expect(url, printed).toBeDefined();
    expect(token, printed).toBeDefined();
    const health = (await fetch(new URL('/health', url))).status;
    const rest = (await getJson(url ?? '', '/notes?first=5', token ?? '')).body;
    const listed = (await graphql(url ?? '', '{ notes(first: 5) { id text } }', token ?? '')).data?.notes;
    return { health, rest, graphql: listed };
  } finally {
    await dev.stop();
  }
}

/** `node dist/generated/main.js` in `app` (what `npm start` runs) on a free port, until it listens; stopped by the caller. */
async function startCompiled(app: string, env: Record<string, string>): Promise<{ server: RunningCli; url: string }> {
  const port = await freePort();
  const server = startProcess(process.execPath, [path.join(app, 'dist', 'generated', 'main.js')], {
    cwd: app,
    env: userEnvironment({ ...env, APP_HTTP__PORT: String(port), APP_HTTP__HOST: '127.0.0.1', APP_LOG__FORMAT: 'json' }),
  });
  await waitFor(server, /"msg":"listening on /);
  return { server, url: `http://127.0.0.1:${port}` };
}

/** The ids of rows an answer lists, sorted. */
function idsOf(rows: unknown): string[] {
  return (rows as { id: string }[]).map((row) => row.id).sort();
}

describe('the packed package, installed into an empty folder', () => {
  const scratch = scratchDir('rs-package-');
  const app = path.join(scratch, 'app');
  const installed = path.join(app, 'node_modules', MANIFEST.name);
  let tarball: string;
  let installedDigest: string;
  let prebuildFolder: string | undefined;
  /** The variable pointing npm's installs at {@link localPrebuilds}, made on first use. */
  const prebuilds = (): Record<string, string> => ({
    npm_config_better_sqlite3_local_prebuilds: (prebuildFolder ??= localPrebuilds(path.join(scratch, 'prebuilds'))),
  });

  beforeAll(() => {
    // `npm pack` builds the package first (prepack), as publishing does.
    const packed = run('npm', ['pack', '--json', '--pack-destination', scratch], ROOT);
    const [entry] = JSON.parse(succeeded(packed).slice(succeeded(packed).indexOf('['))) as { filename: string }[];
    tarball = path.join(scratch, entry?.filename ?? '');
    mkdirSync(app);
    // No package.json and no lock file: npm resolves every dependency afresh, as for a user.
    succeeded(run('npm', ['install', '--no-audit', '--no-fund', tarball], app, { env: prebuilds(), timeout: 600_000 }));
    installedDigest = treeDigest(installed);
  }, 900_000);

  afterAll(() => {
    // Everything below ran without writing inside the installed package.
    if (installedDigest !== '') expect(treeDigest(installed)).toBe(installedDigest);
  });

  it('ships the compiled runtime and generator, their type declarations, the templates and the documentation, and nothing else of this repository', () => {
    const files = succeeded(run('tar', ['tzf', tarball], scratch))
      .trim()
      .split('\n')
      .map((file) => file.replace(/^package\//, ''));
    expect(
      files.filter((file) => !/^(dist\/(runtime|generator)\/|templates\/new-application\/|docs\/)|^(package\.json|README\.md)$/.test(file)),
    ).toEqual([]);
    for (const file of [
      'docs/README.md',
      'docs/guide/development.md',
      'dist/runtime/index.js',
      'dist/runtime/index.d.ts',
      'dist/runtime/testing/index.d.ts',
      'dist/runtime/generated.d.ts',
      'dist/generator/cli.js',
      'templates/new-application/entities/note.entity.ts',
    ])
      expect(files).toContain(file);
    expect(files.some((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('templates/'))).toBe(false);
    expect(readFileSync(path.join(installed, MANIFEST.bin[MANIFEST.name] ?? ''), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('resolves, without our lock file, only packages that run on the Node that installed them, and on the oldest one engines admits, on every one it declares', () => {
    // npm picks, of the versions a range allows, one whose engines admit the Node installing it: on
    // a newer Node it may pick one that an older Node would refuse, and the application runs there.
    const oldest = semver.minVersion(MANIFEST.engines.node);
    const onOldestLine = oldest !== null && semver.major(process.versions.node) === semver.major(oldest);
    expect(packagesNeedingOtherNode(path.join(app, 'node_modules'), onOldestLine ? MANIFEST.engines.node : process.versions.node)).toEqual(
      [],
    );
  });

  it('lets an application import the named surface and nothing else', () => {
    const probe = (specifier: string): string => {
      const result = run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(specifier)}).then(() => console.log('ok'), (error) => console.log(error.code))`,
        ],
        app,
      );
      return result.stdout.trim();
    };
    expect(probe('resource-service')).toBe('ok');
    expect(probe('resource-service/testing')).toBe('ok');
    expect(probe('resource-service/runtime')).toBe('ok');
    expect(probe('resource-service/runtime/main')).toBe('ok');
    expect(probe('resource-service/transports/rest')).toBe('ok');
    expect(probe('resource-service/runtime/auth/ability.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(probe('resource-service/dist/runtime/index.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(probe('resource-service/generator/cli.js')).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('prints its version', () => {
    expect(succeeded(cli(app, ['--version'])).trim()).toBe(MANIFEST.version);
  });

  it('init writes a new application importing the package by name, and npm install completes it', () => {
    const printed = succeeded(cli(app, ['init']));
    expect(printed).toContain('wrote tsconfig.json, .gitignore, README.md, test/app.test.ts, entities/abilities.ts');
    const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.scripts)).toEqual(expect.arrayContaining(['dev', 'generate', 'test', 'build', 'start']));
    // The tarball it was installed from stays the dependency; the peers join it.
    expect(manifest.dependencies[MANIFEST.name]).toMatch(/^file:/);
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['@prisma/client', 'graphql', 'zod']));
    for (const file of readdirSync(path.join(app, 'entities'))) {
      const text = readFileSync(path.join(app, 'entities', file), 'utf8');
      expect(text, file).not.toMatch(/from '(\.\.\/)+runtime\//);
    }
    expect(readFileSync(path.join(app, 'entities', 'note.entity.ts'), 'utf8')).toContain("from 'resource-service'");
    // Run again, it refuses to overwrite the declarations it wrote.
    expect(cli(app, ['init']).stderr).toContain('entities/ already holds declarations');
    succeeded(run('npm', ['install', '--no-audit', '--no-fund'], app, { env: prebuilds(), timeout: 600_000 }));
  }, 700_000);

  it('dev generates, migrates, seeds and serves: health, a token, and the same rows over REST and GraphQL', async () => {
    const served = await devServes(app);
    expect(served.health).toBe(200);
    expect(idsOf(served.rest)).toHaveLength(2);
    expect(idsOf(served.graphql)).toEqual(idsOf(served.rest));
    // Generated code imports the runtime by the package's name, never by a path into node_modules.
    const generated = readdirSync(path.join(app, 'generated'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    for (const file of generated) expect(readFileSync(path.join(app, 'generated', file), 'utf8'), file).not.toContain('node_modules');
    expect(readFileSync(path.join(app, 'generated', 'app.ts'), 'utf8')).toContain(`from '${MANIFEST.name}/transports/rest'`);
    // The Prisma clients are written under generated/ and ignored; caches go to the application's node_modules.
    expect(existsSync(path.join(app, 'generated', 'prisma', 'sqlite', 'client', 'client.ts'))).toBe(true);
    expect(readFileSync(path.join(app, 'generated', '.gitignore'), 'utf8')).toContain('prisma/*/client/');
    expect(existsSync(path.join(app, 'node_modules', '.cache', MANIFEST.name))).toBe(true);
  }, 180_000);

  it('migrate status, seed and generate --watch run from the application too', async () => {
    const status = cli(app, ['migrate', 'status']);
    expect(succeeded(status)).toContain('applied  0001_init');
    const seeded = JSON.parse(succeeded(cli(app, ['seed', '--json', '--notes', '1']))) as { notes: unknown[]; tokens: unknown[] };
    expect(seeded.notes).toHaveLength(1);
    expect(seeded.tokens).toHaveLength(1);
    const watching = startProcess(path.join(app, 'node_modules', '.bin', 'resource-service'), ['generate', '--watch'], {
      cwd: app,
      env: userEnvironment(),
    });
    try {
      expect(await waitFor(watching, /watching entities\//)).toMatch(/^ok, 0 files changed/m);
    } finally {
      expect(await watching.stop()).toBe(0);
    }
  }, 120_000);

  it('generate --check passes, and the application passes its own npm test', () => {
    expect(succeeded(cli(app, ['generate', '--check']))).toContain('generated/ is up to date');
    expect(succeeded(run('npm', ['test'], app))).toMatch(/2 passed/);
  }, 180_000);

  it('build compiles the application; start serves it as JavaScript with no TypeScript loader', async () => {
    expect(succeeded(run('npm', ['run', 'build'], app))).toContain('built ');
    const secret = 'package-test-secret-0123456789-0123456789';
    const { server, url } = await startCompiled(app, { APP_AUTH__SECRET: secret });
    try {
      const token = succeeded(
        cli(
          app,
          ['token', '--sub', '01900000-0000-7000-8000-000000000001', '--org', '01900000-0000-7000-8000-000000000002', '--role', 'member'],
          { APP_AUTH__SECRET: secret },
        ),
      ).trim();
      const listed = await getJson(url, '/notes', token);
      expect(listed.status).toBe(200);
      // The two notes dev seeded and the one `seed --notes 1` wrote.
      expect(idsOf(listed.body)).toHaveLength(3);
    } finally {
      await server.stop();
    }
    expect(readdirSync(path.join(app, 'dist'), { recursive: true, encoding: 'utf8' }).some((file) => file.endsWith('.ts'))).toBe(false);
  }, 180_000);

  it('init <dir> writes an application in a new folder that depends on this version', () => {
    succeeded(cli(app, ['init', 'second']));
    const manifest = JSON.parse(readFileSync(path.join(app, 'second', 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
    };
    expect(manifest.name).toBe('second');
    expect(manifest.dependencies[MANIFEST.name]).toBe(`^${MANIFEST.version}`);
    // It resolves the package from the folder above, as a workspace would.
    succeeded(run(path.join(app, 'node_modules', '.bin', 'resource-service'), ['generate'], path.join(app, 'second')));
    expect(existsSync(path.join(app, 'second', 'generated', 'app.ts'))).toBe(true);
  }, 120_000);

  it("generates from the installed package exactly what this repository generates: the demo's entities give the committed generated/", () => {
    const demo = path.join(app, 'demo');
    mkdirSync(demo);
    cpSync(path.join(ROOT, 'entities'), path.join(demo, 'entities'), { recursive: true });
    cpSync(path.join(ROOT, 'generated'), path.join(demo, 'generated'), {
      recursive: true,
      filter: (source) => !/prisma\/[^/]+\/client(\/|$)/.test(source),
    });
    // The documents' contact and license come from the application's package.json: the demo's are this repository's.
    writeFileSync(
      path.join(demo, 'package.json'),
      JSON.stringify({ name: 'demo', private: true, type: 'module', author: MANIFEST.author, license: MANIFEST.license }, null, 2),
    );
    // Parsed from the package's .d.ts files there, from the sources here: the same model, the same bytes.
    expect(succeeded(run(path.join(app, 'node_modules', '.bin', 'resource-service'), ['generate', '--check'], demo))).toContain(
      'generated/ is up to date',
    );
  }, 120_000);

  it('serves a second application, not the demo (the tracker: hand-written fields, relation conditions in grants), strict-checked', async () => {
    const tracker = path.join(app, 'tracker');
    mkdirSync(tracker);
    cpSync(path.join(ROOT, 'test/golden/tracker/entities'), path.join(tracker, 'entities'), { recursive: true });
    writeFileSync(path.join(tracker, 'package.json'), JSON.stringify({ name: 'tracker', private: true, type: 'module' }, null, 2));
    // The compiler settings every application has (what init writes: decorators on parameters).
    cpSync(path.join(installed, 'templates/new-application/tsconfig.json'), path.join(tracker, 'tsconfig.json'));
    const bin = path.join(app, 'node_modules', '.bin', 'resource-service');
    const env = { APP_DATABASE__URL: `file:${path.join(tracker, 'data', 'tracker.db')}` };
    succeeded(run(bin, ['generate'], tracker));
    // Its generated text speaks of its own entities: no word of the demo's.
    const text = readdirSync(path.join(tracker, 'generated'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|json|graphql|md)$/.test(file) && !file.includes('prisma/'))
      .map((file) => readFileSync(path.join(tracker, 'generated', file), 'utf8'))
      .join('\n');
    // (The demo's nouns, as words: "POST", the method, is no post.)
    expect(text).not.toMatch(/\b(orgs?|orgId|authors?|authorId|reviewers?|viewer)\b/);
    expect(succeeded(run(bin, ['generate', '--check', '--strict'], tracker))).toContain('generated/ is up to date');
    succeeded(run(bin, ['migrate', 'deploy'], tracker, { env }));
    const seeded = JSON.parse(succeeded(run(bin, ['seed', '--json'], tracker, { env }))) as {
      issues: { id: string; projectId: string; reporterId: string }[];
      projects: { id: string; archived: boolean }[];
      people: { id: string; email: string; workspaceId: string }[];
      tokens: { role: string; token: string }[];
    };
    const tokenOf = (role: string): string => seeded.tokens.find((entry) => entry.role === role)?.token ?? '';
    const port = await freePort();
    const server = startProcess(bin, ['serve'], {
      cwd: tracker,
      env: userEnvironment({ ...env, APP_HTTP__PORT: String(port), APP_LOG__FORMAT: 'json' }),
    });
    try {
      await waitFor(server, /"msg":"listening on /);
      const url = `http://127.0.0.1:${port}`;
      const workspace = seeded.people[0]?.workspaceId;
      const active = new Set(seeded.projects.filter((project) => !project.archived).map((project) => project.id));
      const ours = seeded.issues.filter(
        (issue) => seeded.people.find((person) => person.id === issue.reporterId)?.workspaceId === workspace,
      );
      // A guest reads the issues of unarchived projects only: a condition on the project relation, as SQL.
      const guestIssues = (await graphql(url, '{ issues(first: 100) { id title assigneeName project { archived } } }', tokenOf('guest')))
        .data?.issues as { id: string; project: { archived: boolean } }[];
      expect(guestIssues.map((issue) => issue.id).sort()).toEqual(
        ours
          .filter((issue) => active.has(issue.projectId))
          .map((issue) => issue.id)
          .sort(),
      );
      // A hand-written field reading another entity's address answers FORBIDDEN to a guest, the address to a member.
      const issue = ours.find((candidate) => active.has(candidate.projectId));
      const refused = await graphql(url, `{ issue(id: "${issue?.id}") { reporterEmail } }`, tokenOf('guest'));
      expect(JSON.stringify(refused.errors)).toContain('FORBIDDEN');
      const email = seeded.people.find((person) => person.id === issue?.reporterId)?.email;
      expect((await graphql(url, `{ issue(id: "${issue?.id}") { reporterEmail } }`, tokenOf('member'))).data).toEqual({
        issue: { reporterEmail: email },
      });
      const summary = await getJson(url, `/v1/issues/${issue?.id}/summary`, tokenOf('guest'));
      expect(summary.status).toBe(200);
      expect(JSON.stringify(summary.body)).not.toContain(email);
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('with node_modules read-only: generate, dev and build work, writing nothing there', async () => {
    const modules = path.join(app, 'node_modules');
    const mounted =
      spawnSync('mount', ['--bind', modules, modules]).status === 0 && spawnSync('mount', ['-o', 'remount,ro,bind', modules]).status === 0;
    try {
      // The variant is real only if a write there fails.
      const probe = path.join(modules, '.write-probe');
      expect(() => writeFileSync(probe, ''), mounted ? 'the read-only mount' : 'mount --bind -o ro needs root (CAP_SYS_ADMIN)').toThrow();
      const note = path.join(app, 'entities', 'note.entity.ts');
      writeFileSync(
        note,
        readFileSync(note, 'utf8').replace(
          '  /** What the note says. */',
          '  /** When the note is due, if ever. */\n  @Column()\n  due?: string | null;\n\n  /** What the note says. */',
        ),
      );
      expect(succeeded(cli(app, ['generate']))).toContain('new migration: generated/prisma/sqlite/migrations/0002_');
      expect(succeeded(cli(app, ['generate', '--check']))).toContain('up to date');
      const served = await devServes(app);
      expect(served.health).toBe(200);
      expect(idsOf(served.graphql)).toEqual(idsOf(served.rest));
      expect(succeeded(run('npm', ['run', 'build'], app))).toContain('built ');
    } finally {
      if (mounted) spawnSync('umount', [modules]);
    }
  }, 300_000);

  it('after an upgrade, generate --check fails naming both versions until generate runs', () => {
    // An upgrade in place: the installed package's version is the next patch.
    const manifestFile = path.join(installed, 'package.json');
    const original = readFileSync(manifestFile, 'utf8');
    const next = MANIFEST.version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
    writeFileSync(manifestFile, original.replace(`"version": "${MANIFEST.version}"`, `"version": "${next}"`));
    try {
      const stale = cli(app, ['generate', '--check']);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain(`generated/ was written by ${MANIFEST.name} ${MANIFEST.version}; this is ${MANIFEST.name} ${next}`);
      succeeded(cli(app, ['generate']));
      expect(succeeded(cli(app, ['generate', '--check']))).toContain('up to date');
      expect(readFileSync(path.join(app, 'generated', 'app.ts'), 'utf8').split('\n')[0]).toContain(`${MANIFEST.name} ${next} `);
    } finally {
      writeFileSync(manifestFile, original);
    }
  }, 120_000);
});

describe('one copy of the runtime per process', () => {
  it('refuses to start a server when a second copy of the runtime was loaded, naming both', () => {
    // A second install of the package: the same module from another folder. Loaded in a process of
    // its own: a test worker goes on to run other suites, which the second copy would refuse.
    const copy = scratchDir('rs-second-copy-');
    copyFileSync(path.join(ROOT, 'runtime', 'instance.ts'), path.join(copy, 'instance.ts'));
    const script = [
      `const { assertOneRuntime } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'runtime', 'instance.ts')).href)});`,
      'assertOneRuntime();',
      'console.log("one copy: accepted");',
      `await import(${JSON.stringify(pathToFileURL(path.join(copy, 'instance.ts')).href)});`,
      'try { assertOneRuntime(); console.log("two copies: accepted"); } catch (error) { console.log(`two copies: ${error.message}`); }',
    ].join('\n');
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('one copy: accepted');
    expect(result.stdout).toMatch(
      new RegExp(`two copies: two copies of resource-service are loaded in one process \\(.*runtime/, ${pathToFileURL(copy).href}/\\)`),
    );
  });
});
