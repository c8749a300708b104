/**
 * Development hooks: what an application lends the generic `seed` and `dev` commands
 * (docs/decisions.md §7 "New applications"). The CLI knows no table, role or route of any application;
 * it loads {@link DEV_HOOKS_FILE} when the file exists and calls what its default export provides:
 *
 * ```ts
 * // entities/dev.ts
 * export default defineDevHooks({
 *   sizes: { notes: { description: 'notes to write', default: 2 } },   // `seed --notes 5`
 *   seed: (database: Database, { sizes }) => …,                        // `seed`, and `dev` on an empty database
 *   principals: async () => [{ name: 'Ada', sub, org_id, role: 'member' }],   // tokens `dev` prints
 *   examples: ({ url, tokens }) => [`curl -s ${url}/notes -H "Authorization: Bearer $${tokens[0]?.variable}"`],
 * });
 * ```
 *
 * Every hook is optional. Without a `seed` hook, `seed` says how to add one and `dev` serves an
 * unseeded database; without `principals`, `dev` prints no token (`token` mints one by hand).
 * Hooks run unscoped (`runUnscoped`): they write and read through the Prisma client directly.
 */
import type { TokenClaims } from '../auth/authentication.js';
import type { DatabaseClient } from '../data/database.js';

/** The module, relative to the project root, whose default export the CLI takes as the application's {@link DevHooks}. */
export const DEV_HOOKS_FILE = 'entities/dev.ts';

/** How a size of a seed is spelled: lowercase letters and digits, the same word as its `--<name>` option. */
export const SEED_SIZE_NAME = /^[a-z][a-z0-9]*$/;

/**
 * A size the seed hook takes, given on the command line as `seed --<name> <n>`.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface SeedSize {
  /** What the number counts, for `seed --help` (for example `users per org`). */
  readonly description: string;
  /** The number used when the option is not given (and by `dev`). */
  readonly default: number;
}

/**
 * One run of the seed hook.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface SeedRun<Size extends string = string> {
  /** Every declared size: the command line's value, else its default. */
  readonly sizes: Readonly<Record<Size, number>>;
  /** Report progress (rows written so far, rows in all); the CLI shows a bar for large seeds in a terminal. */
  readonly onProgress: (done: number, total: number) => void;
}

/** Someone `dev` and `seed --json` print a development token for: the token's claims and a name to show. */
export interface DevPrincipal extends TokenClaims {
  /** Shown beside the token (`member (Member of Acme):`). */
  readonly name: string;
}

/** A development token minted for a {@link DevPrincipal}. */
export interface DevToken {
  readonly role: string;
  readonly name: string;
  /** The compact JWT (HS256 with `APP_AUTH__SECRET`). */
  readonly token: string;
  /** The shell variable `dev` exports it as (`TOKEN_MEMBER`; `TOKEN_MEMBER_2` for a role's second principal), for example lines to refer to. */
  readonly variable: string;
}

/**
 * The running development server, as the `examples` hook sees it.
 *
 * @public part of the runtime's API for application code, though nothing here imports it
 */
export interface DevServer {
  /** Base address, no trailing slash (`http://127.0.0.1:3000`). */
  readonly url: string;
  /** The tokens `dev` printed, in the order `principals` gave them. */
  readonly tokens: readonly DevToken[];
}

/**
 * The hooks an application may export from {@link DEV_HOOKS_FILE}. `Database` is the
 * application's generated client (`generated/database.ts`), `Seeded` what its seed reports,
 * `Size` the names of its seed's sizes.
 */
export interface DevHooks<Database extends DatabaseClient = DatabaseClient, Seeded extends object = object, Size extends string = string> {
  /** The sizes `seed` takes as `--<name> <n>` (names match {@link SEED_SIZE_NAME}); `dev` seeds with the defaults. */
  readonly sizes?: Readonly<Record<Size, SeedSize>>;
  /**
   * Writes development data and reports what it wrote: `seed` prints one count per array the
   * result holds (`seeded 2 orgs, 6 users`), `seed --json` prints it whole with tokens.
   */
  seed?(database: Database, run: SeedRun<Size>): Promise<Seeded>;
  /**
   * Whether the database holds no application data yet (`seed --if-empty`, and `dev` seeds only
   * then). Without it: no row in any exposed entity's table.
   */
  isEmpty?(database: Database): Promise<boolean>;
  /**
   * Whom `dev` and `seed --json` print a development token for. `seeded` is what `seed` just
   * wrote, or undefined when the database was seeded earlier (read the principals from it).
   */
  principals?(database: Database, seeded: Seeded | undefined): Promise<readonly DevPrincipal[]>;
  /** Lines `dev` prints under "try:" once the server listens (curl commands using the tokens' variables). */
  examples?(server: DevServer): readonly string[];
}

/**
 * Types the default export of {@link DEV_HOOKS_FILE} (it returns `hooks` unchanged), the way
 * `defineConfig` types a configuration file: sizes and the seed's result are inferred.
 */
export function defineDevHooks<Database extends DatabaseClient, Seeded extends object = object, Size extends string = never>(
  hooks: DevHooks<Database, Seeded, Size>,
): DevHooks<Database, Seeded, Size> {
  return hooks;
}

/** The shell variable a token of `role` is exported as: `TOKEN_` and the role in capitals, other characters as `_`. */
export function tokenVariable(role: string): string {
  return `TOKEN_${role.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
