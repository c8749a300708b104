/**
 * `init [dir] [--reset]`: starts a new application (generator/init.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { GENERATOR_VERSION, PACKAGE_NAME, PEER_DEPENDENCIES, TEMPLATE_DIR } from '../package.js';
import { CliError, config, layoutOf } from './common.js';

/**
 * `init [dir] [--reset]`: makes the folder `dir` (created when missing; default the project root) a
 * new application (generator/init.ts); prints what it did and what to run next.
 */
async function runInit(root: string, dir: string | undefined, reset: boolean): Promise<void> {
  const target = path.resolve(root, dir ?? '.');
  mkdirSync(target, { recursive: true });
  // The development database's path is relative to the application, as every command reads it.
  process.chdir(target);
  const { initApplication, InitRefusedError } = await import('../init.js');
  const { dialectFor } = await import('../../runtime/dialects/index.js');
  const url = config().database.url;
  const dialect = dialectFor(url);
  const database = { title: dialect.title, files: dialect.databaseFiles?.(url) };
  let result: ReturnType<typeof initApplication>;
  try {
    result = initApplication({
      layout: layoutOf(target),
      templateDir: TEMPLATE_DIR,
      reset,
      database,
      dependency: { name: PACKAGE_NAME, version: GENERATOR_VERSION, peers: PEER_DEPENDENCIES },
    });
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
  lines.push(
    `next: \`${into === '' ? '' : `cd ${into} && `}${install}npm run dev\` generates generated/ with a first migration, migrates, seeds, prints tokens and curl lines, and serves`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Adds `init [dir] [--reset]` to `program`; `root` reads `--root`. */
export function addInitCommand(program: Command, root: () => string): void {
  program
    .command('init')
    .description(
      "start a new application in dir (default: here): a one-entity application (Note) in entities/, and the project files it lacks — package.json scripts and dependencies, tsconfig.json, .gitignore, README.md, a first test; never overwrites a file, and refuses while a previous application's generated/ or SQLite database remains",
    )
    .argument('[dir]', 'the folder of the application, created when missing')
    .option(
      '--reset',
      "remove the previous application's generated/ (its GraphQL baseline and migrations) and SQLite database; declarations already in entities/ are kept",
    )
    .action(async (dir: string | undefined, options: { reset?: boolean }) => {
      await runInit(root(), dir, options.reset === true);
    });
}
