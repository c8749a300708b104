/**
 * Migrations through Prisma's schema engine compiled to WebAssembly (docs/decisions.md §2): it runs
 * offline through a driver adapter, so no native engine is downloaded. Used by `generate`
 * (diffing two schemas into a migration script, no database needed) and by `migrate`
 * (applying pending migrations, reporting status).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { updateStatistics } from './database.js';
import { createScratchAdapterFactory } from '../dialects/sqlite.js';

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
    | { diagnostic: 'historiesDiverge'; lastCommonMigrationName: string | null; unpersistedMigrationNames: string[]; unappliedMigrationNames: string[] };
}

interface EngineModule {
  SchemaEngine: { new: (options: { datamodels: [string, string][] }, log: (line: string) => void, adapter: object) => Promise<SchemaEngine> };
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
    const { instance } = await WebAssembly.instantiate(readFileSync(bindingsPath.replace(/\.js$/, '.wasm')), { './schema_engine_bg.js': bindings });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
    return bindings;
  })();
  return engineModule;
}

/** An engine and the connections it opened (closed by {@link closeEngine}). */
interface OpenEngine {
  readonly engine: SchemaEngine;
  readonly connections: { dispose(): Promise<void> }[];
}

/**
 * Opens the engine on `adapter`, recording every connection it opens: the engine takes SQLite's
 * exclusive locking mode and `free()` does not close its connections, so they are closed here.
 */
async function openEngine(schema: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<OpenEngine> {
  const module = await loadEngineModule();
  const connections: { dispose(): Promise<void> }[] = [];
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    connect: async () => {
      const connection = await adapter.connect();
      connections.push(connection);
      return connection;
    },
    connectToShadowDb: async () => {
      const connection = await adapter.connectToShadowDb();
      connections.push(connection);
      return connection;
    },
  };
  const engine = await module.SchemaEngine.new({ datamodels: [['schema.prisma', schema]] }, () => undefined, bindMigrationAwareSqlAdapterFactory(tracked));
  return { engine, connections };
}

async function closeEngine(open: OpenEngine): Promise<void> {
  open.engine.free();
  for (const connection of open.connections) await connection.dispose();
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
    migrationDirectories: folders.map((folder) => ({ path: folder.name, migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: folder.script } } })),
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

/**
 * Applies every pending migration of `dir` to the database behind `adapter`; returns the names
 * applied. When any was, the planner's statistics are updated afterwards (docs/decisions.md §6), so an
 * index a migration added is costed from the rows already there. Rejects with the engine's error
 * (a failed migration) or the driver's.
 */
export async function applyMigrations(schema: string, dir: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const open = await openEngine(schema, adapter);
  let applied: string[];
  try {
    ({ appliedMigrationNames: applied } = await open.engine.applyMigrations({ migrationsList: migrationList(dir, readMigrationFolders(dir)), filters: FILTERS }));
  } finally {
    await closeEngine(open);
  }
  // After the engine's connections are closed: on SQLite it holds the file in exclusive locking mode.
  if (applied.length > 0) await updateStatistics(adapter);
  return applied;
}

/** Where a database stands against the migrations folder. */
export interface MigrationStatus {
  readonly applied: readonly string[];
  readonly pending: readonly string[];
  /** Applied to the database but absent from the folder (a divergent history). */
  readonly unknown: readonly string[];
  /** Applied, then edited on disk. */
  readonly edited: readonly string[];
  readonly failed: readonly string[];
}

/** Compares the database behind `adapter` with the migrations in `dir`. */
export async function migrationStatus(schema: string, dir: string, adapter: SqlMigrationAwareDriverAdapterFactory): Promise<MigrationStatus> {
  const folders = readMigrationFolders(dir);
  const open = await openEngine(schema, adapter);
  try {
    let diagnosis: DiagnoseOutput;
    try {
      diagnosis = await open.engine.diagnoseMigrationHistory({ migrationsList: migrationList(dir, folders), optInToShadowDatabase: false, filters: FILTERS });
    } catch (error) {
      // P1014: no migrations table yet — nothing is applied.
      if ((error as { code?: string }).code === 'P1014') return { applied: [], pending: folders.map((folder) => folder.name), unknown: [], edited: [], failed: [] };
      throw error;
    }
    const history = diagnosis.history;
    const pending = history && 'unappliedMigrationNames' in history ? history.unappliedMigrationNames : [];
    const unknown = history && 'unpersistedMigrationNames' in history ? history.unpersistedMigrationNames : [];
    return {
      applied: folders.map((folder) => folder.name).filter((name) => !pending.includes(name)),
      pending,
      unknown,
      edited: diagnosis.editedMigrationNames,
      failed: diagnosis.failedMigrationNames,
    };
  } finally {
    await closeEngine(open);
  }
}
