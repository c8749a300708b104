/**
 * The generator, staged (docs/architecture.md §1): parse → resolve → validate → emit →
 * write. `parse/` records what the declarations say, `resolve/` decides what they mean (one
 * indexed model), every rule reads that model and every finding is collected; nothing is written
 * when any error exists. Only the last step touches `generated/`, and it refuses to write into a
 * folder that lacks the generator's marker.
 *
 * `check` mode writes nothing: it reports what `write` would change (stale files, a missing
 * migration), which is what CI runs. The Prisma clients are not committed and `check` ignores them;
 * `write` regenerates each one that is missing or stale ({@link ensurePrismaClients}).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, findBreakingChanges, findDangerousChanges } from 'graphql';
import { CHECKSUMS_FILE, readMigrationFolders, renderMigrationChecksums } from '../runtime/data/migrations.js';
import { migrationDrift } from './migration-drift.js';
import { reviewMigrations } from './migration-review.js';
import type { SourceSpan } from './model/types.js';
import { compareDiagnostics, countWarningsAsErrors, type Diagnostic } from './diagnostics/diagnostic.js';
import { diskCache, generatorCacheDir } from './cache.js';
import { emitClients } from './emit/client/index.js';
import { clientDocuments } from './emit/client/graphql.js';
import { checkListedDocuments, DOCUMENT_RULE, emitDocumentManifest, readListedDocuments } from './documents.js';
import { emitFiles, MARKER_FILE, MARKER_LINE } from './emit/index.js';
import { dialectNamed } from '../runtime/dialects/index.js';
import { type DatabaseName, DOCUMENTS_PATH, migrationsPath, SDL_PATH, schemaPath, SUPPORTED_DATABASES } from './paths.js';
import { ensurePrismaClients, stalePrismaClients } from './emit/prisma/client.js';
import { migrationLock, type PlannedMigration, planMigration } from './emit/prisma/migrations.js';
import type { GeneratedFile } from './emit/writer.js';
import { parseDeclarations } from './parse/declarations.js';
import { type DeclarationProjectCache, listTypeScriptFiles, type ProjectLayout } from './parse/project.js';
import { checkDeclarationTypes } from './typecheck.js';
import { resolveApp } from './resolve/index.js';
import { validate } from './validate/index.js';
import { readProjectInfo } from './project-info.js';
import { releasedSchema } from './retired-fields.js';

/** A change of the GraphQL schema against the committed SDL (graphql-js `findBreakingChanges`). */
export interface SchemaChange {
  readonly type: string;
  readonly description: string;
  /**
   * When the change is to a field of an entity's type (or of its resource's inputs), which is
   * one of its columns: where the column is declared — the column a removed field was most
   * likely renamed to (the one field the type gained), else the entity.
   */
  readonly column: { readonly span: SourceSpan; readonly renamedTo: string | undefined } | undefined;
}

/** Where a table (entity) or one of its columns is declared (see {@link PlannedOutput.locate}). */
type Locate = (table: string, column?: string) => SourceSpan | undefined;

/**
 * Breaking and dangerous changes from the committed SDL `previous` to `next` (docs/behaviour.md §9.5: the
 * schema is unversioned, so fields evolve and old ones are deprecated instead of removed), each
 * located at its column when it concerns one (`locate`). What `previous` deprecated and `next` no
 * longer has is no break but a dangerous change, `DEPRECATED_FIELD_REMOVED` (`_ARG_`, `_VALUE_`;
 * docs/behaviour.md §2.7): a caller still using it breaks, having been told.
 */
function compareSchemas(
  previous: string | undefined,
  next: string,
  locate: Locate,
): { breaking: SchemaChange[]; dangerous: SchemaChange[] } {
  if (previous === undefined || previous === next) return { breaking: [], dangerous: [] };
  const after = buildSchema(next);
  // What the committed schema deprecated may leave: compared without it, its removal is no break (docs/behaviour.md §2.7).
  const { schema: before, retired } = releasedSchema(previous, after);
  const fieldsOf = (schema: typeof before, type: string): string[] => {
    const named = schema.getType(type);
    return named && 'getFields' in named ? Object.keys(named.getFields()) : [];
  };
  const describe = (change: { type: string; description: string }): SchemaChange => {
    const [, type, field] = /^(\w+)\.(\w+)\b/.exec(change.description) ?? [];
    const entity = type?.replace(/^(?:Create|Update)(\w+)Input$/, '$1');
    const entitySpan = entity === undefined ? undefined : locate(entity);
    if (type === undefined || field === undefined || entity === undefined || entitySpan === undefined)
      return { ...pick(change), column: undefined };
    const gained = fieldsOf(after, type).filter((name) => !fieldsOf(before, type).includes(name));
    const renamedTo = change.type === 'FIELD_REMOVED' && gained.length === 1 ? gained[0] : undefined;
    const span = (renamedTo === undefined ? undefined : locate(entity, renamedTo)) ?? locate(entity, field) ?? entitySpan;
    return { ...pick(change), column: { span, renamedTo } };
  };
  const removed = retired.map((member): SchemaChange => ({
    type: `DEPRECATED_${member.kind}_REMOVED`,
    description: `${member.coordinate} was removed; it was deprecated: ${member.reason}`,
    column: undefined,
  }));
  return {
    breaking: findBreakingChanges(before, after).map(describe),
    dangerous: [...removed, ...findDangerousChanges(before, after).map(describe)],
  };
}

const pick = (change: { type: string; description: string }): { type: string; description: string } => ({
  type: change.type,
  description: change.description,
});

/** Options of {@link generate}. */
export interface GenerateOptions {
  readonly layout: ProjectLayout;
  /** `write` updates `generated/`; `check` only reports differences. */
  readonly mode: 'write' | 'check';
  /** Reverse the order files are read in (determinism tests). */
  readonly fileOrder?: 'sorted' | 'reversed';
  /** Regenerate the Prisma clients that are missing or stale (write mode); default true. */
  readonly prismaClient?: boolean;
  /** Write (or accept) a schema that breaks existing clients. */
  readonly allowBreaking?: boolean;
  /** The parsed project of the previous run in this process, reused (watch mode, docs/decisions.md §10). */
  readonly cache?: DeclarationProjectCache;
  /** Write a migration that loses data or cannot run on the development database's rows (docs/decisions.md §11). */
  readonly acceptDataLoss?: boolean;
  /** Record the checksums of migration folders edited (or added by hand) since `generate` wrote them. */
  readonly acceptEditedMigrations?: boolean;
  /** The development database a new migration's steps are measured against (`APP_DATABASE__URL`). */
  readonly developmentUrl?: string;
  /**
   * Run the TypeScript checker over the declarations (generator/typecheck.ts), reporting each
   * error with this severity: `error` fails the run (`--check`), `warning` only prints (`dev`, `--watch`).
   */
  readonly typeCheck?: Diagnostic['severity'];
  /**
   * Strict mode (docs/guide/development.md "Strict mode"): every warning is an error, so a run with
   * one writes nothing — except what a flag of this run accepted (`--accept-data-loss`'s
   * migrations, the documents `--allow-breaking` leaves out), which stays a warning.
   */
  readonly strict?: boolean;
}

/** What a run found and did. */
export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Output paths written (write) or stale (check), relative to `generated/`. */
  readonly changed: readonly string[];
  /** Output paths removed (write) or that would be removed (check). */
  readonly removed: readonly string[];
  /** The migrations added (write) or missing (check), per database. */
  readonly migrations: Readonly<Partial<Record<DatabaseName, PlannedMigration>>>;
  /** The databases whose Prisma client was regenerated (write; always empty in check mode). */
  readonly prismaClientsChanged: readonly DatabaseName[];
  /** Changes against the committed SDL that break clients (nothing is written while any stands, unless allowed). */
  readonly breaking: readonly SchemaChange[];
  /** Changes that may surprise clients (printed, never blocking). */
  readonly dangerous: readonly SchemaChange[];
  /** Milliseconds per stage. */
  readonly timings: Readonly<Record<string, number>>;
}

/** A problem with the output folder itself (not with declarations). */
class OutputFolderError extends Error {
  override readonly name = 'OutputFolderError';
}

/** Is `relative` (to the output folder) a file the generator manages through a tool? */
function isToolManaged(relative: string): boolean {
  return /^prisma\/[^/]+\/(client|migrations)\//.test(relative);
}

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, base));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Refuses to write into a non-empty folder that does not carry the generator's marker. */
function assertMarked(outputDir: string): void {
  if (!existsSync(outputDir) || readdirSync(outputDir).length === 0) return;
  const marker = readIfExists(path.join(outputDir, MARKER_FILE));
  if (!marker?.startsWith(MARKER_LINE)) {
    throw new OutputFolderError(
      `refusing to write into ${outputDir}: it is not empty and lacks the generator's marker (${MARKER_FILE}); move its contents away or point the generator elsewhere`,
    );
  }
}

/** Measures the stages of one run. */
class Stopwatch {
  readonly timings: Record<string, number> = {};
  private last = performance.now();

  /** Records the milliseconds since the previous lap under `stage`. */
  lap(stage: string): void {
    const now = performance.now();
    this.timings[stage] = Math.round((now - this.last) * 10) / 10;
    this.last = now;
  }
}

/** The output of a run, computed in memory (nothing written). */
export interface PlannedOutput {
  readonly diagnostics: readonly Diagnostic[];
  /** Every emitted text file (empty when a declaration is invalid; planned when only a listed GraphQL document is). */
  readonly files: readonly GeneratedFile[];
  /** The migration each database's schema change needs, if any. */
  readonly migrations: Readonly<Partial<Record<DatabaseName, PlannedMigration>>>;
  /** Where a table (entity) or one of its columns is declared; undefined when it is not. */
  readonly locate: Locate;
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * Parses, resolves, validates and emits in memory; plans the migration against the committed
 * schema. Takes the project layout (and the order to read files in, for determinism tests; the
 * previous run's parsed project, in watch mode; whether to record edited migrations; the type
 * check's severity; and strict mode, which counts every warning found as an error); returns the
 * diagnostics, and the files and migrations when there is no error. Throws
 * {@link OutputFolderError} when the committed migrations lack their schema snapshot.
 */
export async function planOutput(
  layout: ProjectLayout,
  fileOrder: 'sorted' | 'reversed' = 'sorted',
  cache?: DeclarationProjectCache,
  acceptEditedMigrations = false,
  typeCheck?: Diagnostic['severity'],
  strict = false,
): Promise<PlannedOutput> {
  const watch = new Stopwatch();
  const declared = parseDeclarations(layout, { fileOrder, ...(cache ? { cache } : {}) });
  watch.lap('parse');
  const outputName = path.relative(layout.root, layout.generatedDir).split(path.sep).join('/');
  const app = resolveApp(declared, outputName);
  watch.lap('resolve');
  const outputDir = layout.generatedDir;
  const declarationDiagnostics = [...validate(app), ...migrationDrift(outputDir, outputName, acceptEditedMigrations)];
  watch.lap('validate');
  // The declarations type the database through the Prisma clients, which are not committed: a fresh
  // clone has none, so the check writes them (ignored files) from the committed schemas first, and is
  // skipped only if that fails (docs/behaviour.md §7).
  if (typeCheck !== undefined) await ensurePrismaClients(outputDir).catch(() => []);
  const checkTypes = typeCheck !== undefined && stalePrismaClients(outputDir).length === 0;
  const typeErrors = checkTypes ? checkDeclarationTypes(layout, listTypeScriptFiles(layout.entitiesDir), typeCheck, cache) : [];
  if (checkTypes) watch.lap('typecheck');
  const found = [...declarationDiagnostics, ...typeErrors].sort(compareDiagnostics);
  const diagnostics = strict ? countWarningsAsErrors(found) : found;
  const locate = (table: string, column?: string): SourceSpan | undefined => {
    const entity = app.entityByName.get(table);
    return column === undefined ? entity?.span : entity?.columnByName.get(column)?.span;
  };
  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
    return { diagnostics, files: [], migrations: {}, locate, timings: watch.timings };
  }
  const context = { app, outputDir: outputName, project: readProjectInfo(layout.root) };
  const generatedFiles = emitFiles(context);
  // The persisted-document manifest needs the emitted SDL: the listed documents are checked against it (docs/behaviour.md §4.10).
  const sdl = generatedFiles.find((file) => file.path === SDL_PATH)?.content ?? '';
  // A listed document the schema no longer serves is an error, but the files are still planned: a
  // breaking change of the schema, which invalidates such a document, is reported first (generate).
  const listed = checkListedDocuments(sdl, readListedDocuments(layout));
  const planned = [...diagnostics, ...listed.diagnostics].sort(compareDiagnostics);
  const emittedFiles = [...generatedFiles, emitDocumentManifest([...clientDocuments(sdl), ...listed.texts])];
  watch.lap('emit');
  const files = [...emittedFiles, ...(await emitClients(context, emittedFiles, diskCache(generatorCacheDir(layout.root))))].sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  watch.lap('client');
  const emitted = new Map(files.map((file) => [file.path, file.content]));
  const migrations: Partial<Record<DatabaseName, PlannedMigration>> = {};
  for (const database of SUPPORTED_DATABASES) {
    const previous = readIfExists(path.join(outputDir, schemaPath(database)));
    const next = emitted.get(schemaPath(database)) ?? '';
    const existing = readMigrationFolders(path.join(outputDir, migrationsPath(database)));
    if (previous === undefined && existing.length > 0) {
      throw new OutputFolderError(
        `${path.posix.join(outputName, migrationsPath(database))} has migrations but ${path.posix.join(outputName, schemaPath(database))} is missing; restore it from version control (it records the schema the last migration leads to)`,
      );
    }
    const migration = previous === next ? undefined : await planMigration(previous, next, existing);
    if (migration) migrations[database] = migration;
  }
  watch.lap('migrations');
  return { diagnostics: planned, files, migrations, locate, timings: watch.timings };
}

/**
 * Runs the generator. Returns diagnostics (and writes nothing) when declarations are invalid.
 * Throws {@link OutputFolderError} when the output folder is not the generator's.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { layout, mode } = options;
  const plan = await planOutput(
    layout,
    options.fileOrder,
    options.cache,
    options.acceptEditedMigrations === true,
    options.typeCheck,
    options.strict === true,
  );
  const { files, migrations } = plan;
  let diagnostics = plan.diagnostics;
  if (files.length === 0)
    return {
      diagnostics,
      changed: [],
      removed: [],
      migrations: {},
      prismaClientsChanged: [],
      breaking: [],
      dangerous: [],
      timings: plan.timings,
    };
  const watch = new Stopwatch();
  const outputDir = layout.generatedDir;
  const emitted = new Map(files.map((file) => [file.path, file.content]));
  const changed = files.filter((file) => readIfExists(path.join(outputDir, file.path)) !== file.content).map((file) => file.path);
  const removed = listFiles(outputDir).filter((file) => !emitted.has(file) && !isToolManaged(file));
  const sdl = emitted.get(SDL_PATH) ?? '';
  const { breaking, dangerous } = compareSchemas(readIfExists(path.join(outputDir, SDL_PATH)), sdl, plan.locate);
  if (breaking.length > 0 && !options.allowBreaking) {
    // The listed documents the break invalidates are its consequence: the break is what to decide first.
    diagnostics = diagnostics.filter((diagnostic) => diagnostic.ruleId !== DOCUMENT_RULE);
    return { diagnostics, changed, removed, migrations, prismaClientsChanged: [], breaking, dangerous, timings: plan.timings };
  }
  // A break accepted is accepted for the listed documents it invalidates too: they are left out of the manifest, with a warning.
  if (breaking.length > 0)
    diagnostics = diagnostics.map((diagnostic) =>
      diagnostic.ruleId === DOCUMENT_RULE
        ? { ...diagnostic, severity: 'warning', message: `left out of ${DOCUMENTS_PATH} (--allow-breaking): ${diagnostic.message}` }
        : diagnostic,
    );

  const checksums = SUPPORTED_DATABASES.flatMap((database) => {
    const dir = path.join(outputDir, migrationsPath(database));
    const folders = readMigrationFolders(dir);
    const migration = migrations[database];
    if (folders.length === 0 && !migration) return [];
    const content = renderMigrationChecksums([...folders, ...(migration ? [{ name: migration.name, script: migration.script }] : [])]);
    return readIfExists(path.join(dir, CHECKSUMS_FILE)) === content
      ? []
      : [{ database, path: `${migrationsPath(database)}/${CHECKSUMS_FILE}`, content }];
  });
  if (mode === 'check') {
    const missingChecksums = checksums.filter((entry) => !migrations[entry.database]).map((entry) => entry.path);
    return {
      diagnostics,
      changed: [...changed, ...missingChecksums],
      removed,
      migrations,
      prismaClientsChanged: [],
      breaking,
      dangerous,
      timings: { ...plan.timings, ...watch.timings },
    };
  }

  const review = await reviewMigrations({
    migrations,
    generatedDir: outputDir,
    developmentUrl: options.developmentUrl,
    acceptDataLoss: options.acceptDataLoss === true,
    locate: plan.locate,
  });
  // --accept-data-loss is the answer to the review's findings: what it accepted stays accepted in strict mode.
  diagnostics = [...diagnostics, ...(options.strict === true && options.acceptDataLoss !== true ? countWarningsAsErrors(review) : review)];
  watch.lap('review');
  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
    return {
      diagnostics,
      changed: [],
      removed: [],
      migrations: {},
      prismaClientsChanged: [],
      breaking,
      dangerous,
      timings: { ...plan.timings, ...watch.timings },
    };
  }
  assertMarked(outputDir);
  writeFiles(
    outputDir,
    files.filter((file) => changed.includes(file.path)),
  );
  for (const file of removed) rmSync(path.join(outputDir, file));
  for (const database of SUPPORTED_DATABASES) {
    const migration = migrations[database];
    if (!migration) continue;
    writeFiles(path.join(outputDir, migrationsPath(database)), [
      { path: `${migration.name}/migration.sql`, content: migration.script },
      { path: 'migration_lock.toml', content: migrationLock(dialectNamed(database)) },
    ]);
  }
  for (const entry of checksums) writeFiles(outputDir, [{ path: entry.path, content: entry.content }]);
  watch.lap('write');
  const prismaClientsChanged = options.prismaClient === false ? [] : await ensurePrismaClients(outputDir);
  watch.lap('prisma');
  return {
    diagnostics,
    changed,
    removed,
    migrations,
    prismaClientsChanged,
    breaking,
    dangerous,
    timings: { ...plan.timings, ...watch.timings },
  };
}

function writeFiles(dir: string, files: readonly GeneratedFile[]): void {
  for (const file of files) {
    const target = path.join(dir, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}
