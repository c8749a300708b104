/**
 * What the commands share (generator/cli.ts wires them): the error a command reports as a message,
 * the project layout under `--root`, option parsers, the configuration, how a watching command
 * stops, and the generated application with its database.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../../runtime/server/config.js';
import type { DatabaseClient } from '../../runtime/data/database.js';
import type { ApplicationDefinition } from '../../runtime/server/server.js';
import type { ProjectLayout } from '../parse/project.js';
import { RUNTIME_DIR } from '../package.js';

/** A failure the CLI reports as a message (exit 1), not a stack trace. */
export class CliError extends Error {}

/** Where the guide explains development hooks, for messages. */
export const HOOKS_HELP = 'docs/guide/development.md, "Development hooks"';

export function layoutOf(root: string): ProjectLayout {
  const absolute = path.resolve(root);
  return {
    root: absolute,
    entitiesDir: path.join(absolute, 'entities'),
    runtimeDir: RUNTIME_DIR,
    generatedDir: path.join(absolute, 'generated'),
  };
}

export const nonNegativeInteger = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return parsed;
};

/** A TCP port as `--port` takes it: 0..65535 written as digits (0 picks a free port). */
export const portNumber = (value: string): string => {
  if (!/^[0-9]{1,5}$/.test(value) || Number(value) > 65_535)
    throw new InvalidArgumentError('expected a port, 0 to 65535 (0 picks a free one)');
  return String(Number(value));
};

/** Where a server listens, from `--port`/`--host`: they stand for APP_HTTP__PORT/APP_HTTP__HOST (docs/guide/configuration.md). */
export interface ListenOptions {
  readonly port?: string;
  readonly host?: string;
}

/** Sets the listening variables `options` name, so the server and its configuration check read them as if exported. */
export function applyListenOptions(options: ListenOptions): void {
  if (options.port !== undefined) process.env.APP_HTTP__PORT = options.port;
  if (options.host !== undefined) process.env.APP_HTTP__HOST = options.host;
}

export function config(): ReturnType<typeof loadConfig>['config'] {
  try {
    return loadConfig().config;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

/** The development database's URL, or undefined when configuration cannot be read (a new migration's steps are then not counted). */
export function developmentUrl(): string | undefined {
  try {
    return loadConfig().config.database.url;
  } catch {
    return undefined;
  }
}

/** The first line of an error's message (the schema engine's add a backtrace). */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Resolves on the first SIGINT or SIGTERM: how a watching command is stopped. */
export function stopSignal(): Promise<NodeJS.Signals> {
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
export function reportWatchError(error: unknown): void {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.DEBUG && error instanceof Error) process.stderr.write(`${error.stack ?? ''}\n`);
}

/**
 * The application of the project at `root` (`generated/app.ts`, imported). Throws {@link CliError}
 * when it was not generated.
 */
async function loadApplication(root: string): Promise<ApplicationDefinition<DatabaseClient, unknown>> {
  const module = (await importGenerated(root, 'app.ts')) as { application: ApplicationDefinition<DatabaseClient, unknown> };
  return module.application;
}

/**
 * Runs the generated server's entry, `generated/main.ts`, as `node generated/main.ts` would: one
 * server, or a cluster whose primary never loads the application (runtime/server/main.ts). Throws
 * {@link CliError} when it was not generated.
 */
export async function runGeneratedServer(root: string): Promise<void> {
  await importGenerated(root, 'main.ts');
}

/**
 * Imports `generated/<file>` of the application at `root` (TypeScript, through tsx's hooks when the
 * generator runs compiled), writing the Prisma clients first when they are missing or stale.
 * Throws {@link CliError} when the file was not generated.
 */
async function importGenerated(root: string, file: string): Promise<unknown> {
  const generated = path.join(path.resolve(root), 'generated');
  const full = path.join(generated, file);
  if (!existsSync(full)) throw new CliError(`generated/${file} does not exist; run \`npm run generate\` first`);
  // The Prisma clients are not committed: a fresh clone has none until something writes them.
  const { ensurePrismaClients } = await import('../emit/prisma/client.js');
  await ensurePrismaClients(generated);
  const { importApplicationModule } = await import('../application-modules.js');
  return importApplicationModule(path.resolve(root), full);
}

export async function withDatabase<T>(
  root: string,
  url: string,
  work: (database: DatabaseClient, application: ApplicationDefinition<DatabaseClient, unknown>) => Promise<T>,
): Promise<T> {
  const { createAdapterFactory } = await import('../../runtime/data/database.js');
  const application = await loadApplication(root);
  const database = await application.createDatabase(await createAdapterFactory(url));
  try {
    return await work(database, application);
  } finally {
    await database.$disconnect();
  }
}
