/**
 * Before `generate` writes a migration: its steps that lose data or cannot run, measured against
 * the development database, as diagnostics naming the entity, the column and the fix
 * (docs/decisions.md §11). A step that loses data needs `--accept-data-loss`, wherever it runs; a
 * step that cannot run on rows the development database holds (or whose rows could not be
 * counted) needs it too; one that only might fail elsewhere is a warning.
 */
import path from 'node:path';
import type { Diagnostic } from './diagnostics/diagnostic.js';
import type { SourceSpan } from './model/types.js';
import type { PlannedMigration } from './emit/prisma/migrations.js';
import { describeStep, isUnexecutable, type RiskyStep, stepFix } from './emit/prisma/migration-risks.js';
import { type DatabaseName, migrationsPath } from './paths.js';
import type { StageRuleId } from './validate/rule.js';

/** What {@link reviewMigrations} needs. */
export interface MigrationReview {
  /** The migrations about to be written, per database. */
  readonly migrations: Readonly<Partial<Record<DatabaseName, PlannedMigration>>>;
  /** `generated/` (absolute): the committed schemas and migrations the development database is compared with. */
  readonly generatedDir: string;
  /** The development database's URL (`APP_DATABASE__URL`); undefined when configuration could not be read. */
  readonly developmentUrl: string | undefined;
  /** `--accept-data-loss`: every finding is a warning. */
  readonly acceptDataLoss: boolean;
  /** Where a table (entity) or one of its columns is declared; undefined when it no longer is. */
  readonly locate: (table: string, column?: string) => SourceSpan | undefined;
}

/**
 * Why a step was not counted: the development database is of another database (nothing to say), or
 * it could not be read — `closed` when that must refuse rather than warn ({@link countSteps}).
 */
type Uncounted = { readonly kind: 'otherDatabase' } | { readonly kind: 'unreadable'; readonly reason: string; readonly closed: boolean };

/** What the development database said of the steps of its database's migration. */
type Counts =
  | { readonly counted: true; readonly values: ReadonlyMap<RiskyStep, number> }
  | { readonly counted: false; readonly reason: string; readonly closed: boolean };

/**
 * Counts what each step of `steps` puts at stake in the database at `url` (`database`'s), which
 * must be up to date with the committed migrations. `closed` says whether the lack of counts must
 * refuse (the database exists but could not answer) rather than warn (there is none yet).
 */
async function countSteps(url: string, database: DatabaseName, generatedDir: string, steps: readonly RiskyStep[]): Promise<Counts> {
  const { dialectFor } = await import('../runtime/dialects/index.js');
  const dialect = dialectFor(url);
  if (dialect.databaseFiles && dialect.databaseFiles(url).length === 0)
    return { counted: false, reason: 'there is no development database yet', closed: false };
  const { createAdapterFactory } = await import('../runtime/data/database.js');
  const { readMigrationFolders, recordedMigrations } = await import('../runtime/data/migrations.js');
  try {
    const adapter = await createAdapterFactory(url);
    // Read plainly, not through the schema engine: a server may have the SQLite file open.
    const recorded = await recordedMigrations(adapter);
    const pending = readMigrationFolders(path.join(generatedDir, migrationsPath(database))).filter(
      (folder) => !recorded.finished.includes(folder.name),
    );
    if (pending.length > 0 || recorded.failed.length > 0) {
      return {
        counted: false,
        reason: `the development database is not up to date (${pending.length} pending, ${recorded.failed.length} failed migration(s)); run \`npm run migrate -- deploy\` and generate again`,
        closed: true,
      };
    }
    const connection = await adapter.connect();
    try {
      const values = new Map<RiskyStep, number>();
      for (const step of steps) {
        const result = await connection.queryRaw({ sql: step.countQuery, args: [], argTypes: [] });
        values.set(step, Number(result.rows[0]?.[0] ?? 0));
      }
      return { counted: true, values };
    } finally {
      await connection.dispose();
    }
  } catch (error) {
    return {
      counted: false,
      reason: `the development database could not be read (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
      closed: true,
    };
  }
}

/** The key of a step, the same for both databases' migrations of one change. */
function stepKey(step: RiskyStep): string {
  return [step.kind, step.table, step.columns.join(','), step.detail ?? ''].join('|');
}

/**
 * The diagnostics of the migrations about to be written (module docstring), one per step of the
 * change whatever the number of databases, counted on the development database when it is of one
 * of them. Never throws: a database that cannot be read makes the diagnostic say so.
 */
export async function reviewMigrations(review: MigrationReview): Promise<Diagnostic[]> {
  const entries = Object.entries(review.migrations) as [DatabaseName, PlannedMigration][];
  if (!entries.some(([, migration]) => migration.risks.length > 0)) return [];
  let developmentDatabase: DatabaseName | undefined;
  if (review.developmentUrl !== undefined) {
    const { dialectFor } = await import('../runtime/dialects/index.js');
    try {
      developmentDatabase = dialectFor(review.developmentUrl).name;
    } catch {
      developmentDatabase = undefined;
    }
  }
  const counted = new Map<
    string,
    { step: RiskyStep; database: DatabaseName; migration: string; count: number | undefined; uncounted?: Uncounted }
  >();
  for (const [database, migration] of entries) {
    if (migration.risks.length === 0) continue;
    const counts =
      database === developmentDatabase && review.developmentUrl !== undefined
        ? await countSteps(review.developmentUrl, database, review.generatedDir, migration.risks)
        : undefined;
    for (const step of migration.risks) {
      const key = stepKey(step);
      const previous = counted.get(key);
      if (counts?.counted === true) counted.set(key, { step, database, migration: migration.name, count: counts.values.get(step) });
      else if (counts !== undefined)
        counted.set(key, {
          step,
          database,
          migration: migration.name,
          count: undefined,
          uncounted: { kind: 'unreadable', reason: counts.reason, closed: counts.closed },
        });
      else if (!previous)
        counted.set(key, { step, database, migration: migration.name, count: undefined, uncounted: { kind: 'otherDatabase' } });
    }
  }
  const diagnostics: Diagnostic[] = [];
  for (const { step, database, migration, count, uncounted } of counted.values()) {
    const unexecutable = isUnexecutable(step);
    const refuses = !unexecutable || (count !== undefined && count > 0) || (uncounted?.kind === 'unreadable' && uncounted.closed);
    const span = review.locate(step.table, step.columns[0]) ??
      review.locate(step.table) ?? {
        file: path.join(path.basename(review.generatedDir), migrationsPath(database), migration, 'migration.sql'),
        line: 1,
        column: 1,
      };
    // Another database's rows say nothing of this one's: no reason to give.
    const notCounted = uncounted?.kind === 'unreadable' ? ` (Not counted: ${uncounted.reason}.)` : '';
    const accept = refuses && !review.acceptDataLoss ? (unexecutable ? ' Writing it anyway needs --accept-data-loss.' : '') : '';
    diagnostics.push({
      ruleId: (unexecutable ? 'migration-unexecutable' : 'migration-data-loss') satisfies StageRuleId,
      severity: refuses && !review.acceptDataLoss ? 'error' : 'warning',
      message: `the new migration ${migration}: ${describeStep(step, count)}${notCounted}${accept} Fix: ${stepFix(step)}.`,
      span,
    });
  }
  return diagnostics;
}
