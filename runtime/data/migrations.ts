/**
 * Migrations through Prisma's schema engine compiled to WebAssembly (docs/decisions.md §2): it runs
 * offline through a driver adapter, so no native engine is downloaded. Used by `generate`
 * (diffing two schemas into a migration script, no database needed; the checksums of what it
 * wrote) and by `migrate` (applying pending migrations one
 * transaction each, reporting status and drift, resolving a failed migration) — docs/decisions.md §11.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from '@prisma/driver-adapter-utils';
import { updateStatistics } from './database.js';
import { describeChanges, findChanges, type FoundChanges, resolutionFor } from './migration-changes.js';
import type { Dialect, MigrationStatement } from '../dialects/dialect.js';
import {
  createScratchAdapterFactory,
  dialectOfAdapter,
  MigrationScriptError,
  OUTCOME_UNKNOWN,
  type ScriptOutcome,
} from '../dialects/index.js';

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

/** A migration script the engine ran that failed (docs/decisions.md §11). */
interface ScriptFailure {
  /** The migration, when its record was held back ({@link holdRecords}: always, for the engine's migrations). */
  readonly migration: string | undefined;
  /** The driver's message. */
  readonly message: string;
  /** What the failure left of it, as the dialect checked. */
  readonly outcome: ScriptOutcome;
  /** Whether its row records the failure; false when writing that failed too (it is then still pending). */
  readonly recorded: boolean;
}

/** An engine and the connections it opened (closed by {@link closeEngine}). */
interface OpenEngine {
  readonly engine: SchemaEngine;
  readonly connections: { readonly connection: { dispose(): Promise<void> }; readonly shadow: boolean }[];
  /** The migration scripts that failed, in order (the engine records only "external connector error" for some drivers). */
  readonly failures: ScriptFailure[];
  /** The errors of migration scripts whose transaction could not begin (nothing ran, nothing is recorded: a lock refused). */
  readonly unstarted: unknown[];
}

/** What a statement answered without reaching the database returns. */
const NO_ROWS = { columnNames: [], columnTypes: [], rows: [] };

/** The engine's "migration started" row: `INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES …`. */
const STARTED_RECORD = /^\s*INSERT\s+INTO\s+[`"]?_prisma_migrations[`"]?\s*\(([^)]*)\)\s*VALUES\b/i;

/** The engine's later writes of a migration's row (`applied_steps_count`, `finished_at`, `logs`), each `… WHERE id = ?`. */
const RECORD_UPDATE = /^\s*UPDATE\s+[`"]?_prisma_migrations[`"]?\s+SET\b/i;

/** The row the engine writes before running a migration, held back to commit with it ({@link holdRecords}). */
interface StartedRecord {
  readonly id: string;
  readonly checksum: string;
  /** As the engine writes it (`2026-12-08T01:16:33.299+00:00`). */
  readonly startedAt: string;
  readonly name: string;
  /** The engine's own statement, run as it sent it when no migration script follows it. */
  readonly query: SqlQuery;
}

/** `query` as the engine's "migration started" row, or undefined when it is any other statement. */
function startedRecord(query: SqlQuery): StartedRecord | undefined {
  const columns = STARTED_RECORD.exec(query.sql)?.[1]
    ?.split(',')
    .map((column) => column.trim().replace(/^[`"]|[`"]$/g, ''));
  if (columns === undefined || [...columns].sort().join(',') !== 'checksum,id,migration_name,started_at') return undefined;
  const [id, checksum, startedAt, name] = ['id', 'checksum', 'started_at', 'migration_name'].map(
    (column) => query.args[columns.indexOf(column)],
  );
  if (typeof id !== 'string' || typeof checksum !== 'string' || typeof startedAt !== 'string' || typeof name !== 'string') return undefined;
  return { id, checksum, startedAt, name, query };
}

/** `date` as the engine writes timestamps into `_prisma_migrations` (`2026-12-08T01:16:33.299+00:00`). */
function engineTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}

/** `INSERT INTO "_prisma_migrations" (columns) VALUES (…)` in `dialect`'s quoting and placeholders. */
function recordInsert(dialect: Dialect, columns: readonly string[]): string {
  const { sql } = dialect;
  return `INSERT INTO ${sql.identifier('_prisma_migrations')} (${columns.map((column) => sql.identifier(column)).join(', ')}) VALUES (${columns.map((_, index) => sql.placeholder(index + 1)).join(', ')})`;
}

/** The row of `record`'s migration, finished at `finishedAt` with its one step applied: written in the migration's transaction. */
function finishedRow(dialect: Dialect, record: StartedRecord, finishedAt: string): MigrationStatement {
  return {
    sql: recordInsert(dialect, ['id', 'checksum', 'started_at', 'finished_at', 'migration_name', 'applied_steps_count']),
    args: [record.id, record.checksum, record.startedAt, finishedAt, record.name, 1],
  };
}

/** The row of `record`'s migration, started and failed with `reason`: one statement, written after the rollback. */
function failedRow(dialect: Dialect, record: StartedRecord, reason: string): SqlQuery {
  const text = { scalarType: 'string', arity: 'scalar' } as const;
  return {
    sql: recordInsert(dialect, ['id', 'checksum', 'started_at', 'migration_name', 'logs']),
    args: [record.id, record.checksum, record.startedAt, record.name, reason],
    argTypes: [text, text, { scalarType: 'datetime', arity: 'scalar' }, text, text],
  };
}

/** The driver's message in a rejection of `applyScript` (a `DriverAdapterError` keeps it in its payload). */
function scriptMessage(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } }).cause?.message;
  return typeof cause === 'string' ? cause : error instanceof Error ? error.message : String(error);
}

/**
 * Makes `connection` (the engine's, not a shadow's) write each migration's row in the migration's
 * own transaction (docs/decisions.md §11). The engine records a migration in three writes around its
 * script — the row as started, then `applied_steps_count` and `finished_at` — so a process killed
 * after the script committed left it recorded as failed with its changes in place. Here the started
 * row is held back; the script runs through the dialect's `applyScript` with the finished row as
 * the last statement of its transaction; a failed script's row is written with its reason in one
 * statement after the rollback; and the engine's later writes of that row are answered without
 * reaching the database. A kill now leaves a migration pending (no row) or applied (its row
 * finished), or failed with its reason. A held row that no script follows (an engine that records
 * something else this way) is written as the engine sent it before its next statement.
 * `ignored` statements are answered as having run (the dialect's `engineStatementsIgnored`).
 */
function holdRecords(connection: SqlDriverAdapter, dialect: Dialect, open: Pick<OpenEngine, 'failures' | 'unstarted'>): void {
  const queryRaw = connection.queryRaw.bind(connection);
  const executeRaw = connection.executeRaw.bind(connection);
  // `applyScript` gets the connection as it was (its own `executeScript` runs the statements).
  const plain = Object.assign(Object.create(connection) as SqlDriverAdapter, { executeScript: connection.executeScript.bind(connection) });
  const ignored = dialect.migrations.engineStatementsIgnored;
  let held: StartedRecord | undefined;
  /** Ids of the rows written here: the engine's own writes of them are answered without running. */
  const ours = new Set<string>();
  const answered = (query: SqlQuery): boolean =>
    ignored?.test(query.sql) === true || (RECORD_UPDATE.test(query.sql) && ours.has(String(query.args.at(-1))));
  const flush = async (): Promise<void> => {
    const record = held;
    held = undefined;
    if (record) await queryRaw(record.query);
  };
  connection.queryRaw = async (query) => {
    const started = startedRecord(query);
    if (started) {
      await flush();
      held = started;
      return NO_ROWS;
    }
    if (answered(query)) return NO_ROWS;
    await flush();
    return queryRaw(query);
  };
  connection.executeRaw = async (query) => {
    if (answered(query)) return 0;
    await flush();
    return executeRaw(query);
  };
  connection.executeScript = async (script: string) => {
    const record = held;
    held = undefined;
    if (record === undefined) {
      await dialect.migrations.applyScript(plain, script).catch((error: unknown) => {
        open.failures.push({ migration: undefined, message: scriptMessage(error), outcome: outcomeOf(error), recorded: true });
        throw error;
      });
      return;
    }
    ours.add(record.id);
    try {
      await dialect.migrations.applyScript(plain, script, () => finishedRow(dialect, record, engineTimestamp(new Date())));
    } catch (error) {
      if (!(error instanceof MigrationScriptError)) {
        open.unstarted.push(error);
        throw error;
      }
      const message = scriptMessage(error);
      const reason = error.outcome === 'unknown' ? `${plainReason(message)}; ${OUTCOME_UNKNOWN}` : plainReason(message);
      const recorded = await executeRaw(failedRow(dialect, record, reason)).then(
        () => true,
        () => false,
      );
      open.failures.push({ migration: record.name, message, outcome: error.outcome, recorded });
      throw error;
    }
  };
}

/** What a rejection of `applyScript` left: as the dialect checked it, or nothing when the transaction never began. */
function outcomeOf(error: unknown): ScriptOutcome {
  return error instanceof MigrationScriptError ? error.outcome : 'rolled-back';
}

/**
 * Opens the engine on `adapter`, recording every connection it opens: `free()` does not close its
 * connections, so they are closed here. Each connection runs migration scripts through its
 * dialect's `applyScript` (one transaction per migration, docs/decisions.md §11): the engine runs
 * nothing else as a script. On the database's own connections each migration's row commits with
 * the migration ({@link holdRecords}), and the statements the dialect says the engine must not run
 * (`engineStatementsIgnored`: SQLite's exclusive locking mode, so a server may keep the file open
 * while migrations apply) are answered without reaching the database.
 */
async function openEngine(schema: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<OpenEngine> {
  const module = await loadEngineModule();
  const dialect = dialectOfAdapter(adapter);
  const connections: OpenEngine['connections'] = [];
  const open = { failures: [] as ScriptFailure[], unstarted: [] as unknown[] };
  const track = <T extends SqlDriverAdapter>(connection: T, shadow: boolean): T => {
    connections.push({ connection, shadow });
    if (!shadow) {
      holdRecords(connection, dialect, open);
      return connection;
    }
    const plain = Object.assign(Object.create(connection) as T, { executeScript: connection.executeScript.bind(connection) });
    connection.executeScript = (script: string) => dialect.migrations.applyScript(plain, script);
    // The engine replays migrations on a shadow database through `executeRaw`, a whole script at
    // once, which a driver preparing one statement refuses: a script without arguments runs as one.
    const executeRaw = connection.executeRaw.bind(connection);
    connection.executeRaw = (query) => (query.args.length === 0 ? connection.executeScript(query.sql).then(() => 0) : executeRaw(query));
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
  return { engine, connections, ...open };
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
export interface RecordedFailure {
  readonly name: string;
  /** When it started (ISO 8601, as the database stores it). */
  readonly startedAt: string;
  /**
   * {@link plainReason} of the error it failed with; undefined when none is recorded: the process
   * applying it stopped before it finished (an earlier version of the tool, which recorded a
   * migration as started before running it; this one records it only with its changes).
   */
  readonly reason: string | undefined;
}

/** A failed migration and what of its changes the database holds, checked against it (docs/decisions.md §11). */
export interface FailedMigration extends RecordedFailure {
  /** What of its changes the database holds ({@link findChanges}). */
  readonly changes: FoundChanges;
  /**
   * The `migrate resolve` mark that makes its record true ({@link resolutionFor}): `applied` when
   * its changes are there, `rolled-back` when they are not; undefined when only part is there, or
   * it cannot be told.
   */
  readonly resolution: 'applied' | 'rolled-back' | undefined;
}

/**
 * A migration failed while `migrate deploy` applied it. With `outcome` `rolled-back` the database is
 * as it was before it (checked: its transaction rolled back whole); otherwise `changes` says what of
 * it is there and `resolution` which `migrate resolve` then records the truth.
 */
export class MigrationFailedError extends Error {
  override readonly name = 'MigrationFailedError';
  constructor(
    readonly migration: string,
    readonly reason: string,
    readonly atomicity: string,
    readonly outcome: ScriptOutcome,
    /** Whether the failure is recorded; false when writing the record failed too (the migration is still pending). */
    readonly recorded: boolean,
    readonly changes?: FoundChanges,
    readonly resolution?: 'applied' | 'rolled-back',
  ) {
    super(`migration ${migration} failed${outcome === 'rolled-back' ? ' and was rolled back' : ''}: ${reason}`);
  }
}

/** `migrate deploy` refused: the database records failed migrations (docs/decisions.md §11). */
export class FailedMigrationsError extends Error {
  override readonly name = 'FailedMigrationsError';
  constructor(readonly failed: readonly FailedMigration[]) {
    super(
      `the database records ${failed.length === 1 ? 'a failed migration' : 'failed migrations'}: ${failed.map((migration) => `${migration.name} (${migration.reason ?? 'interrupted'})`).join('; ')}`,
    );
  }
}

/** What a database's migrations table records (docs/decisions.md §11). */
export interface RecordedMigrations {
  /** Names of the migrations that finished (and were not rolled back). */
  readonly finished: readonly string[];
  /** Started and neither finished nor rolled back. */
  readonly failed: readonly RecordedFailure[];
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
    const failed: RecordedFailure[] = [];
    for (const [name, startedAt, finishedAt, rolledBackAt, logs] of rows) {
      if (rolledBackAt !== null) continue;
      if (finishedAt !== null) finished.push(String(name));
      else
        failed.push({
          name: String(name),
          startedAt: String(startedAt),
          reason: typeof logs === 'string' && logs.trim() !== '' ? plainReason(logs) : undefined,
        });
    }
    return { finished, failed };
  } finally {
    await connection.dispose();
  }
}

/**
 * Replaces the engine's log of the failed `migration` (the driver's message and the engine's
 * backtrace, or only "external connector error") with `reason`, so `migrate status` and the next
 * deploy say why in plain words: for a failure the engine recorded itself (no row held back by
 * {@link holdRecords}).
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
 * What of `name`'s changes the database behind `adapter` holds ({@link findChanges}), against the
 * migrations of `folders` it records as `finished`.
 */
async function changesOf(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  folders: readonly MigrationFolder[],
  finished: readonly string[],
  name: string,
): Promise<FoundChanges> {
  const folder = folders.find((candidate) => candidate.name === name);
  if (folder === undefined) return { kind: 'unchecked', why: `its folder is not in the migrations folder` };
  return findChanges(
    adapter,
    folders.filter((candidate) => finished.includes(candidate.name)),
    folder,
  );
}

/**
 * Applies every pending migration of `dir` to the database behind `adapter`, each in one
 * transaction with its record (the dialect's `applyScript`, {@link holdRecords}); returns the names
 * applied. When any was, the planner's statistics are updated afterwards (docs/decisions.md §6), so
 * an index a migration added is costed from the rows already there. Rejects with
 * {@link MigrationFailedError} when a migration fails (recorded as failed; rolled back, or what of
 * it stayed checked against the database; those before it stay applied), a `DatabaseLockedError`
 * when the write lock was refused (nothing applied), or the engine's or the driver's error.
 */
export async function applyMigrations(schema: string, dir: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const folders = readMigrationFolders(dir);
  const open = await openEngine(schema, adapter);
  let applied: string[] = [];
  let failure: ScriptFailure | undefined;
  let failedName: string | undefined;
  try {
    ({ appliedMigrationNames: applied } = await open.engine.applyMigrations({
      migrationsList: migrationList(dir, folders),
      filters: FILTERS,
    }));
  } catch (error) {
    // A script that failed (the dialect's `applyScript` saw it) is a failed migration; anything else is the engine's or the driver's.
    failure = open.failures.at(-1);
    if (failure === undefined) throw (await busy(open.unstarted.at(-1) ?? error, folders, adapter)) ?? error;
    failedName = failure.migration ?? /migration_name="([^"]+)"/.exec(error instanceof Error ? error.message : String(error))?.[1];
  } finally {
    await closeEngine(open);
  }
  if (failure) {
    const reason = plainReason(failure.message);
    const recorded = await recordedMigrations(adapter);
    const migration = failedName ?? recorded.failed.at(-1)?.name ?? 'unknown';
    // The engine wrote this row itself: its log is the driver's message and a backtrace.
    if (failure.migration === undefined) await recordFailureReason(adapter, migration, reason);
    const { atomicity } = dialectOfAdapter(adapter).migrations;
    if (failure.outcome === 'rolled-back') throw new MigrationFailedError(migration, reason, atomicity, 'rolled-back', failure.recorded);
    const changes = await changesOf(adapter, folders, recorded.finished, migration);
    throw new MigrationFailedError(
      migration,
      reason,
      atomicity,
      failure.outcome,
      failure.recorded,
      changes,
      resolutionFor(undefined, changes),
    );
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

/** Whether a process `pid` is running (one of another user counts: it cannot be signalled, but exists). */
function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `migrate deploy` (docs/decisions.md §11): refuses while the database records a failed migration
 * ({@link FailedMigrationsError}); does nothing when no migration is pending; otherwise first
 * keeps a consistent copy of a database that lives in a file and already has migrations applied
 * (`backups/<file>-<timestamp>-before-<first pending>.db` beside it, written as a `.partial` file
 * and renamed once whole, the newest `keepBackups` kept), then applies them ({@link applyMigrations}, whose errors it passes on).
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
    // Written under a name of its own and renamed once whole: a deploy killed while copying leaves a
    // `.partial` file (removed here by the next one), never a half-written copy among the kept ones.
    // The rename replaces a copy made the same second before the same migration (by a deploy that stopped).
    for (const name of readdirSync(folder)) {
      // `<copy>.db.<pid of its writer>.partial`
      const writer = Number(name.split('.').at(-2));
      if (name.startsWith(`${stem}-`) && name.endsWith('.partial') && !processRunning(writer))
        rmSync(path.join(folder, name), { force: true });
    }
    const partial = `${backup}.${process.pid}.partial`;
    rmSync(partial, { force: true });
    await dialect.migrations.backup(url, partial);
    renameSync(partial, backup);
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
 * database — where the dialect `describesLiveSchema` (SQLite; not PostgreSQL). Each failed
 * migration comes with what of its changes the database holds and the `migrate resolve` that
 * records it truly ({@link findChanges}: a scratch database on either). Rejects with the driver's
 * error, or the engine's when the shadow database cannot be made.
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
  if (!hasFailures) return { ...status, failed: [] };
  const recorded = await recordedMigrations(adapter);
  const failed: FailedMigration[] = [];
  for (const migration of recorded.failed) {
    const changes = await changesOf(adapter, folders, recorded.finished, migration.name);
    failed.push({ ...migration, changes, resolution: resolutionFor(migration.reason, changes) });
  }
  return { ...status, failed };
}

/**
 * `migrate resolve` (docs/decisions.md §11): records the failed migration `name` as rolled back
 * (the next deploy runs it again) or as applied (its changes were made by hand; a migration not
 * yet applied may be recorded as applied too). Rejects with an `Error` naming the fix when `name`
 * is not a folder of `dir`, is not in the state the mark needs, or is a failed migration whose
 * changes the database holds (`rolled-back`) or lacks (`applied`), checked ({@link findChanges});
 * or with the engine's error.
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
  const failure = status.failed.find((migration) => migration.name === name);
  const failed = failure !== undefined;
  // A mark the database contradicts would make the next deploy fail over its changes, or skip them.
  if (mark === 'rolled-back' && failure?.changes.kind === 'present')
    throw new Error(
      `${name} is not rolled back: ${describeChanges(failure.changes)}, and the next deploy would run it again over them; \`migrate resolve --applied ${name}\` records it as applied`,
    );
  if (mark === 'applied' && failure?.changes.kind === 'absent')
    throw new Error(
      `${name} is not applied: ${describeChanges(failure.changes)}; \`migrate resolve --rolled-back ${name}\` lets the next deploy run it (make its changes first to record it as applied)`,
    );
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
