/**
 * `seed` and the development hooks it runs (`entities/dev.ts`, typed by
 * runtime/declarations/dev-hooks.ts): the seed with the sizes the hooks declare as options, the
 * principals and their development tokens. `dev` seeds an empty database through the same functions.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import type { DatabaseClient } from '../../runtime/data/database.js';
import {
  DEV_HOOKS_FILE,
  type DevHooks,
  type DevPrincipal,
  type DevToken,
  SEED_SIZE_NAME,
  tokenVariable,
} from '../../runtime/declarations/dev-hooks.js';
import type { EntityDescriptor } from '../../runtime/data/entity-metadata.js';
import type { ApplicationDefinition } from '../../runtime/server/server.js';
import { CliError, config, HOOKS_HELP, nonNegativeInteger, withDatabase } from './common.js';

/** Option names of `seed` that a size may not take. */
const RESERVED_SEED_OPTIONS = new Set(['json', 'help', 'root']);

/**
 * The application's development hooks (the default export of `entities/dev.ts`), checked for
 * shape; undefined when the file does not exist.
 */
export async function loadDevHooks(root: string): Promise<DevHooks | undefined> {
  const file = path.join(path.resolve(root), DEV_HOOKS_FILE);
  if (!existsSync(file)) return undefined;
  const { importApplicationModule } = await import('../application-modules.js');
  const hooks = ((await importApplicationModule(path.resolve(root), file)) as { default?: unknown }).default;
  const problem = (detail: string): CliError => new CliError(`${DEV_HOOKS_FILE}: ${detail} (${HOOKS_HELP})`);
  if (typeof hooks !== 'object' || hooks === null)
    throw problem('export the hooks as the default export: `export default defineDevHooks({ … })`');
  const record = hooks as Record<string, unknown>;
  for (const name of ['seed', 'isEmpty', 'principals', 'examples']) {
    if (record[name] !== undefined && typeof record[name] !== 'function') throw problem(`\`${name}\` must be a function`);
  }
  if (record.sizes !== undefined) {
    if (typeof record.sizes !== 'object' || record.sizes === null)
      throw problem('`sizes` must be an object of { description, default } by name');
    for (const [name, size] of Object.entries(record.sizes)) {
      if (!SEED_SIZE_NAME.test(name) || RESERVED_SEED_OPTIONS.has(name))
        throw problem(
          `the size \`${name}\` needs a name of lowercase letters and digits other than ${[...RESERVED_SEED_OPTIONS].join(', ')} (it is the option --${name})`,
        );
      const { description, default: fallback } = (size ?? {}) as { description?: unknown; default?: unknown };
      if (typeof description !== 'string' || typeof fallback !== 'number' || !Number.isInteger(fallback) || fallback < 0)
        throw problem(`the size \`${name}\` needs a description (string) and a default (non-negative integer)`);
    }
  }
  return hooks;
}

/** The declared sizes of `hooks` at their defaults. */
export function defaultSizes(hooks: DevHooks): Record<string, number> {
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
export async function seedWith(
  database: DatabaseClient,
  application: ApplicationDefinition<DatabaseClient, unknown>,
  options: SeedInvocation,
): Promise<object | undefined> {
  const { hooks } = options;
  const { runUnscoped } = await import('../../runtime/auth/context.js');
  if (options.ifEmpty) {
    const empty = hooks.isEmpty
      ? await runUnscoped(() => hooks.isEmpty?.(database) ?? Promise.resolve(true))
      : await hasNoRows(database, application.entities);
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
export async function principalsWith(
  database: DatabaseClient,
  hooks: DevHooks,
  seeded: object | undefined,
): Promise<readonly DevPrincipal[]> {
  if (!hooks.principals) return [];
  const { runUnscoped } = await import('../../runtime/auth/context.js');
  return runUnscoped(() => hooks.principals?.(database, seeded) ?? Promise.resolve([]));
}

/** Brings the planner's statistics up to date after fresh rows (docs/decisions.md §6). */
export async function refreshStatistics(url: string): Promise<void> {
  const { createAdapterFactory, updateStatistics } = await import('../../runtime/data/database.js');
  await updateStatistics(await createAdapterFactory(url));
}

/** `seeded 2 orgs, 6 users, 12 posts`: one count per array in what the seed returned. */
export function describeSeeded(seeded: object): string {
  const counts = Object.entries(seeded).flatMap(([name, value]) => (Array.isArray(value) ? [`${value.length} ${name}`] : []));
  return counts.length > 0 ? `seeded ${counts.join(', ')}` : 'seeded';
}

/** Development tokens for `principals`, signed with the configured secret; a role's second principal gets `TOKEN_<ROLE>_2`. */
export async function mintDevTokens(principals: readonly DevPrincipal[]): Promise<DevToken[]> {
  const { mintToken } = await import('../../runtime/auth/authentication.js');
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
  return new CliError(
    `nothing to seed: ${where}. Add one: \`export default defineDevHooks({ seed: async (database, { sizes }) => { … } })\` with defineDevHooks from runtime/declarations/dev-hooks.ts (${HOOKS_HELP})`,
  );
}

/** Options of `seed`: the built-in ones; the hook's sizes are read by name. */
export interface SeedCommandOptions {
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

/**
 * Adds `seed` to `program`; `root` reads `--root`. The seed's sizes (`--orgs 2`) are the
 * application's: they are added from its hooks just before `seed` parses its own options, so they
 * show in `seed --help` too.
 */
export function addSeedCommand(program: Command, root: () => string): void {
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
    if (subcommand !== seed) return;
    hooks = await loadDevHooks(root());
    for (const [name, size] of Object.entries(hooks?.sizes ?? {}))
      seed.addOption(new Option(`--${name} <n>`, size.description).argParser(nonNegativeInteger).default(size.default));
  });
}
