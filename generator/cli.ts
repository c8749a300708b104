#!/usr/bin/env node
/**
 * The command line (docs/decisions.md §1): `init [--reset]`, `generate [--check | --watch]`,
 * `migrate [deploy|status|dev]`, `seed`, `token`, `serve`, and `dev` (all of it, for the README's
 * first quick start, then a watch loop that regenerates, migrates and restarts: docs/decisions.md §10).
 * Exit code 1 on any error; declaration errors print `file:line:col`, never a stack trace; the
 * watching commands print them and go on.
 *
 * The CLI knows no application (docs/decisions.md §7 "New applications"): what `seed` writes and the
 * tokens and examples `dev` prints come from the application's development hooks
 * (`entities/dev.ts`, typed by runtime/declarations/dev-hooks.ts), and both commands work without them.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig } from '../runtime/server/config.js';
import type { DatabaseClient } from '../runtime/data/database.js';
import { DEV_HOOKS_FILE, type DevHooks, type DevPrincipal, type DevToken, SEED_SIZE_NAME, tokenVariable } from '../runtime/declarations/dev-hooks.js';
import type { EntityDescriptor } from '../runtime/data/entity-metadata.js';
import { exitWhenWritten } from '../runtime/server/exit.js';
import type { ApplicationDefinition } from '../runtime/server/server.js';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { DeclarationProjectCache, ProjectLayout } from './parse/project.js';
import type { Handover, ServerAddress } from './dev-loop.js';
import type { GenerateResult } from './pipeline.js';

import { type DatabaseName, migrationsPath, SDL_PATH, schemaPath } from './paths.js';
import { GENERATOR_VERSION, PACKAGE_NAME, PEER_DEPENDENCIES, RUNTIME_DIR, TEMPLATE_DIR } from './package.js';

// Commands load what they need when they run: the TypeScript compiler behind `generate`, the
// server stack behind `serve`, the database drivers behind `migrate` and `seed`.

/** A failure the CLI reports as a message (exit 1), not a stack trace. */
class CliError extends Error {}

/** Where the guide explains development hooks, for messages. */
const HOOKS_HELP = 'docs/guide/development.md, "Development hooks"';

function layoutOf(root: string): ProjectLayout {
  const absolute = path.resolve(root);
  return {
    root: absolute,
    entitiesDir: path.join(absolute, 'entities'),
    runtimeDir: RUNTIME_DIR,
    generatedDir: path.join(absolute, 'generated'),
  };
}

const nonNegativeInteger = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return parsed;
};

/** A TCP port as `--port` takes it: 0..65535 written as digits (0 picks a free port). */
const portNumber = (value: string): string => {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('expected a port, 0 to 65535 (0 picks a free one)');
  return String(Number(value));
};

/** Where a server listens, from `--port`/`--host`: they stand for APP_HTTP__PORT/APP_HTTP__HOST (docs/guide/configuration.md). */
interface ListenOptions {
  readonly port?: string;
  readonly host?: string;
}

/** Sets the listening variables `options` name, so the server and its configuration check read them as if exported. */
function applyListenOptions(options: ListenOptions): void {
  if (options.port !== undefined) process.env.APP_HTTP__PORT = options.port;
  if (options.host !== undefined) process.env.APP_HTTP__HOST = options.host;
}

function config(): ReturnType<typeof loadConfig>['config'] {
  try {
    return loadConfig().config;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** Options of {@link runGenerate}. */
interface GenerateRun {
  /** The project root. */
  readonly root: string;
  /** Write nothing; exit 1 when `generated/` is stale (what CI runs). */
  readonly check?: boolean;
  /** Print nothing on success (commands that generate on their way to something else). */
  readonly quiet?: boolean;
  /** Accept GraphQL schema changes that break existing clients. */
  readonly allowBreaking?: boolean;
  /** Write a migration that loses data or cannot run on the development database (docs/decisions.md §11). */
  readonly acceptDataLoss?: boolean;
  /** Record migration folders edited since `generate` wrote them (docs/decisions.md §11). */
  readonly acceptEditedMigrations?: boolean;
  /** Print the milliseconds each stage took to stderr. */
  readonly timings?: boolean;
  /** The parsed project of the previous run, reused (the watching commands keep one). */
  readonly cache?: DeclarationProjectCache;
}

/** The development database's URL, or undefined when configuration cannot be read (a new migration's steps are then not counted). */
function developmentUrl(): string | undefined {
  try {
    return loadConfig().config.database.url;
  } catch {
    return undefined;
  }
}

/**
 * Whether `breaking` removes every query of the committed schema `previous`: what a new
 * application written in place of another looks like, rather than an evolution of the same one.
 */
async function replacesEveryQuery(previous: string | undefined, breaking: readonly { type: string; description: string }[]): Promise<boolean> {
  if (previous === undefined) return false;
  const { buildSchema } = await import('graphql');
  const query = buildSchema(previous).getQueryType();
  if (!query) return false;
  const removed = new Set(breaking.filter((change) => change.type === 'FIELD_REMOVED').map((change) => change.description));
  return Object.keys(query.getFields()).every((field) => removed.has(`${query.name}.${field} was removed.`));
}

/** What one run of the generator gave, once its problems were reported. */
type ReportedRun = { readonly ok: false } | { readonly ok: true; readonly result: GenerateResult; readonly elapsed: number };

/**
 * Runs the generator once and reports what stops it on stderr, as `generate` does: the stage
 * timings (with `timings`), diagnostics (`file:line:col`, the rule, the fix), dangerous schema
 * changes, and breaking ones unless allowed. `ok` is false when nothing was written (or, in check
 * mode, nothing could be compared) because of them.
 */
async function generateReported(options: GenerateRun): Promise<ReportedRun> {
  const layout = layoutOf(options.root);
  const started = performance.now();
  const { generate } = await import('./pipeline.js');
  const { formatReport } = await import('./diagnostics/format.js');
  const url = options.check === true ? undefined : developmentUrl();
  const result = await generate({
    layout,
    mode: options.check === true ? 'check' : 'write',
    allowBreaking: options.allowBreaking === true,
    acceptDataLoss: options.acceptDataLoss === true,
    acceptEditedMigrations: options.acceptEditedMigrations === true,
    ...(url === undefined ? {} : { developmentUrl: url }),
    ...(options.cache ? { cache: options.cache } : {}),
    // CI's run fails on a declaration that does not compile (docs/behaviour.md §7).
    ...(options.check === true ? { typeCheck: 'error' as const } : {}),
  });
  if (options.timings === true) process.stderr.write(`timings (ms): ${Object.entries(result.timings).map(([stage, ms]) => `${stage} ${ms}`).join(', ')}\n`);
  // The source a diagnostic quotes; a diagnostic about a folder (an empty `entities/`) quotes none.
  const read = (file: string): string | undefined => {
    const full = path.join(layout.root, file);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
  };
  if (result.diagnostics.length > 0) process.stderr.write(`${formatReport(result.diagnostics, read)}\n`);
  if (result.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false };
  for (const change of result.dangerous) process.stderr.write(`warning: the GraphQL schema changes in a way clients may notice (${change.type}): ${change.description}\n`);
  if (result.breaking.length > 0 && options.allowBreaking !== true) {
    const lines = result.breaking.map((change) => {
      const at = change.column ? ` (${change.column.span.file}:${change.column.span.line}${change.column.renamedTo === undefined ? '' : `: renamed to ${change.column.renamedTo}?`})` : '';
      return `  ${change.type}: ${change.description}${at}`;
    });
    const fixes = [
      ...(result.breaking.some((change) => change.column) ? ["a field of an entity is its column: keep the column's name and type (rename it back), or add the new column beside the old one and remove the old one once clients have moved"] : []),
      ...(result.breaking.some((change) => !change.column) ? ['keep the old fields and mark them deprecated (@Query({ deprecationReason: … }))'] : []),
    ];
    const previous = read(path.join(path.relative(layout.root, layout.generatedDir), SDL_PATH));
    const newApplication = (await replacesEveryQuery(previous, result.breaking))
      ? "every query of the committed schema is gone: if entities/ is a new application in place of another, `npm run init -- --reset` removes the previous one's generated/ and database and keeps entities/ (docs/guide/development.md, \"Starting over from this repository's demo\")\n"
      : '';
    process.stderr.write(
      `the GraphQL schema would break existing clients (it is unversioned, docs/behaviour.md §9.5):\n${lines.join('\n')}\n` +
        `${fixes.join('; ')}; or pass --allow-breaking to accept the break\n` +
        newApplication,
    );
    return { ok: false };
  }
  return { ok: true, result, elapsed: Math.round(performance.now() - started) };
}

/**
 * `dev` and `generate --watch`: the declarations' TypeScript errors (generator/typecheck.ts),
 * checked in a child process after each cycle and printed as warnings when it answers — the
 * watching process and the server, if any, run on. A check still running when the next cycle
 * starts is stopped (`cancel`): its answer would be about files since changed.
 */
class BackgroundTypeCheck {
  private child: ChildProcess | undefined;

  constructor(private readonly root: string) {}

  /** Starts a check of the declarations as they are now. */
  start(): void {
    this.cancel();
    const layout = layoutOf(this.root);
    const module = fileURLToPath(new URL(`./typecheck-child${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));
    const child = fork(module, [JSON.stringify(layout)], { cwd: layout.root, execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.child = child;
    child.once('message', (message) => {
      void (async () => {
        const found = message as Diagnostic[];
        if (found.length === 0) return;
        const { formatReport } = await import('./diagnostics/format.js');
        const read = (file: string): string | undefined => {
          const full = path.join(layout.root, file);
          return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
        };
        process.stderr.write(`${formatReport(found, read)}\n`);
      })();
    });
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
  }

  /** Stops the running check, if any. */
  cancel(): void {
    this.child?.kill();
    this.child = undefined;
  }
}

/** `generate [--check]`: returns the exit code. */
async function runGenerate(options: GenerateRun): Promise<number> {
  const run = await generateReported(options);
  if (!run.ok) return 1;
  const { result, elapsed } = run;
  if (options.check === true) {
    const stale = [...result.changed.map((file) => `changed: generated/${file}`), ...result.removed.map((file) => `extra: generated/${file}`)];
    for (const [database, migration] of Object.entries(result.migrations)) stale.push(`missing migration: generated/${migrationsPath(database as DatabaseName)}/${migration.name}`);
    if (stale.length > 0) {
      const { writtenByVersion } = await import('./emit/writer.js');
      const app = path.join(layoutOf(options.root).generatedDir, 'app.ts');
      const previous = existsSync(app) ? writtenByVersion(readFileSync(app, 'utf8')) : undefined;
      const upgrade =
        previous !== undefined && previous !== GENERATOR_VERSION
          ? `generated/ was written by ${PACKAGE_NAME} ${previous === 'earlier' ? 'an earlier version' : previous}; this is ${PACKAGE_NAME} ${GENERATOR_VERSION}. After an upgrade, run \`npm run generate\` (resource-service generate) and commit the result.\n`
          : '';
      process.stderr.write(`${upgrade}generated/ is stale; run \`npm run generate\` and commit the result:\n${stale.map((line) => `  ${line}`).join('\n')}\n`);
      return 1;
    }
    if (options.quiet !== true) {
      // The type check waits for the Prisma clients (not committed); say when it could not run.
      const { stalePrismaClients } = await import('./emit/prisma/client.js');
      const unchecked = stalePrismaClients(layoutOf(options.root).generatedDir);
      const note = unchecked.length > 0 ? `; the declarations' types were not checked: the Prisma client (${unchecked.join(', ')}) is missing or stale, and \`npm run generate\` writes it` : '';
      process.stdout.write(`generated/ is up to date (${elapsed} ms)${note}\n`);
    }
    return 0;
  }
  if (options.quiet !== true) {
    const lines = [`generated ${result.changed.length} file(s), removed ${result.removed.length} in ${elapsed} ms`];
    for (const [database, migration] of Object.entries(result.migrations)) lines.push(`new migration: generated/${migrationsPath(database as DatabaseName)}/${migration.name}`);
    if (result.prismaClientsChanged.length > 0) lines.push(`regenerated the Prisma client (${result.prismaClientsChanged.join(', ')})`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

/**
 * `build` (generator/build.ts): checks that generated/ is current (as `generate --check`), writes
 * the Prisma clients when missing or stale, and compiles the application into `outDir`; returns
 * the exit code.
 */
async function runBuild(root: string, outDir: string): Promise<number> {
  const started = performance.now();
  if ((await runGenerate({ root, check: true, quiet: true })) !== 0) return 1;
  const { ensurePrismaClients } = await import('./emit/prisma/client.js');
  const layout = layoutOf(root);
  const clients = await ensurePrismaClients(layout.generatedDir);
  const { buildApplication } = await import('./build.js');
  const built = await buildApplication(layout.root, path.resolve(layout.root, outDir));
  const where = path.relative(process.cwd(), built.outDir) || '.';
  const lines = [
    ...(clients.length > 0 ? [`regenerated the Prisma client (${clients.join(', ')})`] : []),
    `built ${built.compiled.length} file(s) into ${where}/ in ${Math.round(performance.now() - started)} ms`,
    `start it with: node ${path.join(where, 'generated', 'main.js')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The migrations a run wrote, one name for every database that got the same one (`0004_create_comment`), else `name (database)` each. */
function migrationNames(result: GenerateResult): string[] {
  const byName = new Map<string, string[]>();
  for (const [database, migration] of Object.entries(result.migrations)) byName.set(migration.name, [...(byName.get(migration.name) ?? []), database]);
  const databases = Object.keys(result.migrations).length;
  return [...byName].map(([name, where]) => (where.length === databases ? name : `${name} (${where.join(', ')})`));
}

/** The first line of an error's message (the schema engine's add a backtrace). */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Resolves on the first SIGINT or SIGTERM: how a watching command is stopped. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** What a watching command reports for work that threw (the generator's own failure, a file it cannot read). */
function reportWatchError(error: unknown): void {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
}

/**
 * `generate --watch` (docs/decisions.md §10): generates once, then again after every burst of
 * changes under `entities/`, printing `ok, N files changed in T ms` (T from the first change of the
 * burst, so it includes the quiet period) or the diagnostics `generate` prints. An invalid
 * declaration, or the generator failing, never ends it; SIGINT or SIGTERM does (exit 0).
 */
async function runGenerateWatch(options: GenerateRun): Promise<number> {
  const layout = layoutOf(options.root);
  const { DeclarationWatcher } = await import('./watch.js');
  const { DeclarationProjectCache } = await import('./parse/project.js');
  const cache = new DeclarationProjectCache();
  const once = async (since: number): Promise<void> => {
    const run = await generateReported({ ...options, quiet: true, cache });
    if (!run.ok) return;
    const { result } = run;
    const migrations = migrationNames(result);
    const line = [`ok, ${result.changed.length + result.removed.length} files changed in ${Math.round(performance.now() - since)} ms`, ...(migrations.length > 0 ? [`new migration ${migrations.join(', ')}`] : [])].join(', ');
    process.stdout.write(`${line}\n`);
  };
  await once(performance.now()).catch(reportWatchError);
  const types = new BackgroundTypeCheck(options.root);
  const onBatch = async (since: number): Promise<void> => {
    types.cancel();
    await once(since);
    types.start();
  };
  const watcher = new DeclarationWatcher({ dir: layout.entitiesDir, onBatch: (batch) => onBatch(batch.firstEventAt), onError: reportWatchError });
  await watcher.start();
  // Listening for the signal before saying so: one sent as soon as the line is seen stops it cleanly.
  const stopped = stopSignal();
  process.stdout.write(`watching ${path.relative(process.cwd(), layout.entitiesDir) || '.'}/ for changes (Ctrl-C stops)\n`);
  types.start();
  await stopped;
  types.cancel();
  await watcher.close();
  return 0;
}

async function loadApplication(root: string): Promise<ApplicationDefinition<DatabaseClient, unknown>> {
  const file = path.join(path.resolve(root), 'generated', 'app.ts');
  if (!existsSync(file)) throw new CliError('generated/app.ts does not exist; run `npm run generate` first');
  // The Prisma clients are not committed: a fresh clone has none until something writes them.
  const { ensurePrismaClients } = await import('./emit/prisma/client.js');
  await ensurePrismaClients(path.join(path.resolve(root), 'generated'));
  const { importApplicationModule } = await import('./application-modules.js');
  const module = (await importApplicationModule(path.resolve(root), file)) as { application: ApplicationDefinition<DatabaseClient, unknown> };
  return module.application;
}

/** The schema and migrations folder of the database at `url`. */
async function migrationSource(root: string, url: string): Promise<{ schema: string; dir: string }> {
  const { dialectFor } = await import('../runtime/dialects/index.js');
  const database = dialectFor(url).name;
  const generated = path.join(path.resolve(root), 'generated');
  const schema = path.join(generated, schemaPath(database));
  if (!existsSync(schema)) throw new CliError(`generated/${schemaPath(database)} does not exist; run \`npm run generate\` first`);
  return { schema: readFileSync(schema, 'utf8'), dir: path.join(generated, migrationsPath(database)) };
}

/**
 * `migrate deploy` (docs/decisions.md §11): applies pending migrations to the database at `url`,
 * each in one transaction, after keeping a copy of a SQLite file (named on stdout); returns their
 * names. A failed migration, or one recorded as failed before, is a {@link CliError} in plain
 * words with the way out.
 */
async function migrateDeploy(root: string, url: string, keepBackups?: number): Promise<string[]> {
  const { createAdapterFactory } = await import('../runtime/data/database.js');
  const { deployMigrations, FailedMigrationsError, MigrationFailedError } = await import('../runtime/data/migrations.js');
  const { schema, dir } = await migrationSource(root, url);
  try {
    const deployment = await deployMigrations(url, schema, dir, await createAdapterFactory(url), keepBackups === undefined ? {} : { keepBackups });
    if (deployment.backup !== undefined) process.stdout.write(`kept a copy of the database before migrating: ${path.relative(process.cwd(), deployment.backup)}\n`);
    return [...deployment.applied];
  } catch (error) {
    if (error instanceof MigrationFailedError) {
      throw new CliError(
        `migration ${error.migration} failed: ${error.reason}\n` +
          `the database is as it was before it (${error.atomicity}); it is recorded as failed, and migrations before it stay applied.\n` +
          `fix the cause, then \`npm run migrate -- resolve --rolled-back ${error.migration}\` and deploy again (docs/guide/migrations.md, "When a deploy fails")`,
      );
    }
    if (error instanceof FailedMigrationsError) {
      const lines = error.failed.map((migration) => `  ${migration.name} (started ${migration.startedAt}): ${migration.reason}`);
      const name = error.failed[0]?.name ?? 'NAME';
      throw new CliError(
        `nothing applied: the database records ${error.failed.length === 1 ? 'a failed migration' : 'failed migrations'}:\n${lines.join('\n')}\n` +
          `once its cause is fixed, \`npm run migrate -- resolve --rolled-back ${name}\` lets the next deploy run it again; ` +
          `if you made its changes by hand, \`npm run migrate -- resolve --applied ${name}\` records it as applied`,
      );
    }
    throw error;
  }
}

/** `migrate status` (docs/decisions.md §11): prints where the database stands and what drifted; returns the exit code (1 unless all is applied and nothing drifted). */
async function migrateStatus(root: string, url: string): Promise<number> {
  const { createAdapterFactory } = await import('../runtime/data/database.js');
  const { migrationStatus } = await import('../runtime/data/migrations.js');
  const { schema, dir } = await migrationSource(root, url);
  const status = await migrationStatus(schema, dir, await createAdapterFactory(url), { schemaDrift: true });
  const folder = path.relative(process.cwd(), dir) || '.';
  const lines = [
    ...status.applied.map((name) => `applied  ${name}`),
    ...status.failed.map((migration) => `failed   ${migration.name} (started ${migration.startedAt}): ${migration.reason}; fix the cause, then \`migrate resolve --rolled-back ${migration.name}\``),
    ...status.pending.map((name) => `pending  ${name}`),
    ...status.unknown.map((name) => `unknown  ${name}: applied to the database but not in ${folder} (the histories diverge)`),
    ...status.edited.map((name) => `edited   ${name}: changed after it was applied (its checksum differs from the database's)`),
    ...status.folderDrift.map((drift) => `${drift.kind.padEnd(8)} ${drift.name}: ${drift.kind === 'deleted' ? 'deleted' : drift.kind === 'edited' ? 'edited' : 'added by hand'} after generate wrote the migrations (${folder}/checksums.json)`),
    ...(status.schemaDrift === undefined ? [] : [`drift    the database's schema differs from what its applied migrations create:`, ...status.schemaDrift.split('\n').map((line) => `  ${line}`)]),
  ];
  process.stdout.write(`${lines.join('\n') || 'no migrations'}\n${status.pending.length} pending\n`);
  const clean = status.pending.length === 0 && status.failed.length === 0 && status.unknown.length === 0 && status.edited.length === 0 && status.folderDrift.length === 0 && status.schemaDrift === undefined;
  return clean ? 0 : 1;
}

/** `migrate resolve --applied|--rolled-back NAME` (docs/decisions.md §11). */
async function migrateResolve(root: string, url: string, options: { applied?: string; rolledBack?: string }): Promise<void> {
  const mark = options.applied !== undefined ? 'applied' : 'rolled-back';
  const name = options.applied ?? options.rolledBack;
  if (name === undefined || (options.applied !== undefined && options.rolledBack !== undefined)) throw new CliError('migrate resolve takes one of --applied NAME or --rolled-back NAME');
  const { createAdapterFactory } = await import('../runtime/data/database.js');
  const { resolveMigration } = await import('../runtime/data/migrations.js');
  const { schema, dir } = await migrationSource(root, url);
  try {
    await resolveMigration(schema, dir, await createAdapterFactory(url), name, mark);
  } catch (error) {
    throw new CliError(firstLine(error));
  }
  process.stdout.write(mark === 'applied' ? `recorded ${name} as applied\n` : `recorded ${name} as rolled back: the next \`migrate deploy\` runs it again\n`);
}

async function withDatabase<T>(root: string, url: string, work: (database: DatabaseClient, application: ApplicationDefinition<DatabaseClient, unknown>) => Promise<T>): Promise<T> {
  const { createAdapterFactory } = await import('../runtime/data/database.js');
  const application = await loadApplication(root);
  const database = await application.createDatabase(await createAdapterFactory(url));
  try {
    return await work(database, application);
  } finally {
    await database.$disconnect();
  }
}

/** Option names of `seed` that a size may not take. */
const RESERVED_SEED_OPTIONS = new Set(['json', 'help', 'root']);

/**
 * The application's development hooks (the default export of `entities/dev.ts`), checked for
 * shape; undefined when the file does not exist.
 */
async function loadDevHooks(root: string): Promise<DevHooks | undefined> {
  const file = path.join(path.resolve(root), DEV_HOOKS_FILE);
  if (!existsSync(file)) return undefined;
  const { importApplicationModule } = await import('./application-modules.js');
  const hooks = ((await importApplicationModule(path.resolve(root), file)) as { default?: unknown }).default;
  const problem = (detail: string): CliError => new CliError(`${DEV_HOOKS_FILE}: ${detail} (${HOOKS_HELP})`);
  if (typeof hooks !== 'object' || hooks === null) throw problem('export the hooks as the default export: `export default defineDevHooks({ … })`');
  const record = hooks as Record<string, unknown>;
  for (const name of ['seed', 'isEmpty', 'principals', 'examples']) {
    if (record[name] !== undefined && typeof record[name] !== 'function') throw problem(`\`${name}\` must be a function`);
  }
  if (record.sizes !== undefined) {
    if (typeof record.sizes !== 'object' || record.sizes === null) throw problem('`sizes` must be an object of { description, default } by name');
    for (const [name, size] of Object.entries(record.sizes)) {
      if (!SEED_SIZE_NAME.test(name) || RESERVED_SEED_OPTIONS.has(name)) throw problem(`the size \`${name}\` needs a name of lowercase letters and digits other than ${[...RESERVED_SEED_OPTIONS].join(', ')} (it is the option --${name})`);
      const { description, default: fallback } = (size ?? {}) as { description?: unknown; default?: unknown };
      if (typeof description !== 'string' || typeof fallback !== 'number' || !Number.isInteger(fallback) || fallback < 0) throw problem(`the size \`${name}\` needs a description (string) and a default (non-negative integer)`);
    }
  }
  return hooks;
}

/** The declared sizes of `hooks` at their defaults. */
function defaultSizes(hooks: DevHooks): Record<string, number> {
  return Object.fromEntries(Object.entries(hooks.sizes ?? {}).map(([name, size]) => [name, size.default]));
}

/** Whether no exposed entity's table has a row: the default of the `isEmpty` hook. */
async function hasNoRows(database: DatabaseClient, entities: readonly EntityDescriptor[]): Promise<boolean> {
  // Through the Prisma client's model delegates (`database.note`), so no SQL dialect is assumed.
  const delegates = database as unknown as Record<string, { findFirst?: (args: object) => Promise<unknown> } | undefined>;
  for (const entity of entities) {
    const delegate = delegates[`${entity.name.charAt(0).toLowerCase()}${entity.name.slice(1)}`];
    if (delegate?.findFirst && (await delegate.findFirst({})) !== null) return false;
  }
  return true;
}

/** Options of {@link seedWith}. */
interface SeedInvocation {
  /** The application's hooks; their `seed` is present (checked by the caller). */
  readonly hooks: DevHooks;
  readonly sizes: Readonly<Record<string, number>>;
  /** Seed only when the database holds no application data. */
  readonly ifEmpty: boolean;
  /** Show a progress bar for large seeds in a terminal. */
  readonly progress: boolean;
}

/** Runs the seed hook unscoped; undefined when `ifEmpty` and the database has data. */
async function seedWith(database: DatabaseClient, application: ApplicationDefinition<DatabaseClient, unknown>, options: SeedInvocation): Promise<object | undefined> {
  const { hooks } = options;
  const { runUnscoped } = await import('../runtime/auth/context.js');
  if (options.ifEmpty) {
    const empty = hooks.isEmpty ? await runUnscoped(() => hooks.isEmpty?.(database) ?? Promise.resolve(true)) : await hasNoRows(database, application.entities);
    if (!empty) return undefined;
  }
  const { SingleBar } = await import('cli-progress');
  let bar: InstanceType<typeof SingleBar> | undefined;
  let started = false;
  const onProgress = (done: number, total: number): void => {
    if (!started) {
      started = true;
      if (options.progress && total >= 5_000 && process.stderr.isTTY) {
        bar = new SingleBar({ format: 'seeding [{bar}] {percentage}% | {value}/{total} rows' });
        bar.start(total, 0);
      }
    }
    bar?.update(done);
  };
  try {
    // A hook that returns nothing still seeded: it reads as `seeded` with no counts.
    return (await runUnscoped(() => hooks.seed?.(database, { sizes: options.sizes, onProgress }))) ?? {};
  } finally {
    bar?.stop();
  }
}

/** The principals the `principals` hook names, read unscoped; none without the hook. */
async function principalsWith(database: DatabaseClient, hooks: DevHooks, seeded: object | undefined): Promise<readonly DevPrincipal[]> {
  if (!hooks.principals) return [];
  const { runUnscoped } = await import('../runtime/auth/context.js');
  return runUnscoped(() => hooks.principals?.(database, seeded) ?? Promise.resolve([]));
}

/** Brings the planner's statistics up to date after fresh rows (docs/decisions.md §6). */
async function refreshStatistics(url: string): Promise<void> {
  const { createAdapterFactory, updateStatistics } = await import('../runtime/data/database.js');
  await updateStatistics(await createAdapterFactory(url));
}

/** `seeded 2 orgs, 6 users, 12 posts`: one count per array in what the seed returned. */
function describeSeeded(seeded: object): string {
  const counts = Object.entries(seeded).flatMap(([name, value]) => (Array.isArray(value) ? [`${value.length} ${name}`] : []));
  return counts.length > 0 ? `seeded ${counts.join(', ')}` : 'seeded';
}

/** Development tokens for `principals`, signed with the configured secret; a role's second principal gets `TOKEN_<ROLE>_2`. */
async function mintDevTokens(principals: readonly DevPrincipal[]): Promise<DevToken[]> {
  const { mintToken } = await import('../runtime/auth/authentication.js');
  const secret = config().auth.secret;
  const tokens: DevToken[] = [];
  const used = new Set<string>();
  for (const principal of principals) {
    const token = await mintToken(secret, { sub: principal.sub, org_id: principal.org_id, role: principal.role });
    const base = tokenVariable(principal.role);
    let variable = base;
    for (let index = 2; used.has(variable); index++) variable = `${base}_${index}`;
    used.add(variable);
    tokens.push({ role: principal.role, name: principal.name, token, variable });
  }
  return tokens;
}

/** Why `seed` has nothing to run, and how to give it something. */
function noSeedHook(hooks: DevHooks | undefined): CliError {
  const where = hooks ? `${DEV_HOOKS_FILE} has no \`seed\` hook` : `${DEV_HOOKS_FILE} does not exist`;
  return new CliError(`nothing to seed: ${where}. Add one: \`export default defineDevHooks({ seed: async (database, { sizes }) => { … } })\` with defineDevHooks from runtime/declarations/dev-hooks.ts (${HOOKS_HELP})`);
}

/** Options of `seed`: the built-in ones; the hook's sizes are read by name. */
interface SeedCommandOptions {
  readonly json?: boolean;
  readonly ifEmpty?: boolean;
  readonly [size: string]: unknown;
}

/** `seed`: runs the application's seed hook with the command line's sizes. */
async function runSeedCommand(root: string, hooks: DevHooks | undefined, options: SeedCommandOptions): Promise<void> {
  if (!hooks?.seed) throw noSeedHook(hooks);
  const sizes = Object.fromEntries(Object.keys(hooks.sizes ?? {}).map((name) => [name, Number(options[name])]));
  const json = options.json === true;
  const url = config().database.url;
  const outcome = await withDatabase(root, url, async (database, application) => {
    const seeded = await seedWith(database, application, { hooks, sizes, ifEmpty: options.ifEmpty === true, progress: !json });
    return { seeded, principals: seeded && json ? await principalsWith(database, hooks, seeded) : [] };
  });
  if (!outcome.seeded) {
    process.stdout.write(json ? '{"skipped":true}\n' : 'the database already has data; nothing seeded\n');
    return;
  }
  await refreshStatistics(url);
  if (!json) {
    process.stdout.write(`${describeSeeded(outcome.seeded)}\n`);
    return;
  }
  const tokens = (await mintDevTokens(outcome.principals)).map(({ role, name, token }) => ({ role, name, token }));
  process.stdout.write(`${JSON.stringify({ ...outcome.seeded, tokens }, null, 2)}\n`);
}

/** Options of `dev`. */
interface DevRun {
  readonly root: string;
  /** Accept GraphQL schema changes that break existing clients (as `generate --allow-breaking`). */
  readonly allowBreaking: boolean;
  /** Write migrations that lose data (as `generate --accept-data-loss`). */
  readonly acceptDataLoss: boolean;
  /** Print where each cycle's time went, to stderr. */
  readonly timings: boolean;
}

/** The summary of where a server is: one line per entrypoint, `name  address  what it is`. */
function describeEntrypoints(address: ServerAddress): string[] {
  const rows = address.entrypoints.map((entrypoint) => [entrypoint.name, `${entrypoint.scheme === 'websocket' ? address.url.replace(/^http/, 'ws') : address.url}${entrypoint.path}`, entrypoint.description]);
  const widths = [0, 1].map((column) => Math.max(0, ...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => `  ${(row[0] ?? '').padEnd(widths[0] ?? 0)}  ${(row[1] ?? '').padEnd(widths[1] ?? 0)}  ${row[2] ?? ''}`);
}

/**
 * `dev`: generate, migrate, seed an empty database with the seed hook's default sizes, serve, print
 * where everything is, a token per principal and the example lines; then watch `entities/` and, on
 * every burst of changes, regenerate, apply the new migration when the schema changed, and restart
 * the server on the same port — one line per cycle, or the diagnostics, the old server serving
 * until a new one can take over (docs/decisions.md §10). Without hooks it serves the database as it is.
 */
async function runDev(options: DevRun): Promise<number> {
  const { root } = options;
  const { DeclarationProjectCache } = await import('./parse/project.js');
  const cache = new DeclarationProjectCache();
  if ((await runGenerate({ root, allowBreaking: options.allowBreaking, acceptDataLoss: options.acceptDataLoss, timings: options.timings, cache })) !== 0) return 1;
  const settings = config();
  const url = settings.database.url;
  const applied = await migrateDeploy(root, url);
  if (applied.length > 0) process.stdout.write(`applied migrations: ${applied.join(', ')}\n`);
  const hooks = await loadDevHooks(root);
  let principals: readonly DevPrincipal[] = [];
  if (hooks) {
    const seeded = await withDatabase(root, url, async (database, application) => {
      const written = hooks.seed ? await seedWith(database, application, { hooks, sizes: defaultSizes(hooks), ifEmpty: true, progress: true }) : undefined;
      principals = await principalsWith(database, hooks, written);
      return written;
    });
    if (seeded) {
      await refreshStatistics(url);
      process.stdout.write(`${describeSeeded(seeded)}\n`);
    }
  }

  const { DevServer, ServerStartError } = await import('./dev-loop.js');
  const server = new DevServer({
    root: path.resolve(root),
    // The playground is on in development unless configured otherwise, and the server answers this
    // machine only (docs/hostile-input.md §10) unless APP_HTTP__HOST says otherwise.
    env: { ...process.env, APP_GRAPHQL__PLAYGROUND: process.env.APP_GRAPHQL__PLAYGROUND ?? 'true', APP_HTTP__HOST: process.env.APP_HTTP__HOST ?? '127.0.0.1' },
    logs: {
      verbose: ['debug', 'trace'].includes(settings.log.level),
      pretty: settings.log.format === 'pretty' || (settings.log.format === undefined && process.stdout.isTTY),
      output: process.stdout,
    },
    stopTimeout: settings.http.shutdownTimeout + 5_000,
    onUnexpectedExit: (code) => process.stderr.write(`the server exited (code ${String(code)}); save a change to start it again\n`),
  });
  let first: Handover;
  try {
    first = await server.start();
  } catch (error) {
    await server.close();
    if (error instanceof ServerStartError) throw new CliError(`the server did not start: ${error.message}`);
    throw error;
  }
  const tokens = await mintDevTokens(principals);
  const lines = ['', `serving ${first.address.url}`, ...describeEntrypoints(first.address), ''];
  for (const { role, name, token, variable } of tokens) lines.push(`${role} (${name}):`, `  export ${variable}=${token}`);
  const examples = hooks?.examples?.({ url: first.address.url, tokens }) ?? [];
  if (examples.length > 0) lines.push('', 'try:', ...examples.map((line) => `  ${line}`));
  if (!hooks) {
    lines.push(
      `no ${DEV_HOOKS_FILE}: nothing seeded and no token printed. Add one to seed data and print tokens (${HOOKS_HELP}),`,
      'or mint a token by hand: npm run token -- --sub <uuid> --org <uuid> --role <role>',
    );
  }
  /** One cycle: regenerate; migrate when the schema changed; restart; one line. */
  const cycle = async (since: number): Promise<void> => {
    const run = await generateReported({ root, quiet: true, allowBreaking: options.allowBreaking, acceptDataLoss: options.acceptDataLoss, timings: options.timings, cache });
    if (!run.ok) {
      process.stdout.write('not regenerated; the server keeps running the previous version\n');
      return;
    }
    const { result } = run;
    const parts = [`regenerated: ${result.changed.length + result.removed.length} files`];
    const migrated = performance.now();
    const names = migrationNames(result);
    // The running version serves through the migration (a deploy beside a running server, docs/decisions.md §11).
    if (names.length > 0) {
      try {
        const done = await migrateDeploy(root, url);
        parts.push(done.length > 0 ? `migration ${done.join(', ')} applied` : 'no migration to apply');
      } catch (error) {
        const reason = error instanceof CliError ? firstLine(error) : `migration ${names.join(', ')} failed: ${firstLine(error)}`;
        process.stdout.write(`${[...parts, reason].join(', ')}; the server keeps running the previous version\n`);
        return;
      }
    }
    const migrating = Math.round(performance.now() - migrated);
    try {
      const handover = await server.start();
      parts.push(`restarted in ${Math.round(performance.now() - since)} ms`);
      process.stdout.write(`${parts.join(', ')}\n`);
      if (options.timings) process.stderr.write(`timings (ms): generate ${run.elapsed}, migrate ${migrating}, boot ${handover.boot}, switch ${handover.switch}\n`);
    } catch (error) {
      if (!(error instanceof ServerStartError)) throw error;
      const running = error.stoppedPrevious ? 'no server is running: fix it and save to start one' : 'the server keeps running the previous version';
      process.stdout.write(`${parts.join(', ')}, not restarted: ${error.message}; ${running}\n`);
    }
  };
  // Watching before saying so: a save right after the line is seen.
  const layout = layoutOf(root);
  const { DeclarationWatcher } = await import('./watch.js');
  const types = new BackgroundTypeCheck(root);
  const onBatch = async (since: number): Promise<void> => {
    types.cancel();
    await cycle(since);
    types.start();
  };
  const watcher = new DeclarationWatcher({ dir: layout.entitiesDir, onBatch: (batch) => onBatch(batch.firstEventAt), onError: reportWatchError });
  await watcher.start();
  lines.push('', `watching ${path.relative(process.cwd(), layout.entitiesDir) || '.'}/: a saved change regenerates, migrates and restarts the server on port ${first.address.port} (Ctrl-C stops)`);
  const stopRequested = stopSignal();
  process.stdout.write(`${lines.join('\n')}\n\n`);
  types.start();
  await stopRequested;
  types.cancel();
  await watcher.close();
  await server.close();
  return 0;
}

/**
 * `init [dir] [--reset]`: makes the folder `dir` (created when missing; default the project root) a
 * new application (generator/init.ts); prints what it did and what to run next.
 */
async function runInit(root: string, dir: string | undefined, reset: boolean): Promise<void> {
  const target = path.resolve(root, dir ?? '.');
  mkdirSync(target, { recursive: true });
  // The development database's path is relative to the application, as every command reads it.
  process.chdir(target);
  const { initApplication, InitRefusedError } = await import('./init.js');
  const { dialectFor } = await import('../runtime/dialects/index.js');
  const url = config().database.url;
  const dialect = dialectFor(url);
  const database = { title: dialect.title, files: dialect.databaseFiles?.(url) };
  let result: ReturnType<typeof initApplication>;
  try {
    result = initApplication({ layout: layoutOf(target), templateDir: TEMPLATE_DIR, reset, database, dependency: { name: PACKAGE_NAME, version: GENERATOR_VERSION, peers: PEER_DEPENDENCIES } });
  } catch (error) {
    if (error instanceof InitRefusedError) throw new CliError(error.message);
    throw error;
  }
  const lines = [...result.removed.map((entry) => `removed ${entry}`)];
  const written = [...result.projectFiles, ...result.written];
  if (written.length > 0) lines.push(`wrote ${written.join(', ')}`);
  lines.push(...result.updated);
  if (result.kept.length > 0) lines.push(`kept the declarations in entities/ (${result.kept.length} file(s))`);
  if (lines.length === 0) lines.push('nothing to do: no previous generated/ or database');
  for (const note of result.notes) lines.push(`note: ${note}`);
  const into = path.relative(root, target);
  const install = result.projectFiles.length > 0 || result.updated.length > 0 ? 'npm install && ' : '';
  lines.push(`next: \`${into === '' ? '' : `cd ${into} && `}${install}npm run dev\` generates generated/ with a first migration, migrates, seeds, prints tokens and curl lines, and serves`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The commands that use the development secret when no APP_AUTH__SECRET is set (generator/dev-secret.ts). */
const DEVELOPMENT_COMMANDS = new Set(['dev', 'serve', 'seed', 'token']);

/** Builds the command tree. */
export function createProgram(): Command {
  const program = new Command(PACKAGE_NAME)
    .description('Generate and run a versioned REST + GraphQL server from entity declarations')
    .version(GENERATOR_VERSION, '-v, --version', 'print the version')
    .option('--root <dir>', 'project root', '.');
  const root = (): string => program.opts<{ root: string }>().root;

  program
    .command('init')
    .description("start a new application in dir (default: here): a one-entity application (Note) in entities/, and the project files it lacks — package.json scripts and dependencies, tsconfig.json, .gitignore, README.md, a first test; never overwrites a file, and refuses while a previous application's generated/ or SQLite database remains")
    .argument('[dir]', 'the folder of the application, created when missing')
    .option('--reset', "remove the previous application's generated/ (its GraphQL baseline and migrations) and SQLite database; declarations already in entities/ are kept")
    .action(async (dir: string | undefined, options: { reset?: boolean }) => {
      await runInit(root(), dir, options.reset === true);
    });

  program
    .command('generate')
    .description('read entities/, validate, and write generated/ (with --check: only report what is stale)')
    .option('--check', 'exit 1 when generated/ is stale or a declaration is invalid; write nothing')
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option('--accept-data-loss', 'write a migration that drops data (a column, a table, a type change) or cannot run on the development database\'s rows')
    .option('--accept-edited-migrations', 'record migration folders edited or added by hand since generate wrote them')
    .option('--timings', 'print the milliseconds each stage took (parse, resolve, validate, emit, client, migrations, review, write, prisma) to stderr')
    .addOption(new Option('--watch', 'generate again on every change under entities/, printing "ok, N files changed" or the diagnostics, until Ctrl-C').conflicts('check'))
    .action(async (options: { check?: boolean; allowBreaking?: boolean; acceptDataLoss?: boolean; acceptEditedMigrations?: boolean; timings?: boolean; watch?: boolean }) => {
      const run: GenerateRun = {
        root: root(),
        check: options.check === true,
        allowBreaking: options.allowBreaking === true,
        acceptDataLoss: options.acceptDataLoss === true,
        acceptEditedMigrations: options.acceptEditedMigrations === true,
        timings: options.timings === true,
      };
      process.exitCode = options.watch === true ? await runGenerateWatch(run) : await runGenerate(run);
    });

  program
    .command('build')
    .description('compile the application (generated/main.ts and every file of yours it reaches) to JavaScript in dist/, for `node dist/generated/main.js`; refuses while generated/ is stale')
    .option('--out-dir <dir>', 'where the compiled application goes', 'dist')
    .action(async (options: { outDir: string }) => {
      process.exitCode = await runBuild(root(), options.outDir);
    });

  program
    .command('migrate')
    .description('apply pending migrations (deploy), show where the database stands and what drifted (status), generate then apply (dev), or record a failed migration as rolled back or applied (resolve)')
    .argument('[action]', 'deploy | status | dev | resolve', 'deploy')
    .option('--accept-data-loss', 'dev: write a migration that drops data or cannot run on the development database')
    .option('--allow-breaking', 'dev: accept GraphQL schema changes that break existing clients')
    .option('--applied <name>', 'resolve: record the migration as applied (its changes were made by hand)')
    .option('--rolled-back <name>', 'resolve: record the failed migration as rolled back, so the next deploy runs it again')
    .option('--keep-backups <n>', 'deploy, dev: copies of a SQLite database kept before deploys (0: none)', nonNegativeInteger)
    .action(async (action: string, options: { acceptDataLoss?: boolean; allowBreaking?: boolean; applied?: string; rolledBack?: string; keepBackups?: number }) => {
      const url = config().database.url;
      if (action === 'dev') {
        if ((await runGenerate({ root: root(), acceptDataLoss: options.acceptDataLoss === true, allowBreaking: options.allowBreaking === true })) !== 0) {
          process.exitCode = 1;
          return;
        }
        action = 'deploy';
      }
      if (action === 'deploy') {
        const applied = await migrateDeploy(root(), url, options.keepBackups);
        process.stdout.write(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'no pending migrations\n');
        return;
      }
      if (action === 'status') {
        process.exitCode = await migrateStatus(root(), url);
        return;
      }
      if (action === 'resolve') {
        await migrateResolve(root(), url, options);
        return;
      }
      throw new CliError(`unknown migrate action ${JSON.stringify(action)}: use deploy, status, dev or resolve`);
    });

  // The seed's sizes (`--orgs 2`) are the application's: they are added from its hooks just before
  // `seed` parses its own options, so they show in `seed --help` too.
  let hooks: DevHooks | undefined;
  const seed = program
    .command('seed')
    .description(`run the application's seed hook (${DEV_HOOKS_FILE}), with the sizes it declares as --<size> <n>`)
    .option('--json', 'print what was created, ids included, with development tokens, as JSON')
    .option('--if-empty', 'do nothing when the database already has data')
    .action(async (options: SeedCommandOptions) => {
      await runSeedCommand(root(), hooks, options);
    });
  program.hook('preSubcommand', async (_program, subcommand) => {
    // The development commands sign and check tokens with the secret kept beside the development database.
    if (DEVELOPMENT_COMMANDS.has(subcommand.name())) {
      const { useDevelopmentSecret } = await import('./dev-secret.js');
      useDevelopmentSecret(path.resolve(root()), developmentUrl());
    }
    if (subcommand !== seed) return;
    hooks = await loadDevHooks(root());
    for (const [name, size] of Object.entries(hooks?.sizes ?? {})) seed.addOption(new Option(`--${name} <n>`, size.description).argParser(nonNegativeInteger).default(size.default));
  });

  program
    .command('token')
    .description('print a signed development token (HS256 with APP_AUTH__SECRET)')
    .requiredOption('--sub <uuid>', 'user id')
    .requiredOption('--org <uuid>', 'org id')
    .requiredOption('--role <role>', "the role claim, as the application's abilities read it")
    .option('--expires <span>', 'lifetime, for example 12h or 30m', '12h')
    .action(async (options: { sub: string; org: string; role: string; expires: string }) => {
      const { mintToken } = await import('../runtime/auth/authentication.js');
      process.stdout.write(`${await mintToken(config().auth.secret, { sub: options.sub, org_id: options.org, role: options.role }, options.expires)}\n`);
    });

  program
    .command('serve')
    .description('start the generated server (configuration from APP_* variables; APP_HTTP__WORKERS forks workers)')
    .option('--port <port>', 'listen on this port instead of APP_HTTP__PORT (default 3000; 0 picks a free one)', portNumber)
    .option('--host <address>', 'listen on this address instead of APP_HTTP__HOST')
    .action(async (options: ListenOptions) => {
      applyListenOptions(options);
      const { runServer } = await import('../runtime/server/main.js');
      await runServer(await loadApplication(root()));
    });

  program
    .command('dev')
    .description(`generate, migrate the database, seed it when empty, serve, and print tokens and example requests (from ${DEV_HOOKS_FILE} when present); then regenerate, migrate and restart on every change under entities/, until Ctrl-C`)
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option('--accept-data-loss', 'write migrations that drop data or cannot run on the database\'s rows (as generate --accept-data-loss)')
    .option('--timings', 'print where each cycle\'s time went (generate, migrate, boot, switch) to stderr')
    .option('--port <port>', 'listen on this port instead of APP_HTTP__PORT (default 3000; 0 picks a free one)', portNumber)
    .option('--host <address>', 'listen on this address instead of APP_HTTP__HOST (default 127.0.0.1: this machine only)')
    .action(async (options: { allowBreaking?: boolean; acceptDataLoss?: boolean; timings?: boolean } & ListenOptions) => {
      applyListenOptions(options);
      process.exitCode = await runDev({ root: root(), allowBreaking: options.allowBreaking === true, acceptDataLoss: options.acceptDataLoss === true, timings: options.timings === true });
    });

  return program;
}

/**
 * Commands that keep running (a server) after their action returns; every other one exits once its
 * action is done — `dev` and `generate --watch` return only once stopped.
 */
const LONG_RUNNING = new Set(['serve']);

const program = createProgram();
let finished: string | undefined;
program.hook('postAction', (_program, command) => {
  finished = command.name();
});
program.parseAsync(process.argv).then(
  // The schema engine leaves a 10 s timer (its advisory-lock timeout) behind on PostgreSQL, and a
  // pool may linger: a one-shot command exits as soon as it is done rather than waiting on them,
  // but only once its output has left the process (a pipe takes it in 64 KiB steps).
  () => {
    if (finished !== undefined && !LONG_RUNNING.has(finished)) void exitWhenWritten();
  },
  (error: unknown) => {
    if (error instanceof CliError || (error instanceof Error && error.name === 'OutputFolderError')) {
      process.stderr.write(`error: ${error.message}\n`);
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      if (process.env.DEBUG) process.stderr.write(`${error instanceof Error ? error.stack : ''}\n`);
    }
    void exitWhenWritten(1);
  },
);
