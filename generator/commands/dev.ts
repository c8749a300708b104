/**
 * `dev` (docs/decisions.md §10): generate, migrate, seed an empty database, serve, and print where
 * everything is; then regenerate, migrate and restart on every change under `entities/`.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { DEV_HOOKS_FILE, type DevHooks, type DevPrincipal, type DevToken } from '../../runtime/declarations/dev-hooks.js';
import type { DevServer, Handover, ServerAddress } from '../dev-loop.js';
import type { DeclarationProjectCache } from '../parse/project.js';
import {
  applyListenOptions,
  CliError,
  config,
  firstLine,
  HOOKS_HELP,
  layoutOf,
  type ListenOptions,
  portNumber,
  reportWatchError,
  stopSignal,
  withDatabase,
} from './common.js';
import { BackgroundTypeCheck, type GenerateRun, generateReported, migrationNames, runGenerate } from './generate.js';
import { migrateDeploy } from './migrate.js';
import { defaultSizes, describeSeeded, loadDevHooks, mintDevTokens, principalsWith, refreshStatistics, seedWith } from './seed.js';

/** Options of `dev`. */
interface DevRun {
  readonly root: string;
  /** Accept GraphQL schema changes that break existing clients (as `generate --allow-breaking`). */
  readonly allowBreaking: boolean;
  /** Write migrations that lose data (as `generate --accept-data-loss`). */
  readonly acceptDataLoss: boolean;
  /** Print where each cycle's time went, to stderr. */
  readonly timings: boolean;
  /** `--strict` / `--no-strict`; undefined: the application's setting (as `generate`'s, {@link GenerateRun}). */
  readonly strict: boolean | undefined;
}

/** The strict mode `options` ask for, as {@link GenerateRun} takes it: nothing when they leave it to the application's setting. */
function strictness(options: DevRun): Pick<GenerateRun, 'strict'> {
  return options.strict === undefined ? {} : { strict: options.strict };
}

/** The summary of where a server is: one line per entrypoint, `name  address  what it is`. */
function describeEntrypoints(address: ServerAddress): string[] {
  const rows = address.entrypoints.map((entrypoint) => [
    entrypoint.name,
    `${entrypoint.scheme === 'websocket' ? address.url.replace(/^http/, 'ws') : address.url}${entrypoint.path}`,
    entrypoint.description,
  ]);
  const widths = [0, 1].map((column) => Math.max(0, ...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => `  ${(row[0] ?? '').padEnd(widths[0] ?? 0)}  ${(row[1] ?? '').padEnd(widths[1] ?? 0)}  ${row[2] ?? ''}`);
}

/** What `dev` keeps between cycles. */
interface DevSession {
  readonly options: DevRun;
  readonly cache: DeclarationProjectCache;
  /** The development database's URL. */
  readonly url: string;
  readonly server: DevServer;
}

/** What `dev`'s first steps leave: the configuration, the hooks (none without `entities/dev.ts`) and the principals they name. */
interface Prepared {
  readonly settings: ReturnType<typeof config>;
  readonly hooks: DevHooks | undefined;
  readonly principals: readonly DevPrincipal[];
}

/**
 * `dev`'s first steps: generate, migrate, and seed an empty database with the seed hook's default
 * sizes; undefined when generating failed (its diagnostics are printed).
 */
async function prepare(options: DevRun, cache: DeclarationProjectCache): Promise<Prepared | undefined> {
  const { root } = options;
  if (
    (await runGenerate({
      root,
      allowBreaking: options.allowBreaking,
      acceptDataLoss: options.acceptDataLoss,
      timings: options.timings,
      ...strictness(options),
      cache,
    })) !== 0
  )
    return undefined;
  const settings = config();
  const url = settings.database.url;
  const applied = await migrateDeploy(root, url);
  if (applied.length > 0) process.stdout.write(`applied migrations: ${applied.join(', ')}\n`);
  const hooks = await loadDevHooks(root);
  if (!hooks) return { settings, hooks, principals: [] };
  let principals: readonly DevPrincipal[] = [];
  const seeded = await withDatabase(root, url, async (database, application) => {
    const written = hooks.seed
      ? await seedWith(database, application, { hooks, sizes: defaultSizes(hooks), ifEmpty: true, progress: true })
      : undefined;
    principals = await principalsWith(database, hooks, written);
    return written;
  });
  if (seeded) {
    await refreshStatistics(url);
    process.stdout.write(`${describeSeeded(seeded)}\n`);
  }
  return { settings, hooks, principals };
}

/** The development server of `root` (generator/dev-loop.ts), configured as `dev` runs it; not started. */
async function devServer(root: string, settings: ReturnType<typeof config>): Promise<DevServer> {
  const { DevServer } = await import('../dev-loop.js');
  return new DevServer({
    root: path.resolve(root),
    // The playground is on in development unless configured otherwise, and the server answers this
    // machine only (docs/hostile-input.md §10) unless APP_HTTP__HOST says otherwise.
    env: {
      ...process.env,
      APP_GRAPHQL__PLAYGROUND: process.env.APP_GRAPHQL__PLAYGROUND ?? 'true',
      APP_HTTP__HOST: process.env.APP_HTTP__HOST ?? '127.0.0.1',
    },
    logs: {
      verbose: ['debug', 'trace'].includes(settings.log.level),
      pretty: settings.log.format === 'pretty' || (settings.log.format === undefined && process.stdout.isTTY),
      output: process.stdout,
    },
    stopTimeout: settings.http.drainDelay + settings.http.shutdownTimeout + 5_000,
    onUnexpectedExit: (code) => process.stderr.write(`the server exited (code ${String(code)}); save a change to start it again\n`),
  });
}

/** What `dev` prints once the first server is up: where it is, a token per principal, the hooks' examples (or how to do without hooks). */
function welcome(first: Handover, tokens: readonly DevToken[], hooks: DevHooks | undefined): string[] {
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
  return lines;
}

/** One cycle after a burst of changes (since `since`): regenerate; migrate when the schema changed; restart; one line. */
async function cycle(session: DevSession, since: number): Promise<void> {
  const { options, server } = session;
  const run = await generateReported({
    root: options.root,
    quiet: true,
    allowBreaking: options.allowBreaking,
    acceptDataLoss: options.acceptDataLoss,
    timings: options.timings,
    ...strictness(options),
    cache: session.cache,
  });
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
      const done = await migrateDeploy(options.root, session.url);
      parts.push(done.length > 0 ? `migration ${done.join(', ')} applied` : 'no migration to apply');
    } catch (error) {
      const reason = error instanceof CliError ? firstLine(error) : `migration ${names.join(', ')} failed: ${firstLine(error)}`;
      process.stdout.write(`${[...parts, reason].join(', ')}; the server keeps running the previous version\n`);
      return;
    }
  }
  const migrating = Math.round(performance.now() - migrated);
  const { ServerStartError } = await import('../dev-loop.js');
  try {
    const handover = await server.start();
    parts.push(`restarted in ${Math.round(performance.now() - since)} ms`);
    process.stdout.write(`${parts.join(', ')}\n`);
    if (options.timings)
      process.stderr.write(
        `timings (ms): generate ${run.elapsed}, migrate ${migrating}, boot ${handover.boot}, switch ${handover.switch}\n`,
      );
  } catch (error) {
    if (!(error instanceof ServerStartError)) throw error;
    const running = error.stoppedPrevious
      ? 'no server is running: fix it and save to start one'
      : 'the server keeps running the previous version';
    process.stdout.write(`${parts.join(', ')}, not restarted: ${error.message}; ${running}\n`);
  }
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
  const { DeclarationProjectCache } = await import('../parse/project.js');
  const cache = new DeclarationProjectCache();
  const prepared = await prepare(options, cache);
  if (!prepared) return 1;
  const server = await devServer(root, prepared.settings);
  let first: Handover;
  try {
    first = await server.start();
  } catch (error) {
    await server.close();
    const { ServerStartError } = await import('../dev-loop.js');
    if (error instanceof ServerStartError) throw new CliError(`the server did not start: ${error.message}`);
    throw error;
  }
  const lines = welcome(first, await mintDevTokens(prepared.principals), prepared.hooks);
  const session: DevSession = { options, cache, url: prepared.settings.database.url, server };
  // Watching before saying so: a save right after the line is seen.
  const layout = layoutOf(root);
  const { DeclarationWatcher } = await import('../watch.js');
  const types = new BackgroundTypeCheck(root);
  const onBatch = async (since: number): Promise<void> => {
    types.cancel();
    await cycle(session, since);
    types.start();
  };
  const watcher = new DeclarationWatcher({
    dir: layout.entitiesDir,
    onBatch: (batch) => onBatch(batch.firstEventAt),
    onError: reportWatchError,
  });
  await watcher.start();
  lines.push(
    '',
    `watching ${path.relative(process.cwd(), layout.entitiesDir) || '.'}/: a saved change regenerates, migrates and restarts the server on port ${first.address.port} (Ctrl-C stops)`,
  );
  const stopRequested = stopSignal();
  process.stdout.write(`${lines.join('\n')}\n\n`);
  types.start();
  await stopRequested;
  types.cancel();
  await watcher.close();
  await server.close();
  return 0;
}

/** Adds `dev` to `program`; `root` reads `--root`. */
export function addDevCommand(program: Command, root: () => string): void {
  program
    .command('dev')
    .description(
      `generate, migrate the database, seed it when empty, serve, and print tokens and example requests (from ${DEV_HOOKS_FILE} when present); then regenerate, migrate and restart on every change under entities/, until Ctrl-C`,
    )
    .option('--allow-breaking', 'accept GraphQL schema changes that break existing clients')
    .option('--accept-data-loss', "write migrations that drop data or cannot run on the database's rows (as generate --accept-data-loss)")
    .option('--timings', "print where each cycle's time went (generate, migrate, boot, switch) to stderr")
    .option(
      '--strict',
      'count every warning as an error: a change with one is not regenerated (default: package.json "resource-service": { "strict": … })',
    )
    .option('--no-strict', 'count warnings as warnings, whatever package.json says')
    .option('--port <port>', 'listen on this port instead of APP_HTTP__PORT (default 3000; 0 picks a free one)', portNumber)
    .option('--host <address>', 'listen on this address instead of APP_HTTP__HOST (default 127.0.0.1: this machine only)')
    .action(async (options: { allowBreaking?: boolean; acceptDataLoss?: boolean; timings?: boolean; strict?: boolean } & ListenOptions) => {
      applyListenOptions(options);
      process.exitCode = await runDev({
        root: root(),
        allowBreaking: options.allowBreaking === true,
        acceptDataLoss: options.acceptDataLoss === true,
        timings: options.timings === true,
        strict: options.strict,
      });
    });
}
