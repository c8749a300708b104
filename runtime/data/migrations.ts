/**
 * Migrations through Prisma's schema engine compiled to WebAssembly (docs/decisions.md §2): it runs
 * offline through a driver adapter, so no native engine is downloaded. Used by `generate`
 * (diffing two schemas into a migration script, no database needed; the checksums of what it
 * wrote) and by `migrate` (applying pending migrations one
 * transaction each, reporting status and drift, resolving a failed migration) — docs/decisions.md §11.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { updateStatistics } from './database.js';
import { createScratchAdapterFactory, dialectOfAdapter } from '../dialects/index.js';

const require = createRequire(import.meta.url);

/** The part of the WebAssembly global used here (`@types/node` 20 does not declare it). */
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, unknown>): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
const FILTERS = { externalTables: [], externalEnums: [] };

/** The engine methods used here (see `@prisma/schema-engine-wasm`'s typings). */
interface SchemaEngine {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diagnoseMigrationHistory(input: unknown): Promise<DiagnoseOutput>;
  markMigrationApplied(input: unknown): Promise<object>;
  markMigrationRolledBack(input: unknown): Promise<object>;
  free(): void;
}

interface DiagnoseOutput {
  readonly editedMigrationNames: string[];
  readonly failedMigrationNames: string[];
  readonly hasMigrationsTable: boolean;
  readonly history:
    | null
    | { diagnostic: 'databaseIsBehind'; unappliedMigrationNames: string[] }
    | { diagnostic: 'migrationsDirectoryIsBehind'; unpersistedMigrationNames: string[] }
    | {
        diagnostic: 'historiesDiverge';
        lastCommonMigrationName: string | null;
        unpersistedMigrationNames: string[];
        unappliedMigrationNames: string[];
      };
}

interface EngineModule {
  SchemaEngine: {
    new: (options: { datamodels: [string, string][] }, log: (line: string) => void, adapter: object) => Promise<SchemaEngine>;
  };
  __wbg_set_wasm(exports: Record<string, unknown>): void;
}

let engineModule: Promise<EngineModule> | undefined;

/**
 * Loads the wasm engine once per process. Node 20 cannot import `.wasm` as an ES module without
 * a flag, so the bindings module is loaded and handed the instantiated module.
 */
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bindings = (await import(bindingsPath)) as EngineModule;
    const { instance } = await WebAssembly.instantiate(readFileSync(bindingsPath.replace(/\.js$/, '.wasm')), {
      './schema_engine_bg.js': bindings,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return bindings;
  })();
  return engineModule;
}

/** An engine and the connections it opened (closed by {@link closeEngine}). */
interface OpenEngine {
  readonly engine: SchemaEngine;
  readonly connections: { readonly connection: { dispose(): Promise<void> }; readonly shadow: boolean }[];
  /** The message of the last migration script that failed (the engine records only "external connector error" for some drivers). */
  readonly failures: string[];
}

/**
 * Opens the engine on `adapter`, recording every connection it opens: `free()` does not close its
 * connections, so they are closed here. Each connection runs migration scripts through its
 * dialect's `applyScript` (one transaction per migration, docs/decisions.md §11): the engine runs
 * nothing else as a script. The statements the dialect says the engine must not run on its
 * connections (`engineStatementsIgnored`: SQLite's exclusive locking mode, so a server may keep
 * the file open while migrations apply) are answered without reaching the database.
 */
async function openEngine(schema: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<OpenEngine> {
  const module = await loadEngineModule();
  const { migrations } = dialectOfAdapter(adapter);
  const connections: OpenEngine['connections'] = [];
  const failures: string[] = [];
  const track = <T extends SqlDriverAdapter>(connection: T, shadow: boolean): T => {
    connections.push({ connection, shadow });
    // `applyScript` gets the connection as it was (its own `executeScript` runs the statements).
    const plain = Object.assign(Object.create(connection) as T, { executeScript: connection.executeScript.bind(connection) });
    connection.executeScript = (script: string) =>
      migrations.applyScript(plain, script).catch((error: unknown) => {
        const cause = (error as { cause?: { message?: unknown } }).cause?.message;
        failures.push(typeof cause === 'string' ? cause : error instanceof Error ? error.message : String(error));
        throw error;
      });
    const ignored = migrations.engineStatementsIgnored;
    if (!shadow && ignored !== undefined) {
      for (const method of ['queryRaw', 'executeRaw'] as const) {
        const run = connection[method].bind(connection) as (query: Parameters<T['queryRaw']>[0]) => Promise<unknown>;
        (connection as Record<string, unknown>)[method] = (query: Parameters<T['queryRaw']>[0]) =>
          ignored.test(query.sql)
            ? Promise.resolve(method === 'queryRaw' ? { columnNames: [], columnTypes: [], rows: [] } : 0)
            : run(query);
      }
    }
    if (shadow) {
      // The engine replays migrations on a shadow database through `executeRaw`, a whole script at
      // once, which a driver preparing one statement refuses: a script without arguments runs as one.
      const executeRaw = connection.executeRaw.bind(connection);
      connection.executeRaw = (query) => (query.args.length === 0 ? connection.executeScript(query.sql).then(() => 0) : executeRaw(query));
    }
    return connection;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    connect: async () => track(await adapter.connect(), false),
    connectToShadowDb: async () => track(await adapter.connectToShadowDb(), true),
  };
  const engine = await module.SchemaEngine.new(
    { datamodels: [['schema.prisma', schema]] },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  return { engine, connections, failures };
}

async function closeEngine(open: OpenEngine): Promise<void> {
  open.engine.free();
  for (const { connection, shadow } of open.connections) {
    // The engine drops a PostgreSQL shadow database itself; the adapter's own drop then fails.
    await connection.dispose().catch((error: unknown) => {
      if (!shadow) throw error;
    });
  }
}

/** One migration folder on disk. */
export interface MigrationFolder {
  readonly name: string;
  readonly script: string;
}

/** The migration folders under `dir` (`NNNN_name/migration.sql`), in name order. */
export function readMigrationFolders(dir: string): MigrationFolder[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => ({ name: entry.name, script: readFileSync(path.join(dir, entry.name, 'migration.sql'), 'utf8') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function migrationList(dir: string, folders: readonly MigrationFolder[]): unknown {
  const lockfile = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockfile) ? readFileSync(lockfile, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: folders.map((folder) => ({
      path: folder.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: folder.script } },
    })),
  };
}

/**
 * The SQL script that takes a database from schema `from` (undefined = empty) to schema `to`.
 * Pure: no database is touched (the engine runs on a scratch in-memory adapter, whatever database
 * the schemas are for). Returns `''` when nothing changes.
 */
export async function diffSchemas(from: string | undefined, to: string): Promise<string> {
  const open = await openEngine(to, await createScratchAdapterFactory());
  try {
    const result = await open.engine.diff({
      from: from === undefined ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: from }] },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: to }] },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    const script = result.stdout ?? '';
    return /^\s*(-- This is an empty migration\.)?\s*$/.test(script) ? '' : script;
  } finally {
    await closeEngine(open);
  }
}

/** The file beside the migration folders recording each one's checksum as `generate` wrote it. */
export const CHECKSUMS_FILE = 'checksums.json';

/** SHA-256 of a migration script, hex: what {@link CHECKSUMS_FILE} records (and Prisma's `_prisma_migrations.checksum` holds). */
function migrationChecksum(script: string): string {
  return createHash('sha256').update(script).digest('hex');
}

/**
 * The checksums recorded in `dir`'s {@link CHECKSUMS_FILE}, by migration name; undefined when the
 * file does not exist (a folder from before checksums were kept). Throws when it is not the
 * generator's JSON: a damaged record cannot vouch for anything.
 */
function readMigrationChecksums(dir: string): Readonly<Record<string, string>> | undefined {
  const file = path.join(dir, CHECKSUMS_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { migrations?: unknown };
  const migrations = parsed.migrations;
  if (typeof migrations !== 'object' || migrations === null || Object.values(migrations).some((value) => typeof value !== 'string')) {
    throw new Error(`${file} is damaged: restore it from version control`);
  }
  return migrations as Record<string, string>;
}

/** The text of {@link CHECKSUMS_FILE} for `folders` (deterministic: name order, one per line). */
export function renderMigrationChecksums(folders: readonly MigrationFolder[]): string {
  const migrations = Object.fromEntries(
    [...folders].sort((a, b) => a.name.localeCompare(b.name)).map((folder) => [folder.name, migrationChecksum(folder.script)]),
  );
  return `${JSON.stringify({ note: 'Written by `generate`: the SHA-256 of each migration.sql as it was written. `generate` and `migrate status` report a migration edited or deleted since (docs/decisions.md §11). Do not edit.', migrations }, null, 2)}\n`;
}

/** A migration folder that differs from what `generate` wrote (docs/decisions.md §11). */
export interface FolderDrift {
  /** `deleted`: recorded, gone; `edited`: its script changed; `unrecorded`: a folder `generate` did not write. */
  readonly kind: 'deleted' | 'edited' | 'unrecorded';
  readonly name: string;
}

/**
 * How the folders of `dir` differ from the checksums recorded beside them, in name order; empty
 * when they match or when nothing is recorded yet.
 */
export function folderDrift(
  dir: string,
  folders: readonly MigrationFolder[] = readMigrationFolders(dir),
  recorded = readMigrationChecksums(dir),
): FolderDrift[] {
  if (recorded === undefined) return [];
  const present = new Map(folders.map((folder) => [folder.name, folder.script]));
  const drift: FolderDrift[] = [];
  for (const [name, checksum] of Object.entries(recorded)) {
    const script = present.get(name);
    if (script === undefined) drift.push({ kind: 'deleted', name });
    else if (migrationChecksum(script) !== checksum) drift.push({ kind: 'edited', name });
  }
  for (const folder of folders) if (!(folder.name in recorded)) drift.push({ kind: 'unrecorded', name: folder.name });
  return drift.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The reason a migration failed, in plain words: the database's first line without the engine's
 * backtrace and, for the usual causes, a sentence saying what they mean (a redefinition's
 * temporary table `new_Post` named as the table it redefines). Idempotent.
 */
export function plainReason(log: string): string {
  // The engine's backtrace: `   0: sql_schema_connector::…` and `      at schema-engine/….rs:113` lines.
  const first = (log.split('\n').find((line) => line.trim() !== '' && !/^\s+(\d+: |at )/.test(line)) ?? 'unknown error').trim();
  if (/ is required but rows of | already hold duplicate values /.test(first)) return first;
  const notNull =
    /NOT NULL constraint failed: (?:new_)?(\w+)\.(\w+)/.exec(first) ??
    /column "(\w+)" of relation "(\w+)" contains null values/.exec(first);
  if (notNull) {
    const [table, column] = first.startsWith('column') ? [notNull[2], notNull[1]] : [notNull[1], notNull[2]];
    return `${table}.${column} is required but rows of ${table} have no value for it (${first}); give the column a default, or make it optional first and fill it`;
  }
  if (/canceling statement due to lock timeout|database is locked|`SocketTimeout`/.test(first))
    return `another connection held a lock on what it changes for longer than the migration waits (a long transaction of a server or a tool) (${first}); deploy again once it ends`;
  if (/UNIQUE constraint failed|could not create unique index/.test(first))
    return `rows already hold duplicate values for a new unique constraint (${first})`;
  return first;
}

/** A migration that started and did not finish, as the database records it. */
export interface FailedMigration {
  readonly name: string;
  /** When it started (ISO 8601, as the database stores it). */
  readonly startedAt: string;
  /** {@link plainReason} of the error it failed with. */
  readonly reason: string;
}

/** A migration failed while `migrate deploy` applied it; the database is as it was before it. */
export class MigrationFailedError extends Error {
  override readonly name = 'MigrationFailedError';
  constructor(
    readonly migration: string,
    readonly reason: string,
    readonly atomicity: string,
  ) {
    super(`migration ${migration} failed and was rolled back: ${reason}`);
  }
}

/** `migrate deploy` refused: the database records failed migrations (docs/decisions.md §11). */
export class FailedMigrationsError extends Error {
  override readonly name = 'FailedMigrationsError';
  constructor(readonly failed: readonly FailedMigration[]) {
    super(
      `the database records ${failed.length === 1 ? 'a failed migration' : 'failed migrations'}: ${failed.map((migration) => `${migration.name} (${migration.reason})`).join('; ')}`,
    );
  }
}

/** What a database's migrations table records (docs/decisions.md §11). */
export interface RecordedMigrations {
  /** Names of the migrations that finished (and were not rolled back). */
  readonly finished: readonly string[];
  /** Started and neither finished nor rolled back. */
  readonly failed: readonly FailedMigration[];
}

/**
 * Reads the migrations table of the database behind `adapter` with one plain query, without the
 * schema engine. Empty when there is no table
 * yet. Rejects with the driver's error.
 */
export async function recordedMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<RecordedMigrations> {
  const connection = await adapter.connect();
  try {
    let rows: unknown[][];
    try {
      ({ rows } = await connection.queryRaw({
        sql: 'SELECT migration_name, started_at, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at',
        args: [],
        argTypes: [],
      }));
    } catch (error) {
      if (/no such table|does not exist/i.test(error instanceof Error ? error.message : String(error))) return { finished: [], failed: [] };
      throw error;
    }
    const finished: string[] = [];
    const failed: FailedMigration[] = [];
    for (const [name, startedAt, finishedAt, rolledBackAt, logs] of rows) {
      if (rolledBackAt !== null) continue;
      if (finishedAt !== null) finished.push(String(name));
      else failed.push({ name: String(name), startedAt: String(startedAt), reason: plainReason(typeof logs === 'string' ? logs : '') });
    }
    return { finished, failed };
  } finally {
    await connection.dispose();
  }
}

/**
 * Replaces the engine's log of the failed `migration` (the driver's message and the engine's
 * backtrace, or only "external connector error") with `reason`, so `migrate status` and the next
 * deploy say why in plain words.
 */
async function recordFailureReason(adapter: SqlMigrationAwareDriverAdapterFactory, migration: string, reason: string): Promise<void> {
  const connection = await adapter.connect();
  try {
    const { sql } = dialectOfAdapter(adapter);
    const [first, second] = [sql.placeholder(1), sql.placeholder(2)];
    await connection.executeRaw({
      sql: `UPDATE _prisma_migrations SET logs = ${first} WHERE migration_name = ${second} AND finished_at IS NULL AND rolled_back_at IS NULL`,
      args: [reason, migration],
      argTypes: [
        { scalarType: 'string', arity: 'scalar' },
        { scalarType: 'string', arity: 'scalar' },
      ],
    });
  } finally {
    await connection.dispose();
  }
}

/**
 * Applies every pending migration of `dir` to the database behind `adapter`, each in one
 * transaction (the dialect's `applyScript`); returns the names applied. When any was, the planner's
 * statistics are updated afterwards (docs/decisions.md §6), so an index a migration added is costed
 * from the rows already there. Rejects with {@link MigrationFailedError} when a migration fails (it
 * is rolled back and recorded as failed; those before it stay applied), or the driver's error.
 */
export async function applyMigrations(schema: string, dir: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const open = await openEngine(schema, adapter);
  let applied: string[] = [];
  let failure: { migration: string | undefined; reason: string } | undefined;
  try {
    ({ appliedMigrationNames: applied } = await open.engine.applyMigrations({
      migrationsList: migrationList(dir, readMigrationFolders(dir)),
      filters: FILTERS,
    }));
  } catch (error) {
    // A script that failed (the dialect's `applyScript` saw it) is a failed migration; anything else is the engine's or the driver's.
    const script = open.failures.at(-1);
    if (script === undefined) throw (await busy(error, readMigrationFolders(dir), adapter)) ?? error;
    failure = {
      migration: /migration_name="([^"]+)"/.exec(error instanceof Error ? error.message : String(error))?.[1],
      reason: plainReason(script),
    };
  } finally {
    await closeEngine(open);
  }
  if (failure) {
    failure.migration ??= (await recordedMigrations(adapter)).failed.at(-1)?.name ?? 'unknown';
    await recordFailureReason(adapter, failure.migration, failure.reason);
    throw new MigrationFailedError(failure.migration, failure.reason, dialectOfAdapter(adapter).migrations.atomicity);
  }
  if (applied.length > 0) await updateStatistics(adapter);
  return applied;
}

/**
 * A {@link DatabaseLockedError} when `error` is the database refusing the write lock within its
 * wait (the dialect's `lockRefusal`: how its adapter reports that); else undefined. The pending
 * ones are read again: the engine wrote nothing.
 */
async function busy(
  error: unknown,
  folders: readonly MigrationFolder[],
  adapter: SqlMigrationAwareDriverAdapterFactory,
): Promise<DatabaseLockedError | undefined> {
  const refusal = dialectOfAdapter(adapter).migrations.lockRefusal;
  const message = error instanceof Error ? error.message : String(error);
  if (refusal === undefined || !refusal.pattern.test(message)) return undefined;
  const pending = (finished: readonly string[]): string[] =>
    folders.map((folder) => folder.name).filter((name) => !finished.includes(name));
  return await recordedMigrations(adapter).then(
    ({ finished }) => new DatabaseLockedError(pending(finished), refusal.waitMs),
    () => new DatabaseLockedError([], refusal.waitMs),
  );
}

/**
 * `migrate deploy` could not take the database's write lock within the busy timeout: another
 * connection held it (a long transaction). Nothing of the migration was applied or recorded.
 */
class DatabaseLockedError extends Error {
  override readonly name = 'DatabaseLockedError';
  constructor(
    readonly pending: readonly string[],
    waitMs: number,
  ) {
    super(
      `the database is locked: another connection held its write lock for longer than ${waitMs / 1000} s (a long transaction of a server or a tool); ` +
        `nothing was applied and ${pending.length > 0 ? `${pending.join(', ')} ${pending.length === 1 ? 'is' : 'are'} still pending` : 'nothing is recorded'}; deploy again once it is released`,
    );
  }
}

/** Options of {@link deployMigrations}. */
export interface DeployOptions {
  /** How many copies made before deploys to keep (older ones are removed); 0 makes none. Default 5. */
  readonly keepBackups?: number;
}

/** What {@link deployMigrations} did. */
export interface Deployment {
  readonly applied: readonly string[];
  /** The copy of the database made before applying (absolute path), when one was. */
  readonly backup?: string;
}

/** Copies made before deploys are kept by default (docs/decisions.md §11). */
const DEFAULT_KEPT_BACKUPS = 5;

/** `20261124T034221Z`: a timestamp that sorts as text and is a valid file name everywhere. */
function fileTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * `migrate deploy` (docs/decisions.md §11): refuses while the database records a failed migration
 * ({@link FailedMigrationsError}); does nothing when no migration is pending; otherwise first
 * keeps a consistent copy of a database that lives in a file and already has migrations applied
 * (`backups/<file>-<timestamp>-before-<first pending>.db` beside it, the newest `keepBackups`
 * kept), then applies them ({@link applyMigrations}, whose errors it passes on).
 */
export async function deployMigrations(
  url: string,
  schema: string,
  dir: string,
  adapter: SqlMigrationAwareDriverAdapterFactory,
  options: DeployOptions = {},
): Promise<Deployment> {
  const status = await migrationStatus(schema, dir, adapter);
  if (status.failed.length > 0) throw new FailedMigrationsError(status.failed);
  const first = status.pending[0];
  if (first === undefined) return { applied: [] };
  const dialect = dialectOfAdapter(adapter);
  const keep = options.keepBackups ?? DEFAULT_KEPT_BACKUPS;
  let backup: string | undefined;
  const file = dialect.databaseFiles?.(url)[0];
  if (dialect.migrations.backup && file !== undefined && status.applied.length > 0 && keep > 0) {
    const folder = path.join(path.dirname(file), 'backups');
    const stem = path.basename(file).replace(/\.[^.]*$/, '');
    mkdirSync(folder, { recursive: true });
    backup = path.join(folder, `${stem}-${fileTimestamp(new Date())}-before-${first}.db`);
    await dialect.migrations.backup(url, backup);
    const kept = readdirSync(folder)
      .filter((name) => name.startsWith(`${stem}-`) && name.endsWith('.db'))
      .sort();
    for (const old of kept.slice(0, Math.max(0, kept.length - keep))) rmSync(path.join(folder, old));
  }
  const applied = await applyMigrations(schema, dir, adapter);
  return backup === undefined ? { applied } : { applied, backup };
}

/** Where a database stands against the migrations folder (docs/decisions.md §11). */
export interface MigrationStatus {
  readonly applied: readonly string[];
  readonly pending: readonly string[];
  /** Applied to the database but absent from the folder (a divergent history). */
  readonly unknown: readonly string[];
  /** Applied, then edited on disk (the database's checksum differs). */
  readonly edited: readonly string[];
  /** Started and neither finished nor rolled back. */
  readonly failed: readonly FailedMigration[];
  /** Folders that differ from the checksums `generate` recorded. */
  readonly folderDrift: readonly FolderDrift[];
  /**
   * How the database's schema differs from what its applied migrations produce (the engine's
   * summary), when asked for and it does; undefined when it does not.
   */
  readonly schemaDrift?: string;
}

/**
 * Compares the database behind `adapter` with the migrations in `dir`; with `schemaDrift`, also
 * replays the applied migrations on a shadow database (in memory) and compares the result with the
 * database — where the dialect `describesLiveSchema` (SQLite; not PostgreSQL).
 * Rejects with the driver's error, or the engine's when the shadow database cannot be made.
 */
export async function migrationStatus(
  schema: string,
  dir: string,
  adapter: SqlMigrationAwareDriverAdapterFactory,
  options: { readonly schemaDrift?: boolean } = {},
): Promise<MigrationStatus> {
  const folders = readMigrationFolders(dir);
  const drift = folderDrift(dir, folders);
  const open = await openEngine(schema, adapter);
  let status: Omit<MigrationStatus, 'failed'>;
  let hasFailures: boolean;
  try {
    let diagnosis: DiagnoseOutput;
    try {
      diagnosis = await open.engine.diagnoseMigrationHistory({
        migrationsList: migrationList(dir, folders),
        optInToShadowDatabase: false,
        filters: FILTERS,
      });
    } catch (error) {
      // P1014: no migrations table yet — nothing is applied.
      if ((error as { code?: string }).code === 'P1014')
        return { applied: [], pending: folders.map((folder) => folder.name), unknown: [], edited: [], failed: [], folderDrift: drift };
      throw error;
    }
    const history = diagnosis.history;
    const pending = history && 'unappliedMigrationNames' in history ? history.unappliedMigrationNames : [];
    const unknown = history && 'unpersistedMigrationNames' in history ? history.unpersistedMigrationNames : [];
    const failedNames = new Set(diagnosis.failedMigrationNames);
    const applied = folders.map((folder) => folder.name).filter((name) => !pending.includes(name) && !failedNames.has(name));
    hasFailures = failedNames.size > 0;
    let schemaDrift: string | undefined;
    if (options.schemaDrift === true && dialectOfAdapter(adapter).migrations.describesLiveSchema) {
      const replayed = folders.filter((folder) => applied.includes(folder.name));
      const result = await open.engine.diff({
        from: { tag: 'migrations', ...(migrationList(dir, replayed) as object) },
        to: { tag: 'schemaDatasource', files: [{ path: 'schema.prisma', content: schema }], configDir: dir },
        script: false,
        exitCode: null,
        filters: FILTERS,
      });
      const summary = (result.stdout ?? '').trim();
      if (summary !== '' && !/^No difference detected\.?$/.test(summary)) schemaDrift = summary;
    }
    status = {
      applied,
      pending,
      unknown,
      edited: diagnosis.editedMigrationNames,
      folderDrift: drift,
      ...(schemaDrift === undefined ? {} : { schemaDrift }),
    };
  } finally {
    await closeEngine(open);
  }
  return { ...status, failed: hasFailures ? (await recordedMigrations(adapter)).failed : [] };
}

/**
 * `migrate resolve` (docs/decisions.md §11): records the failed migration `name` as rolled back
 * (the next deploy runs it again) or as applied (its changes were made by hand; a migration not
 * yet applied may be recorded as applied too). Rejects with an `Error` naming the fix when `name`
 * is not a folder of `dir` or is not in the state the mark needs, or with the engine's error.
 */
export async function resolveMigration(
  schema: string,
  dir: string,
  adapter: SqlMigrationAwareDriverAdapterFactory,
  name: string,
  mark: 'applied' | 'rolled-back',
): Promise<void> {
  const folders = readMigrationFolders(dir);
  if (!folders.some((folder) => folder.name === name)) {
    throw new Error(`there is no migration ${JSON.stringify(name)} in ${dir}: use one of the names \`migrate status\` lists`);
  }
  const status = await migrationStatus(schema, dir, adapter);
  const failed = status.failed.some((migration) => migration.name === name);
  if (mark === 'rolled-back' && !failed)
    throw new Error(
      `${name} is not a failed migration (\`migrate status\` shows it as ${status.applied.includes(name) ? 'applied' : 'pending'}); only a failed migration can be marked rolled back`,
    );
  if (mark === 'applied' && status.applied.includes(name)) throw new Error(`${name} is already applied`);
  const open = await openEngine(schema, adapter);
  try {
    if (mark === 'rolled-back') await open.engine.markMigrationRolledBack({ migrationName: name });
    else await open.engine.markMigrationApplied({ migrationName: name, migrationsList: migrationList(dir, folders) });
  } finally {
    await closeEngine(open);
  }
}
