/**
 * The command line (PRODUCT.md §1): `generate [--check]`, `migrate [deploy|status|dev]`,
 * `seed`, `token`, `serve`, and `dev` (all of it, for the README's first command).
 * Exit code 1 on any error; declaration errors print `file:line:col`, never a stack trace.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../runtime/config.js';
import type { DatabaseClient } from '../runtime/database.js';
import { exitWhenWritten } from '../runtime/exit.js';
import type { ApplicationDefinition } from '../runtime/server.js';
import type { ProjectLayout } from './parse/project.js';

import { clientPath, migrationsPath, type Provider, schemaPath } from './paths.js';

// Commands load what they need when they run: the TypeScript compiler behind `generate`, the
// server stack behind `serve`, the database drivers behind `migrate` and `seed`.

/** A failure the CLI reports as a message (exit 1), not a stack trace. */
class CliError extends Error {}

function layoutOf(root: string): ProjectLayout {
  const absolute = path.resolve(root);
  return {
    root: absolute,
    entitiesDir: path.join(absolute, 'entities'),
    runtimeDir: path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'runtime'),
    generatedDir: path.join(absolute, 'generated'),
  };
}

const positiveInteger = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return parsed;
};

function config(): ReturnType<typeof loadConfig>['config'] {
  try {
    return loadConfig().config;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** `generate [--check]`: returns the exit code. */
async function runGenerate(root: string, check: boolean, quiet = false, allowBreaking = false, timings = false): Promise<number> {
  const layout = layoutOf(root);
  const started = performance.now();
  const { generate } = await import('./pipeline.js');
  const { formatReport } = await import('./diagnostics/format.js');
  const result = await generate({ layout, mode: check ? 'check' : 'write', allowBreaking });
  if (timings) process.stderr.write(`timings (ms): ${Object.entries(result.timings).map(([stage, ms]) => `${stage} ${ms}`).join(', ')}\n`);
  const read = (file: string): string | undefined => {
    const full = path.join(layout.root, file);
    return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
  };
  if (result.diagnostics.length > 0) process.stderr.write(`${formatReport(result.diagnostics, read)}\n`);
  if (result.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return 1;
  for (const change of result.dangerous) process.stderr.write(`warning: the GraphQL schema changes in a way clients may notice (${change.type}): ${change.description}\n`);
  if (result.breaking.length > 0 && !allowBreaking) {
    const lines = result.breaking.map((change) => `  ${change.type}: ${change.description}`);
    process.stderr.write(
      `the GraphQL schema would break existing clients (it is unversioned, spec §9.5):\n${lines.join('\n')}\n` +
        'keep the old fields and mark them deprecated (@Query({ deprecationReason: … })), or pass --allow-breaking to accept the break\n',
    );
    return 1;
  }
  const elapsed = Math.round(performance.now() - started);
  if (check) {
    const stale = [...result.changed.map((file) => `changed: generated/${file}`), ...result.removed.map((file) => `extra: generated/${file}`)];
    for (const [provider, migration] of Object.entries(result.migrations)) stale.push(`missing migration: generated/${migrationsPath(provider as Provider)}/${migration.name}`);
    for (const provider of result.prismaClientsChanged) stale.push(`stale: generated/${clientPath(provider)} (Prisma client)`);
    if (stale.length > 0) {
      process.stderr.write(`generated/ is stale; run \`npm run generate\` and commit the result:\n${stale.map((line) => `  ${line}`).join('\n')}\n`);
      return 1;
    }
    if (!quiet) process.stdout.write(`generated/ is up to date (${elapsed} ms)\n`);
    return 0;
  }
  if (!quiet) {
    const lines = [`generated ${result.changed.length} file(s), removed ${result.removed.length} in ${elapsed} ms`];
    for (const [provider, migration] of Object.entries(result.migrations)) {
      lines.push(`new migration: generated/${migrationsPath(provider as Provider)}/${migration.name}`);
      for (const warning of migration.warnings) lines.push(`  warning: ${warning}`);
    }
    if (result.prismaClientsChanged.length > 0) lines.push(`regenerated the Prisma client (${result.prismaClientsChanged.join(', ')})`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

async function loadApplication(root: string): Promise<ApplicationDefinition<DatabaseClient, unknown>> {
  const file = path.join(path.resolve(root), 'generated', 'app.ts');
  if (!existsSync(file)) throw new CliError('generated/app.ts does not exist; run `npm run generate` first');
  const module = (await import(pathToFileURL(file).href)) as { application: ApplicationDefinition<DatabaseClient, unknown> };
  return module.application;
}

/** The schema and migrations folder of the database at `url`. */
async function migrationSource(root: string, url: string): Promise<{ schema: string; dir: string }> {
  const { providerOf } = await import('../runtime/database.js');
  const provider = providerOf(url);
  const generated = path.join(path.resolve(root), 'generated');
  return { schema: readFileSync(path.join(generated, schemaPath(provider)), 'utf8'), dir: path.join(generated, migrationsPath(provider)) };
}

/** `migrate deploy`: applies pending migrations to the database at `url`; returns their names. */
async function migrateDeploy(root: string, url: string): Promise<string[]> {
  const { createAdapterFactory } = await import('../runtime/database.js');
  const { applyMigrations } = await import('../runtime/migrations.js');
  const { schema, dir } = await migrationSource(root, url);
  return applyMigrations(schema, dir, await createAdapterFactory(url));
}

async function withDatabase<T>(root: string, url: string, work: (database: DatabaseClient, application: ApplicationDefinition<DatabaseClient, unknown>) => Promise<T>): Promise<T> {
  const { createAdapterFactory } = await import('../runtime/database.js');
  const application = await loadApplication(root);
  const database = await application.createDatabase(await createAdapterFactory(url));
  try {
    return await work(database, application);
  } finally {
    await database.$disconnect();
  }
}

interface SeedSizes {
  readonly orgs: number;
  readonly users: number;
  readonly posts: number;
}

interface SeedModule {
  seed(database: DatabaseClient, options: SeedSizes & { onProgress?: (done: number, total: number) => void }): Promise<{ orgs: readonly unknown[]; users: readonly { id: string; orgId: string; role: string; name: string }[]; posts: readonly unknown[] }>;
}

async function runSeed(root: string, sizes: SeedSizes, options: { json: boolean; ifEmpty: boolean }): Promise<Awaited<ReturnType<SeedModule['seed']>> | undefined> {
  const file = path.join(path.resolve(root), 'entities', 'seed.ts');
  if (!existsSync(file)) throw new CliError('entities/seed.ts does not exist; write a seed(database, sizes) function there');
  const { seed } = (await import(pathToFileURL(file).href)) as SeedModule;
  const { runUnscoped } = await import('../runtime/context.js');
  const { SingleBar } = await import('cli-progress');
  const { createAdapterFactory, updateStatistics } = await import('../runtime/database.js');
  const url = config().database.url;
  const seeded = await withDatabase(root, url, async (database) => {
    if (options.ifEmpty) {
      const rows = await database.$queryRawUnsafe<{ count: number | bigint }[]>('SELECT COUNT(*) AS count FROM "Org"');
      if (Number(rows[0]?.count ?? 0) > 0) return undefined;
    }
    const total = sizes.orgs * (1 + sizes.users * (1 + sizes.posts));
    const bar = !options.json && total >= 5_000 && process.stderr.isTTY ? new SingleBar({ format: 'seeding [{bar}] {percentage}% | {value}/{total} rows' }) : undefined;
    bar?.start(total, 0);
    const result = await runUnscoped(() => seed(database, { ...sizes, onProgress: (done) => bar?.update(done) }));
    bar?.stop();
    return result;
  });
  // Fresh rows need fresh planner statistics (PRODUCT.md §6).
  if (seeded) await updateStatistics(await createAdapterFactory(url));
  return seeded;
}

async function tokensFor(users: readonly { id: string; orgId: string; role: string; name: string }[]): Promise<{ role: string; name: string; token: string }[]> {
  const { mintToken } = await import('../runtime/auth.js');
  const secret = config().auth.secret;
  const out: { role: string; name: string; token: string }[] = [];
  for (const role of ['admin', 'member', 'viewer']) {
    const user = users.find((candidate) => candidate.role === role);
    if (user) out.push({ role, name: user.name, token: await mintToken(secret, { sub: user.id, org_id: user.orgId, role }) });
  }
  return out;
}

/** Builds the command tree. */
export function createProgram(): Command {
  const program = new Command('resource-service').description('Generate and run a versioned REST + GraphQL server from entity declarations').option('--root <dir>', 'project root', '.');
  const root = (): string => program.opts<{ root: string }>().root;

  program
    .command('generate')
    .description('read entities/, validate, and write generated/ (with --check: only report what is stale)')
    .option('--check', 'exit 1 when generated/ is stale or a declaration is invalid; write nothing')
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option('--timings', 'print the milliseconds each stage took (parse, validate, emit, migrations, write, prisma) to stderr')
    .action(async (options: { check?: boolean; allowBreaking?: boolean; timings?: boolean }) => {
      process.exitCode = await runGenerate(root(), options.check === true, false, options.allowBreaking === true, options.timings === true);
    });

  program
    .command('migrate')
    .description('apply pending migrations (deploy), list them (status), or generate then apply (dev)')
    .argument('[action]', 'deploy | status | dev', 'deploy')
    .action(async (action: string) => {
      const url = config().database.url;
      if (action === 'dev') {
        if ((await runGenerate(root(), false)) !== 0) {
          process.exitCode = 1;
          return;
        }
        action = 'deploy';
      }
      if (action === 'deploy') {
        const applied = await migrateDeploy(root(), url);
        process.stdout.write(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'no pending migrations\n');
        return;
      }
      if (action === 'status') {
        const { createAdapterFactory } = await import('../runtime/database.js');
        const { migrationStatus } = await import('../runtime/migrations.js');
        const { schema, dir } = await migrationSource(root(), url);
        const status = await migrationStatus(schema, dir, await createAdapterFactory(url));
        const lines = [...status.applied.map((name) => `applied  ${name}`), ...status.pending.map((name) => `pending  ${name}`), ...status.unknown.map((name) => `unknown  ${name} (in the database, not in the folder)`), ...status.edited.map((name) => `edited   ${name} (changed after it was applied)`), ...status.failed.map((name) => `failed   ${name}`)];
        process.stdout.write(`${lines.join('\n') || 'no migrations'}\n${status.pending.length} pending\n`);
        if (status.pending.length > 0 || status.failed.length > 0 || status.unknown.length > 0) process.exitCode = 1;
        return;
      }
      throw new CliError(`unknown migrate action ${JSON.stringify(action)}: use deploy, status or dev`);
    });

  program
    .command('seed')
    .description('write demo orgs, users of every role and posts in both states')
    .option('--orgs <n>', 'orgs', positiveInteger, 2)
    .option('--users <n>', 'users per org', positiveInteger, 3)
    .option('--posts <n>', 'posts per user', positiveInteger, 2)
    .option('--json', 'print what was created, ids included, as JSON')
    .option('--if-empty', 'do nothing when the database already has orgs')
    .action(async (options: SeedSizes & { json?: boolean; ifEmpty?: boolean }) => {
      const result = await runSeed(root(), options, { json: options.json === true, ifEmpty: options.ifEmpty === true });
      if (!result) {
        process.stdout.write(options.json ? '{"skipped":true}\n' : 'the database already has data; nothing seeded\n');
        return;
      }
      if (options.json) process.stdout.write(`${JSON.stringify({ ...result, tokens: await tokensFor(result.users) }, null, 2)}\n`);
      else process.stdout.write(`seeded ${result.orgs.length} orgs, ${result.users.length} users, ${result.posts.length} posts\n`);
    });

  program
    .command('token')
    .description('print a signed development token (HS256 with APP_AUTH__SECRET)')
    .requiredOption('--sub <uuid>', 'user id')
    .requiredOption('--org <uuid>', 'org id')
    .requiredOption('--role <role>', 'admin | member | viewer')
    .option('--expires <span>', 'lifetime, for example 12h or 30m', '12h')
    .action(async (options: { sub: string; org: string; role: string; expires: string }) => {
      const { mintToken } = await import('../runtime/auth.js');
      process.stdout.write(`${await mintToken(config().auth.secret, { sub: options.sub, org_id: options.org, role: options.role }, options.expires)}\n`);
    });

  program
    .command('serve')
    .description('start the generated server (configuration from APP_* variables; APP_HTTP__WORKERS forks workers)')
    .action(async () => {
      const { runServer } = await import('../runtime/main.js');
      await runServer(await loadApplication(root()));
    });

  program
    .command('dev')
    .description('generate, migrate the SQLite database, seed it when empty, print tokens and curl lines, serve')
    .action(async () => {
      if ((await runGenerate(root(), false)) !== 0) {
        process.exitCode = 1;
        return;
      }
      const url = config().database.url;
      const applied = await migrateDeploy(root(), url);
      if (applied.length > 0) process.stdout.write(`applied migrations: ${applied.join(', ')}\n`);
      const seeded = await runSeed(root(), { orgs: 2, users: 3, posts: 2 }, { json: false, ifEmpty: true });
      const users = seeded?.users ?? (await existingUsers(root(), url));
      const server = await serve(root());
      const tokens = await tokensFor(users);
      const lines = ['', `serving ${server.url}`, ''];
      for (const { role, name, token } of tokens) lines.push(`${role} (${name}):`, `  export TOKEN_${role.toUpperCase()}=${token}`);
      const member = tokens.find((entry) => entry.role === 'member') ?? tokens[0];
      if (member) {
        lines.push('', 'try:', `  curl -s "${server.url}/v2/posts?first=5" -H "Authorization: Bearer $TOKEN_${member.role.toUpperCase()}"`);
        lines.push(`  curl -s ${server.url}/graphql -H 'Content-Type: application/json' -H "Authorization: Bearer $TOKEN_${member.role.toUpperCase()}" -d '{"query":"{ users(first: 5) { id name email } }"}'`);
      }
      process.stdout.write(`${lines.join('\n')}\n\n`);
    });

  return program;
}

/** Users to mint tokens for when the database was seeded earlier (one per role, by email). */
async function existingUsers(root: string, url: string): Promise<{ id: string; orgId: string; role: string; name: string }[]> {
  return withDatabase(root, url, async (database) => {
    const rows = await database.$queryRawUnsafe<{ id: string; orgId: string; name: string; email: string }[]>('SELECT "id", "orgId", "name", "email" FROM "User" ORDER BY "id"');
    const first = rows[0];
    if (!first) return [];
    return ['admin', 'member', 'viewer'].flatMap((role) => {
      const row = rows.find((candidate) => candidate.orgId === first.orgId && candidate.email.startsWith(`${role}@`));
      return row ? [{ ...row, role }] : [];
    });
  });
}

async function serve(root: string): Promise<{ url: string }> {
  const { startServer } = await import('../runtime/server.js');
  const application = await loadApplication(root);
  try {
    const server = await startServer(application);
    const stop = (): void => {
      void server.close().then(() => exitWhenWritten(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return server;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** Commands that keep running (a server); every other one exits once its action is done. */
const LONG_RUNNING = new Set(['serve', 'dev']);

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
