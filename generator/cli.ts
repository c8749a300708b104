#!/usr/bin/env node
/**
 * The command line (docs/decisions.md §1): `init [--reset]`, `generate [--check | --watch] [--strict]`,
 * `build`, `migrate deploy|status|dev|resolve`, `seed`, `token`, `serve`, and `dev` (all of it, for
 * the README's first quick start, then a watch loop that regenerates, migrates and restarts:
 * docs/decisions.md §10). This file only wires them; each command is a file under `commands/`.
 * Exit code 1 on any error (and, in strict mode, on any warning: docs/guide/development.md "Strict
 * mode"); declaration errors print `file:line:col`, never a stack trace; the watching commands
 * print them and go on.
 *
 * The CLI knows no application (docs/decisions.md §7 "New applications"): what `seed` writes and the
 * tokens and examples `dev` prints come from the application's development hooks
 * (`entities/dev.ts`, typed by runtime/declarations/dev-hooks.ts), and both commands work without them.
 */
import path from 'node:path';
import { Command } from 'commander';
import { exitWhenWritten } from '../runtime/server/exit.js';
import { addBuildCommand } from './commands/build.js';
import { CliError, developmentUrl } from './commands/common.js';
import { addDevCommand } from './commands/dev.js';
import { addGenerateCommand } from './commands/generate.js';
import { addInitCommand } from './commands/init.js';
import { addMigrateCommand } from './commands/migrate.js';
import { addSeedCommand } from './commands/seed.js';
import { addServeCommand } from './commands/serve.js';
import { addTokenCommand } from './commands/token.js';
import { GENERATOR_VERSION, PACKAGE_NAME } from './package.js';

// One file per command under commands/; each loads what it needs when it runs: the TypeScript
// compiler behind `generate`, the server stack behind `serve`, the database drivers behind
// `migrate` and `seed`.

/** The commands that use the development secret when no APP_AUTH__SECRET is set (generator/dev-secret.ts). */
const DEVELOPMENT_COMMANDS = new Set(['dev', 'serve', 'seed', 'token']);

/** Builds the command tree. */
export function createProgram(): Command {
  const program = new Command(PACKAGE_NAME)
    .description('Generate and run a versioned REST + GraphQL server from entity declarations')
    .version(GENERATOR_VERSION, '-v, --version', 'print the version')
    .option('--root <dir>', 'project root', '.');
  const root = (): string => program.opts<{ root: string }>().root;
  program.hook('preSubcommand', async (_program, subcommand) => {
    // The development commands sign and check tokens with the secret kept beside the development database.
    if (!DEVELOPMENT_COMMANDS.has(subcommand.name())) return;
    const { useDevelopmentSecret } = await import('./dev-secret.js');
    useDevelopmentSecret(path.resolve(root()), developmentUrl());
  });
  addInitCommand(program, root);
  addGenerateCommand(program, root);
  addBuildCommand(program, root);
  addMigrateCommand(program, root);
  addSeedCommand(program, root);
  addTokenCommand(program);
  addServeCommand(program, root);
  addDevCommand(program, root);
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
