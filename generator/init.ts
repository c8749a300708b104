/**
 * `init`: makes this project a new application (docs/decisions.md §7 "New applications").
 *
 * A project cloned with the demo holds three things of the demo's: its declarations (`entities/`),
 * its output (`generated/`, whose `schema.graphql` is the baseline `generate` refuses breaking
 * changes against and whose migrations are the history new ones extend), and a development
 * database with those migrations applied. A new application keeps none of them:
 *
 * - `entities/` is hand-written: `init` never overwrites or removes a file of it. When it is absent
 *   or empty, `init` copies the template (`templates/new-application/`): one entity with its
 *   abilities, service, resolver, controller and module, and development hooks. When it already
 *   holds declarations (the user wrote the new application in place of the demo's), they are kept,
 *   and only `reset` has anything to do.
 * - `generated/` and the SQLite database are the previous application's derived state: `init`
 *   refuses while they exist, and with `reset` removes them (Prisma's `migrate reset` drops a
 *   database the same way). `generated/` is removed only when it carries the generator's marker;
 *   a PostgreSQL database is never dropped, only named.
 *
 * Nothing is touched unless every check passes.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { MARKER_FILE, MARKER_LINE } from './emit/index.js';
import type { ProjectLayout } from './parse/project.js';
import { migrationsPath, SUPPORTED_DATABASES } from './paths.js';

/** Options of {@link initApplication}. */
export interface InitOptions {
  /** Where `entities/` and `generated/` are. */
  readonly layout: Pick<ProjectLayout, 'root' | 'entitiesDir' | 'generatedDir'>;
  /** The template project whose `entities/` is copied. */
  readonly templateDir: string;
  /** Remove the previous application's `generated/` and SQLite database instead of refusing. */
  readonly reset: boolean;
  /**
   * The development database (`APP_DATABASE__URL`): its dialect's title and, when it lives in files
   * of the project (SQLite), those files; a database on a server is never dropped.
   */
  readonly database: { readonly title: string; readonly files: readonly string[] | undefined };
}

/** What {@link initApplication} did, paths relative to the project root. */
export interface InitResult {
  /** Files written into `entities/` (none when it already held declarations). */
  readonly written: readonly string[];
  /** What was removed (with `reset`), each with what it held. */
  readonly removed: readonly string[];
  /** The declarations kept in `entities/` (it held some already), else empty. */
  readonly kept: readonly string[];
  /** Things the user must do by hand (a PostgreSQL database holding the previous application's tables). */
  readonly notes: readonly string[];
}

/** `init` would overwrite or lose something: nothing was changed. */
export class InitRefusedError extends Error {
  override readonly name = 'InitRefusedError';
}

function filesUnder(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name), base) : [path.relative(base, path.join(dir, entry.name)).split(path.sep).join('/')]));
}

/** What `generated/` holds, for a message: its migrations per database. */
function describeGenerated(generatedDir: string): string {
  const counts = SUPPORTED_DATABASES.map((database) => {
    const dir = path.join(generatedDir, migrationsPath(database));
    const migrations = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).length : 0;
    return `${migrations} ${database}`;
  });
  return `its GraphQL schema (the baseline of breaking changes) and migrations (${counts.join(', ')})`;
}

/**
 * With `reset`, removes the previous application's `generated/` and SQLite database; then writes
 * the template application into `entities/` when it is absent or empty. Throws
 * {@link InitRefusedError}, having changed nothing, when `entities/` has files and `reset` is
 * false, when `generated/` lacks the generator's marker, or when there is previous state to
 * remove and `reset` is false.
 */
export function initApplication(options: InitOptions): InitResult {
  const { layout, templateDir, reset, database } = options;
  const relative = (target: string): string => path.relative(layout.root, target).split(path.sep).join('/') || '.';
  const entitiesName = relative(layout.entitiesDir);
  const generatedName = relative(layout.generatedDir);

  // Dot files (`.gitkeep`) are no declarations: a folder holding only them is empty to a user.
  const existing = filesUnder(layout.entitiesDir).filter((file) => !path.posix.basename(file).startsWith('.'));
  if (existing.length > 0 && !reset) {
    throw new InitRefusedError(
      `${entitiesName}/ already holds declarations (${existing.length} file(s): ${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''}); init never overwrites them.\n` +
        `  to start from the template: move them away first (\`git rm -r -q ${entitiesName}\` keeps them in history), then run init again\n` +
        `  to make them a new application: pass --reset to remove only the previous application's ${generatedName}/ and database`,
    );
  }

  const stale: { path: string; what: string; remove: () => void }[] = [];
  if (filesUnder(layout.generatedDir).length > 0) {
    const marker = existsSync(path.join(layout.generatedDir, MARKER_FILE)) ? readFileSync(path.join(layout.generatedDir, MARKER_FILE), 'utf8') : '';
    if (!marker.startsWith(MARKER_LINE)) {
      throw new InitRefusedError(`${generatedName}/ is not empty and lacks the generator's marker (${MARKER_FILE}); it is not the generator's to remove: move it away, then run init again`);
    }
    stale.push({ path: `${generatedName}/`, what: `the previous application's output, ${describeGenerated(layout.generatedDir)}`, remove: () => rmSync(layout.generatedDir, { recursive: true, force: true }) });
  }
  const [file, ...companions] = database.files ?? [];
  if (file) {
    stale.push({ path: relative(file), what: "the previous application's development database, its tables and applied migrations", remove: () => [file, ...companions].forEach((each) => rmSync(each, { force: true })) });
  }
  if (stale.length > 0 && !reset) {
    throw new InitRefusedError(
      `a new application starts without the previous one's state, and this project still has:\n${stale.map((entry) => `  ${entry.path}: ${entry.what}`).join('\n')}\n` +
        'pass --reset to remove them (generated/ is rewritten by `generate`, with a first migration of the new application), or remove them yourself',
    );
  }

  const notes: string[] = [];
  if (database.files === undefined && reset) {
    notes.push(`APP_DATABASE__URL names a ${database.title} database; init never drops one: if it holds the previous application's tables and migrations, drop and recreate it (or point APP_DATABASE__URL at a new one) before \`migrate deploy\``);
  }
  for (const entry of stale) entry.remove();
  const removed = stale.map((entry) => `${entry.path}: ${entry.what}`);
  if (existing.length > 0) return { written: [], kept: existing.map((file) => `${entitiesName}/${file}`), removed, notes };
  const templateEntities = path.join(templateDir, 'entities');
  cpSync(templateEntities, layout.entitiesDir, { recursive: true });
  return { written: filesUnder(templateEntities).map((file) => `${entitiesName}/${file}`), kept: [], removed, notes };
}
