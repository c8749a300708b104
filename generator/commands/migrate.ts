/**
 * `migrate deploy | status | dev | resolve` (docs/decisions.md §11): apply pending migrations, show
 * where the database stands and what drifted, generate then apply, or record a failed migration as
 * rolled back or applied. `deploy` is the default; each subcommand has its own options and help.
 * Each connects to `APP_DATABASE__DIRECT_URL` (default `APP_DATABASE__URL`): the schema engine
 * needs a session of its own, which a transaction-mode pooler does not keep.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { migrationsPath, schemaPath } from '../paths.js';
import { CliError, config, firstLine, nonNegativeInteger } from './common.js';
import { runGenerate } from './generate.js';

/** The schema and migrations folder of the database at `url`. */
async function migrationSource(root: string, url: string): Promise<{ schema: string; dir: string }> {
  const { dialectFor } = await import('../../runtime/dialects/index.js');
  const database = dialectFor(url).name;
  const generated = path.join(path.resolve(root), 'generated');
  const schema = path.join(generated, schemaPath(database));
  if (!existsSync(schema)) throw new CliError(`generated/${schemaPath(database)} does not exist; run \`npm run generate\` first`);
  return { schema: readFileSync(schema, 'utf8'), dir: path.join(generated, migrationsPath(database)) };
}

/** A failed migration as `migrate deploy` and `migrate status` describe it (runtime/data/migrations.ts `FailedMigration`). */
interface FailedMigrationFacts {
  readonly name: string;
  readonly reason: string | undefined;
  readonly resolution: 'applied' | 'rolled-back' | undefined;
}

/** What the record says of a migration without a reason: the process applying it stopped (docs/guide/migrations.md, "When a deploy is killed"). */
const INTERRUPTED = 'interrupted: no reason is recorded (the process applying it stopped before it finished)';

/**
 * The `migrate resolve` that makes `migration`'s record say what the database holds, with what it
 * does, spelt with `resolve` (`npm run migrate -- resolve`, `migrate resolve`): `--applied` when its
 * changes are there, `--rolled-back` when they are not (after fixing the cause when it failed), both
 * with their conditions when it cannot be told, and finish-or-undo when only part is there.
 */
function resolutionAdvice(migration: FailedMigrationFacts, resolve: string, partial: boolean): string {
  const { name } = migration;
  const applied = `\`${resolve} --applied ${name}\``;
  const rolledBack = `\`${resolve} --rolled-back ${name}\``;
  if (migration.resolution === 'applied') return `${applied} records it as applied; then deploy again`;
  if (migration.resolution === 'rolled-back')
    return `${migration.reason === undefined ? '' : 'once its cause is fixed, '}${rolledBack} lets the next deploy run it again`;
  if (partial)
    return `finish its changes by hand and record it with ${applied}, or undo them and run ${rolledBack} so the next deploy runs it again`;
  return `if its changes are in the database, ${applied} records it as applied; if not, ${rolledBack} lets the next deploy run it again`;
}

/**
 * `migrate deploy` (docs/decisions.md §11): applies pending migrations to the database at `url`,
 * each in one transaction with its record, after keeping a copy of a SQLite file (named on stdout);
 * returns their names. A failed migration, or one recorded as failed before, is a {@link CliError}
 * in plain words saying what of it the database holds (checked) and the `migrate resolve` that fits.
 */
export async function migrateDeploy(root: string, url: string, keepBackups?: number): Promise<string[]> {
  const { createAdapterFactory } = await import('../../runtime/data/database.js');
  const { deployMigrations, FailedMigrationsError, MigrationFailedError } = await import('../../runtime/data/migrations.js');
  const { describeChanges } = await import('../../runtime/data/migration-changes.js');
  const { schema, dir } = await migrationSource(root, url);
  const resolve = 'npm run migrate -- resolve';
  try {
    const deployment = await deployMigrations(
      url,
      schema,
      dir,
      await createAdapterFactory(url),
      keepBackups === undefined ? {} : { keepBackups },
    );
    if (deployment.backup !== undefined)
      process.stdout.write(`kept a copy of the database before migrating: ${path.relative(process.cwd(), deployment.backup)}\n`);
    return [...deployment.applied];
  } catch (error) {
    if (error instanceof MigrationFailedError) {
      const record = error.recorded
        ? 'it is recorded as failed, and migrations before it stay applied'
        : 'its failure could not be recorded either, so it is still pending; migrations before it stay applied';
      if (error.outcome === 'rolled-back') {
        throw new CliError(
          `migration ${error.migration} failed: ${error.reason}\n` +
            `the database is as it was before it (${error.atomicity}); ${record}.\n` +
            (error.recorded
              ? `fix the cause, then \`${resolve} --rolled-back ${error.migration}\` and deploy again (docs/guide/migrations.md, "When a deploy fails")`
              : `fix the cause and deploy again (docs/guide/migrations.md, "When a deploy fails")`),
        );
      }
      const changes = error.changes === undefined ? '' : `: ${describeChanges(error.changes)}`;
      throw new CliError(
        `migration ${error.migration} failed: ${error.reason}\n` +
          `${error.outcome === 'part-committed' ? 'it did not roll back whole' : 'whether it rolled back could not be checked (the connection was lost)'}${changes}; ${record}.\n` +
          // The script cannot apply as one until its own transaction control is gone.
          (error.outcome === 'part-committed'
            ? 'take the COMMIT, END or ROLLBACK out of its script (and record the edit with `npm run generate -- --accept-edited-migrations`); then '
            : '') +
          (error.recorded
            ? resolutionAdvice(
                { name: error.migration, reason: error.reason, resolution: error.resolution },
                resolve,
                error.changes?.kind === 'partial',
              )
            : 'undo what of it is in the database, then deploy again') +
          ' (docs/guide/migrations.md, "When a deploy fails")',
      );
    }
    if (error instanceof FailedMigrationsError) {
      const lines = error.failed.map(
        (migration) =>
          `  ${migration.name} (started ${migration.startedAt}): ${migration.reason ?? INTERRUPTED}; ${describeChanges(migration.changes)}`,
      );
      const advice = error.failed.map((migration) => resolutionAdvice(migration, resolve, migration.changes.kind === 'partial'));
      throw new CliError(
        `nothing applied: the database records ${error.failed.length === 1 ? 'a failed migration' : 'failed migrations'}:\n${lines.join('\n')}\n` +
          `${advice.join('\n')} (docs/guide/migrations.md, "${error.failed.some((migration) => migration.reason === undefined) ? 'When a deploy is killed' : 'When a deploy fails'}")`,
      );
    }
    throw error;
  }
}

/** `migrate status` (docs/decisions.md §11): prints where the database stands and what drifted; returns the exit code (1 unless all is applied and nothing drifted). */
async function migrateStatus(root: string, url: string): Promise<number> {
  const { createAdapterFactory } = await import('../../runtime/data/database.js');
  const { migrationStatus } = await import('../../runtime/data/migrations.js');
  const { describeChanges } = await import('../../runtime/data/migration-changes.js');
  const { schema, dir } = await migrationSource(root, url);
  const status = await migrationStatus(schema, dir, await createAdapterFactory(url), { schemaDrift: true });
  const folder = path.relative(process.cwd(), dir) || '.';
  const lines = [
    ...status.applied.map((name) => `applied  ${name}`),
    ...status.failed.map(
      (migration) =>
        `failed   ${migration.name} (started ${migration.startedAt}): ${migration.reason ?? INTERRUPTED}; ${describeChanges(migration.changes)}; ${resolutionAdvice(migration, 'migrate resolve', migration.changes.kind === 'partial')}`,
    ),
    ...status.pending.map((name) => `pending  ${name}`),
    ...status.unknown.map((name) => `unknown  ${name}: applied to the database but not in ${folder} (the histories diverge)`),
    ...status.edited.map((name) => `edited   ${name}: changed after it was applied (its checksum differs from the database's)`),
    ...status.folderDrift.map(
      (drift) =>
        `${drift.kind.padEnd(8)} ${drift.name}: ${drift.kind === 'deleted' ? 'deleted' : drift.kind === 'edited' ? 'edited' : 'added by hand'} after generate wrote the migrations (${folder}/checksums.json)`,
    ),
    ...(status.schemaDrift === undefined
      ? []
      : [
          `drift    the database's schema differs from what its applied migrations create:`,
          ...status.schemaDrift.split('\n').map((line) => `  ${line}`),
        ]),
  ];
  process.stdout.write(`${lines.join('\n') || 'no migrations'}\n${status.pending.length} pending\n`);
  const clean =
    status.pending.length === 0 &&
    status.failed.length === 0 &&
    status.unknown.length === 0 &&
    status.edited.length === 0 &&
    status.folderDrift.length === 0 &&
    status.schemaDrift === undefined;
  return clean ? 0 : 1;
}

/** `migrate resolve --applied|--rolled-back NAME` (docs/decisions.md §11). */
async function migrateResolve(root: string, url: string, options: { applied?: string; rolledBack?: string }): Promise<void> {
  const mark = options.applied !== undefined ? 'applied' : 'rolled-back';
  const name = options.applied ?? options.rolledBack;
  if (name === undefined || (options.applied !== undefined && options.rolledBack !== undefined))
    throw new CliError('migrate resolve takes one of --applied NAME or --rolled-back NAME');
  const { createAdapterFactory } = await import('../../runtime/data/database.js');
  const { resolveMigration } = await import('../../runtime/data/migrations.js');
  const { schema, dir } = await migrationSource(root, url);
  try {
    await resolveMigration(schema, dir, await createAdapterFactory(url), name, mark);
  } catch (error) {
    throw new CliError(firstLine(error));
  }
  process.stdout.write(
    mark === 'applied' ? `recorded ${name} as applied\n` : `recorded ${name} as rolled back: the next \`migrate deploy\` runs it again\n`,
  );
}

/** The line `migrate deploy` and `migrate dev` print: what was applied, or that nothing was pending. */
function reportApplied(applied: readonly string[]): void {
  process.stdout.write(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'no pending migrations\n');
}

const KEEP_BACKUPS = ['--keep-backups <n>', 'copies of a SQLite database kept before deploys (0: none)'] as const;

/** Adds `migrate` and its subcommands `deploy` (the default), `status`, `dev` and `resolve` to `program`; `root` reads `--root`. */
export function addMigrateCommand(program: Command, root: () => string): void {
  const migrate = program
    .command('migrate')
    .description(
      'apply pending migrations (deploy, the default), show where the database stands and what drifted (status), generate then apply (dev), or record a failed migration as rolled back or applied (resolve)',
    );

  migrate
    .command('deploy', { isDefault: true })
    .description('apply pending migrations, each in one transaction, after keeping a copy of a SQLite database')
    .option(...KEEP_BACKUPS, nonNegativeInteger)
    // An unknown action lands here (deploy is the default): refused by name below.
    .allowExcessArguments()
    .action(async (options: { keepBackups?: number }, command: Command) => {
      const [action] = command.args;
      if (action !== undefined) throw new CliError(`unknown migrate action ${JSON.stringify(action)}: use deploy, status, dev or resolve`);
      reportApplied(await migrateDeploy(root(), config().database.directUrl, options.keepBackups));
    });

  migrate
    .command('status')
    .description('show applied, failed and pending migrations and what drifted; exit 1 unless all is applied and nothing drifted')
    .action(async () => {
      process.exitCode = await migrateStatus(root(), config().database.directUrl);
    });

  migrate
    .command('dev')
    .description('generate, then apply pending migrations (as generate, then migrate deploy)')
    .option('--accept-data-loss', 'write a migration that drops data or cannot run on the development database')
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option(...KEEP_BACKUPS, nonNegativeInteger)
    .action(async (options: { acceptDataLoss?: boolean; allowBreaking?: boolean; keepBackups?: number }) => {
      const url = config().database.directUrl;
      if (
        (await runGenerate({
          root: root(),
          acceptDataLoss: options.acceptDataLoss === true,
          allowBreaking: options.allowBreaking === true,
        })) !== 0
      ) {
        process.exitCode = 1;
        return;
      }
      reportApplied(await migrateDeploy(root(), url, options.keepBackups));
    });

  migrate
    .command('resolve')
    .description('record a failed migration as rolled back (the next deploy runs it again) or as applied (its changes were made by hand)')
    .option('--applied <name>', 'record the migration as applied (its changes were made by hand)')
    .option('--rolled-back <name>', 'record the failed migration as rolled back, so the next deploy runs it again')
    .action(async (options: { applied?: string; rolledBack?: string }) => {
      await migrateResolve(root(), config().database.directUrl, options);
    });
}
