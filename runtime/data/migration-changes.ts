/**
 * Whether a migration the database records as failed — started, never finished — left its changes
 * in the database, found by looking at the database rather than guessed from the record
 * (docs/decisions.md §11): the migrations applied before it are replayed on a scratch database (the
 * adapter's shadow database: in memory for SQLite, a temporary database for PostgreSQL), its schema
 * described before and after the migration's script, and what the script adds and removes looked
 * for in the database's own schema. So `migrate status`, `migrate deploy` and `migrate resolve` name
 * `resolve --applied` only when its changes are there and `--rolled-back` only when they are not.
 */
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { DialectMigrations } from '../dialects/dialect.js';
import { dialectOfAdapter, ENDED_ITS_TRANSACTION, MigrationScriptError, OUTCOME_UNKNOWN } from '../dialects/index.js';

/**
 * What of a migration's changes the database holds: `present`, everything it adds is there and
 * nothing it removes; `absent`, the reverse; `partial`, some of each (`done` and `missing` name the
 * objects); `unseen`, its script changes nothing a schema shows (it changes rows only);
 * `unchecked`, the comparison could not run (`why`).
 */
export type FoundChanges =
  | { readonly kind: 'present' | 'absent' | 'unseen' }
  | { readonly kind: 'partial'; readonly done: readonly string[]; readonly missing: readonly string[] }
  | { readonly kind: 'unchecked'; readonly why: string };

/** A migration by name and script, as read from its folder. */
interface Script {
  readonly name: string;
  readonly script: string;
}

/** The object a line of `describeSchema` is about (`table Post`, `column Post.title`): the text before its first `: `. */
function objectOf(line: string): string {
  const end = line.indexOf(': ');
  return end === -1 ? line : line.slice(0, end);
}

/** The distinct objects of `lines`, in order, those in `altered` (changed, not made or dropped) said so. */
function objectsOf(lines: readonly string[], altered: ReadonlySet<string>): string[] {
  return [...new Set(lines.map(objectOf))].sort().map((object) => (altered.has(object) ? `${object} (as it alters it)` : object));
}

/**
 * Compares the database behind `adapter` with `migration`'s script replayed on a scratch database
 * after `applied` (the migrations the database records as finished, in folder order): what the
 * script adds and removes there is looked for in the database. Never rejects: a comparison that
 * cannot run (the scratch database cannot be made, a replayed script fails there) is `unchecked`.
 */
export async function findChanges(
  adapter: SqlMigrationAwareDriverAdapterFactory,
  applied: readonly Script[],
  migration: Script,
): Promise<FoundChanges> {
  const { migrations } = dialectOfAdapter(adapter);
  let live: Set<string>;
  let before: Set<string>;
  let after: Set<string>;
  try {
    const connection = await adapter.connect();
    try {
      live = new Set(await migrations.describeSchema(connection));
    } finally {
      await connection.dispose();
    }
    let shadow: SqlDriverAdapter;
    try {
      shadow = await adapter.connectToShadowDb();
    } catch (error) {
      return { kind: 'unchecked', why: `a scratch database to replay the migrations on could not be made: ${messageOf(error)}` };
    }
    try {
      for (const earlier of applied) await replay(migrations, shadow, earlier);
      before = new Set(await migrations.describeSchema(shadow));
      await replay(migrations, shadow, migration);
      after = new Set(await migrations.describeSchema(shadow));
    } finally {
      await shadow.dispose().catch(() => undefined);
    }
  } catch (error) {
    return { kind: 'unchecked', why: messageOf(error) };
  }
  const added = [...after].filter((line) => !before.has(line));
  const removed = [...before].filter((line) => !after.has(line));
  if (added.length === 0 && removed.length === 0) return { kind: 'unseen' };
  const done = [...added.filter((line) => live.has(line)), ...removed.filter((line) => !live.has(line))];
  const missing = [...added.filter((line) => !live.has(line)), ...removed.filter((line) => live.has(line))];
  if (missing.length === 0) return { kind: 'present' };
  if (done.length === 0) return { kind: 'absent' };
  const removedObjects = new Set(removed.map(objectOf));
  const altered = new Set(added.map(objectOf).filter((object) => removedObjects.has(object)));
  return { kind: 'partial', done: objectsOf(done, altered), missing: objectsOf(missing, altered) };
}

/** Runs `migration`'s script on the scratch database; rejects naming it when it fails there. */
async function replay(migrations: DialectMigrations, shadow: SqlDriverAdapter, migration: Script): Promise<void> {
  try {
    await migrations.applyScript(shadow, migration.script);
  } catch (error) {
    // Its own COMMIT would end the replay's transaction too, and the rollback then undo only the rest.
    if (error instanceof MigrationScriptError && error.outcome === 'part-committed')
      throw new Error(`${migration.name} ends its transaction itself, so replaying it cannot tell what it changes`, { cause: error });
    throw new Error(`replaying ${migration.name} on a scratch database failed: ${messageOf(error)}`, { cause: error });
  }
}

function messageOf(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return first.trim();
}

/**
 * The `migrate resolve` mark that makes the record of a failed migration say what the database
 * holds: `applied` when its changes are there, `rolled-back` when they are not — found by
 * {@link findChanges}, or, when its changes leave no trace in the schema or could not be compared,
 * by its recorded `reason` when that vouches for a rollback (a reason written after the transaction
 * was checked rolled back). Undefined when neither mark is true (part of it is there) or it cannot
 * be told (no reason was recorded and the schema does not say).
 */
export function resolutionFor(reason: string | undefined, changes: FoundChanges): 'applied' | 'rolled-back' | undefined {
  if (changes.kind === 'present') return 'applied';
  if (changes.kind === 'absent') return 'rolled-back';
  if (changes.kind === 'partial') return undefined;
  return reason !== undefined && !reason.includes(ENDED_ITS_TRANSACTION) && !reason.includes(OUTCOME_UNKNOWN) ? 'rolled-back' : undefined;
}

/**
 * `changes` in the words `migrate status`, `migrate deploy` and `migrate resolve` print, as one
 * clause (`its changes are in the database (…)`).
 */
export function describeChanges(changes: FoundChanges): string {
  switch (changes.kind) {
    case 'present':
      return 'its changes are in the database (checked: everything it creates or alters is there)';
    case 'absent':
      return 'its changes are not in the database (checked: nothing it creates or alters is there)';
    case 'partial':
      return `only part of its changes is in the database (checked: there, ${changes.done.join(', ')}; missing, ${changes.missing.join(', ')})`;
    case 'unseen':
      return 'whether its changes are in the database cannot be seen in its schema (it changes rows only)';
    case 'unchecked':
      return `whether its changes are in the database could not be checked (${changes.why})`;
  }
}
