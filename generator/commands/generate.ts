/**
 * `generate [--check | --watch]` (docs/decisions.md §10): reads `entities/`, validates, and writes
 * `generated/` — or, with `--check`, only reports what is stale (what CI runs), or, with `--watch`,
 * generates again on every change. `dev`, `build` and `migrate dev` generate through it too, and
 * all of them follow strict mode (`--strict`, or the application's package.json setting: every
 * warning is an error, docs/guide/development.md "Strict mode").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command, Option } from 'commander';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DeclarationProjectCache } from '../parse/project.js';
import type { GenerateResult } from '../pipeline.js';
import { type DatabaseName, migrationsPath, SDL_PATH } from '../paths.js';
import { GENERATOR_VERSION, PACKAGE_NAME } from '../package.js';
import { developmentUrl, layoutOf, reportWatchError, stopSignal } from './common.js';

/** Options of {@link runGenerate}. */
export interface GenerateRun {
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
  /**
   * Count every warning as an error (`--strict`, or `false` for `--no-strict`); undefined: as the
   * application's package.json says (`"resource-service": { "strict": true }`, generator/project-info.ts).
   */
  readonly strict?: boolean;
}

/** Whether a run of `options` is strict: its flag, else the application's setting. Throws when the setting is malformed. */
async function strictOf(options: GenerateRun): Promise<boolean> {
  if (options.strict !== undefined) return options.strict;
  const { readGeneratorSettings } = await import('../project-info.js');
  return readGeneratorSettings(layoutOf(options.root).root).strict;
}

/**
 * Whether `breaking` removes every query of the committed schema `previous`: what a new
 * application written in place of another looks like, rather than an evolution of the same one.
 */
async function replacesEveryQuery(
  previous: string | undefined,
  breaking: readonly { type: string; description: string }[],
): Promise<boolean> {
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
 * mode, nothing could be compared) because of them — in strict mode because of a warning too.
 * Throws when the application's settings cannot be read (generator/project-info.ts).
 */
export async function generateReported(options: GenerateRun): Promise<ReportedRun> {
  const layout = layoutOf(options.root);
  const started = performance.now();
  const strict = await strictOf(options);
  const { generate } = await import('../pipeline.js');
  const { formatReport } = await import('../diagnostics/format.js');
  const url = options.check === true ? undefined : developmentUrl();
  const result = await generate({
    layout,
    mode: options.check === true ? 'check' : 'write',
    allowBreaking: options.allowBreaking === true,
    acceptDataLoss: options.acceptDataLoss === true,
    acceptEditedMigrations: options.acceptEditedMigrations === true,
    ...(url === undefined ? {} : { developmentUrl: url }),
    ...(options.cache ? { cache: options.cache } : {}),
    strict,
    // CI's run fails on a declaration that does not compile (docs/behaviour.md §7).
    ...(options.check === true ? { typeCheck: 'error' as const } : {}),
  });
  if (options.timings === true)
    process.stderr.write(
      `timings (ms): ${Object.entries(result.timings)
        .map(([stage, ms]) => `${stage} ${ms}`)
        .join(', ')}\n`,
    );
  // The source a diagnostic quotes; a diagnostic about a folder (an empty `entities/`) quotes none.
  const read = (file: string): string | undefined => {
    const full = path.join(layout.root, file);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
  };
  if (result.diagnostics.length > 0) process.stderr.write(`${formatReport(result.diagnostics, read)}\n`);
  if (result.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false };
  for (const change of result.dangerous)
    process.stderr.write(`warning: the GraphQL schema changes in a way clients may notice (${change.type}): ${change.description}\n`);
  if (result.breaking.length > 0 && options.allowBreaking !== true) {
    const lines = result.breaking.map((change) => {
      const at = change.column
        ? ` (${change.column.span.file}:${change.column.span.line}${change.column.renamedTo === undefined ? '' : `: renamed to ${change.column.renamedTo}?`})`
        : '';
      return `  ${change.type}: ${change.description}${at}`;
    });
    const fixes = [
      ...(result.breaking.some((change) => change.column)
        ? [
            'a field of an entity is its column: keep the column\'s name and type (rename it back), or add the new column beside the old one, deprecate the old one (@Column({ deprecationReason: … })) and remove it in a later release (docs/guide/migrations.md, "Renaming a column")',
          ]
        : []),
      ...(result.breaking.some((change) => !change.column)
        ? ['keep the old fields and mark them deprecated (@Query({ deprecationReason: … }))']
        : []),
    ];
    const previous = read(path.join(path.relative(layout.root, layout.generatedDir), SDL_PATH));
    const newApplication = (await replacesEveryQuery(previous, result.breaking))
      ? 'every query of the committed schema is gone: if entities/ is a new application in place of another, `npm run init -- --reset` removes the previous one\'s generated/ and database and keeps entities/ (docs/guide/development.md, "Starting over from this repository\'s demo")\n'
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
export class BackgroundTypeCheck {
  private child: ChildProcess | undefined;

  constructor(private readonly root: string) {}

  /** Starts a check of the declarations as they are now. */
  start(): void {
    this.cancel();
    const layout = layoutOf(this.root);
    const module = fileURLToPath(new URL(`../typecheck-child${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));
    const child = fork(module, [JSON.stringify(layout)], {
      cwd: layout.root,
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child = child;
    child.once('message', (message) => {
      void (async () => {
        const found = message as Diagnostic[];
        if (found.length === 0) return;
        const { formatReport } = await import('../diagnostics/format.js');
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
export async function runGenerate(options: GenerateRun): Promise<number> {
  const run = await generateReported(options);
  if (!run.ok) return 1;
  const { result, elapsed } = run;
  if (options.check === true) {
    const stale = [
      ...result.changed.map((file) => `changed: generated/${file}`),
      ...result.removed.map((file) => `extra: generated/${file}`),
    ];
    for (const [database, migration] of Object.entries(result.migrations))
      stale.push(`missing migration: generated/${migrationsPath(database as DatabaseName)}/${migration.name}`);
    if (stale.length > 0) {
      const { writtenByVersion } = await import('../emit/writer.js');
      const app = path.join(layoutOf(options.root).generatedDir, 'app.ts');
      const previous = existsSync(app) ? writtenByVersion(readFileSync(app, 'utf8')) : undefined;
      const upgrade =
        previous !== undefined && previous !== GENERATOR_VERSION
          ? `generated/ was written by ${PACKAGE_NAME} ${previous === 'earlier' ? 'an earlier version' : previous}; this is ${PACKAGE_NAME} ${GENERATOR_VERSION}. After an upgrade, run \`npm run generate\` (resource-service generate) and commit the result.\n`
          : '';
      process.stderr.write(
        `${upgrade}generated/ is stale; run \`npm run generate\` and commit the result:\n${stale.map((line) => `  ${line}`).join('\n')}\n`,
      );
      return 1;
    }
    if (options.quiet !== true) {
      // The type check waits for the Prisma clients (not committed); say when it could not run.
      const { stalePrismaClients } = await import('../emit/prisma/client.js');
      const unchecked = stalePrismaClients(layoutOf(options.root).generatedDir);
      const note =
        unchecked.length > 0
          ? `; the declarations' types were not checked: the Prisma client (${unchecked.join(', ')}) is missing or stale, and \`npm run generate\` writes it`
          : '';
      process.stdout.write(`generated/ is up to date (${elapsed} ms)${note}\n`);
    }
    return 0;
  }
  if (options.quiet !== true) {
    const lines = [`generated ${result.changed.length} file(s), removed ${result.removed.length} in ${elapsed} ms`];
    for (const [database, migration] of Object.entries(result.migrations))
      lines.push(`new migration: generated/${migrationsPath(database as DatabaseName)}/${migration.name}`);
    if (result.prismaClientsChanged.length > 0) lines.push(`regenerated the Prisma client (${result.prismaClientsChanged.join(', ')})`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

/** The migrations a run wrote, one name for every database that got the same one (`0004_create_comment`), else `name (database)` each. */
export function migrationNames(result: GenerateResult): string[] {
  const byName = new Map<string, string[]>();
  for (const [database, migration] of Object.entries(result.migrations))
    byName.set(migration.name, [...(byName.get(migration.name) ?? []), database]);
  const databases = Object.keys(result.migrations).length;
  return [...byName].map(([name, where]) => (where.length === databases ? name : `${name} (${where.join(', ')})`));
}

/**
 * `generate --watch` (docs/decisions.md §10): generates once, then again after every burst of
 * changes under `entities/`, printing `ok, N files changed in T ms` (T from the first change of the
 * burst, so it includes the quiet period) or the diagnostics `generate` prints. An invalid
 * declaration, or the generator failing, never ends it; SIGINT or SIGTERM does (exit 0).
 */
async function runGenerateWatch(options: GenerateRun): Promise<number> {
  const layout = layoutOf(options.root);
  const { DeclarationWatcher } = await import('../watch.js');
  const { DeclarationProjectCache } = await import('../parse/project.js');
  const cache = new DeclarationProjectCache();
  const once = async (since: number): Promise<void> => {
    const run = await generateReported({ ...options, quiet: true, cache });
    if (!run.ok) return;
    const { result } = run;
    const migrations = migrationNames(result);
    const line = [
      `ok, ${result.changed.length + result.removed.length} files changed in ${Math.round(performance.now() - since)} ms`,
      ...(migrations.length > 0 ? [`new migration ${migrations.join(', ')}`] : []),
    ].join(', ');
    process.stdout.write(`${line}\n`);
  };
  await once(performance.now()).catch(reportWatchError);
  const types = new BackgroundTypeCheck(options.root);
  const onBatch = async (since: number): Promise<void> => {
    types.cancel();
    await once(since);
    types.start();
  };
  const watcher = new DeclarationWatcher({
    dir: layout.entitiesDir,
    onBatch: (batch) => onBatch(batch.firstEventAt),
    onError: reportWatchError,
  });
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

/** Adds `generate [--check | --watch]` to `program`; `root` reads `--root`. */
export function addGenerateCommand(program: Command, root: () => string): void {
  program
    .command('generate')
    .description('read entities/, validate, and write generated/ (with --check: only report what is stale)')
    .option('--check', 'exit 1 when generated/ is stale or a declaration is invalid; write nothing')
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option(
      '--accept-data-loss',
      "write a migration that drops data (a column, a table, a type change) or cannot run on the development database's rows",
    )
    .option('--accept-edited-migrations', 'record migration folders edited or added by hand since generate wrote them')
    .option(
      '--strict',
      'count every warning as an error: exit 1 and write nothing (default: package.json "resource-service": { "strict": … })',
    )
    .option('--no-strict', 'count warnings as warnings, whatever package.json says')
    .option(
      '--timings',
      'print the milliseconds each stage took (parse, resolve, validate, emit, client, migrations, review, write, prisma) to stderr',
    )
    .addOption(
      new Option(
        '--watch',
        'generate again on every change under entities/, printing "ok, N files changed" or the diagnostics, until Ctrl-C',
      ).conflicts('check'),
    )
    .action(
      async (options: {
        check?: boolean;
        allowBreaking?: boolean;
        acceptDataLoss?: boolean;
        acceptEditedMigrations?: boolean;
        timings?: boolean;
        watch?: boolean;
        strict?: boolean;
      }) => {
        const run: GenerateRun = {
          root: root(),
          check: options.check === true,
          allowBreaking: options.allowBreaking === true,
          acceptDataLoss: options.acceptDataLoss === true,
          acceptEditedMigrations: options.acceptEditedMigrations === true,
          timings: options.timings === true,
          ...(options.strict === undefined ? {} : { strict: options.strict }),
        };
        process.exitCode = options.watch === true ? await runGenerateWatch(run) : await runGenerate(run);
      },
    );
}
