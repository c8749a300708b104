/**
 * The databases the generated server runs on (docs/architecture.md §3; docs/decisions.md §2), one {@link Dialect}
 * each, and the choice of one by `APP_DATABASE__URL`'s scheme. A database is one file here beside
 * sqlite.ts and postgresql.ts, listed in {@link DIALECTS}, plus its Prisma provider; docs/how-to.md "Add
 * a database" says what else libSQL and MySQL would need. The generator may import this module (the
 * Prisma schema, folder and adapter provider of each database).
 */
import type { SqlRunner } from '../data/sql-runner.js';
import type { Dialect, RunnerOptions } from './dialect.js';
import { POSTGRESQL } from './postgresql.js';
import { SQLITE } from './sqlite.js';

export type { Dialect, RunnerOptions, StartedEventRelay } from './dialect.js';
/**
 * The schema engine's scratch database, for work that needs the engine but no real database (diffing
 * two schemas of any database, runtime/data/migrations.ts): SQLite in memory, which needs no server.
 */
export { createScratchAdapterFactory } from './sqlite.js';
/** How a migration's script left the database when it failed, as every dialect's `applyScript` reports it (docs/decisions.md §11). */
export { ENDED_ITS_TRANSACTION, MigrationScriptError, OUTCOME_UNKNOWN, type ScriptOutcome } from './migration-script.js';

/** Every supported database, the embedded default first. */
export const DIALECTS = [SQLITE, POSTGRESQL] as const;

/** A supported database's name (`sqlite`, `postgresql`): configuration, logs, `generated/prisma/<name>/`. */
export type DatabaseName = (typeof DIALECTS)[number]['name'];

/** The one list of supported databases, by name (generator and runtime share it). */
export const SUPPORTED_DATABASES: readonly DatabaseName[] = DIALECTS.map((dialect) => dialect.name);

/** The dialect `url` selects, or undefined for an unsupported scheme. */
export function findDialect(url: string): Dialect<DatabaseName> | undefined {
  return DIALECTS.find((dialect) => dialect.schemes.some((scheme) => url.startsWith(scheme)));
}

/**
 * The URL of the embedded database kept in `file`: the first dialect with databases in files of
 * their own (SQLite's `file:<path>`); the default `APP_DATABASE__URL` and a test server's throwaway
 * database. Throws when no supported database lives in a file.
 */
export function embeddedDatabaseUrl(file: string): string {
  const dialect = DIALECTS.find((candidate) => candidate.fileUrl !== undefined);
  if (!dialect?.fileUrl) throw new Error('no supported database lives in a file of its own');
  return dialect.fileUrl(file);
}

/** How supported URLs look, for messages: `file:<path> or postgres://…`. */
export const SUPPORTED_URL_FORMS = DIALECTS.map((dialect) => dialect.urlForm).join(' or ');

/** The dialect `url` selects. Throws for an unsupported scheme (the URL's credentials are not shown). */
export function dialectFor(url: string): Dialect<DatabaseName> {
  const dialect = findDialect(url);
  if (!dialect)
    throw new Error(`unsupported database URL ${JSON.stringify(url.replace(/\/\/[^@]*@/, '//…@'))}: use ${SUPPORTED_URL_FORMS}`);
  return dialect;
}

/** The dialect named `name`. */
export function dialectNamed(name: DatabaseName): Dialect<DatabaseName> {
  const dialect = DIALECTS.find((candidate) => candidate.name === name);
  if (!dialect) throw new Error(`no dialect is named ${name}`);
  return dialect;
}

/** The dialect `adapter` (a Prisma driver adapter factory) belongs to, by its `adapterName`. Throws when none has it. */
export function dialectOfAdapter(adapter: { readonly adapterName: string }): Dialect<DatabaseName> {
  const dialect = DIALECTS.find((candidate) => candidate.adapterName === adapter.adapterName);
  if (!dialect) throw new Error(`no dialect uses the driver adapter ${adapter.adapterName}`);
  return dialect;
}

/** The SQL runner of the database at `url` (its dialect's); `onQuery` sees each statement. Loads only that database's driver. */
export function createSqlRunner(url: string, options: RunnerOptions = {}): Promise<SqlRunner> {
  return dialectFor(url).createRunner(url, options);
}
