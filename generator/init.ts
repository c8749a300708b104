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
 * A new application is also a project of its own (docs/behaviour.md §13.1): `init` writes the
 * project files the template holds beside `entities/` — `package.json` (the scripts `dev`,
 * `generate`, `check`, `migrate`, `test`, `build`, `start`; this package and its peers as
 * dependencies; vitest and TypeScript for the first test), `tsconfig.json`, `.gitignore`, a short
 * `README.md` and a first test, `test/app.test.ts`, written with `resource-service/testing`. A file
 * that exists is never overwritten: an existing `package.json` gains only the scripts and
 * dependencies it lacks (and `"type": "module"`), an existing `.gitignore` only the lines it lacks.
 * In the generator's own repository (its demo) the project files are left alone.
 *
 * Nothing is touched unless every check passes.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  /**
   * The package the application depends on, to write its project files: this package's name and
   * version and the ranges of its peer dependencies. Omitted: `entities/` only.
   */
  readonly dependency?: { readonly name: string; readonly version: string; readonly peers: Readonly<Record<string, string>> };
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
  /** Project files written whole (`package.json`, `tsconfig.json`, …). */
  readonly projectFiles: readonly string[];
  /** What an existing `package.json` or `.gitignore` gained, one line each. */
  readonly updated: readonly string[];
}

/** `init` would overwrite or lose something: nothing was changed. */
export class InitRefusedError extends Error {
  override readonly name = 'InitRefusedError';
}

function filesUnder(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(dir, entry.name), base)
        : [path.relative(base, path.join(dir, entry.name)).split(path.sep).join('/')],
    );
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

/** The template's project files beside `entities/`, and where each goes in the application. */
const PROJECT_FILES: readonly { readonly from: string; readonly to: string }[] = [
  { from: 'tsconfig.json', to: 'tsconfig.json' },
  // npm leaves a file named `.gitignore` out of a package: the template's has another name.
  { from: 'gitignore', to: '.gitignore' },
  { from: 'README.md', to: 'README.md' },
  { from: 'test/app.test.ts', to: 'test/app.test.ts' },
];

/** What a package.json holds that init reads or writes. */
interface PackageManifest {
  name?: string;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** A package name made of the folder's name: lowercase, with what npm refuses replaced by `-`. */
function packageNameOf(root: string): string {
  const name = path
    .basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name || 'app';
}

/** `record` with its keys sorted, as npm writes dependencies. */
function sorted(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** A planned change of the project files: what it says, and the write it makes. */
interface ProjectChange {
  readonly written?: string;
  readonly updated?: string;
  readonly apply: () => void;
}

/**
 * The changes that make `root` a project of its own (module docstring), checked and planned but not
 * made; throws {@link InitRefusedError} when an existing package.json cannot hold the application
 * (unreadable, or `"type": "commonjs"`).
 */
function planProjectFiles(root: string, templateDir: string, dependency: NonNullable<InitOptions['dependency']>): ProjectChange[] {
  const changes: ProjectChange[] = [];
  const manifestFile = path.join(root, 'package.json');
  const template = JSON.parse(
    readFileSync(path.join(templateDir, 'package.template.json'), 'utf8').replaceAll('{{name}}', packageNameOf(root)),
  ) as PackageManifest;
  const dependencies = { [dependency.name]: `^${dependency.version}`, ...dependency.peers };
  if (!existsSync(manifestFile)) {
    const manifest = { ...template, dependencies: sorted(dependencies) };
    changes.push({ written: 'package.json', apply: () => writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`) });
  } else {
    let manifest: PackageManifest;
    try {
      manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PackageManifest;
    } catch (error) {
      throw new InitRefusedError(
        `package.json cannot be read (${error instanceof Error ? error.message : String(error)}); fix it, then run init again`,
      );
    }
    if (manifest.type !== undefined && manifest.type !== 'module') {
      throw new InitRefusedError(
        `package.json says "type": ${JSON.stringify(manifest.type)}, and the generated server is ES modules: set "type": "module" (or run init in a new folder), then run init again`,
      );
    }
    const added: string[] = [];
    if (manifest.type === undefined) {
      manifest.type = 'module';
      added.push('"type": "module"');
    }
    const scripts = { ...manifest.scripts };
    const kept: string[] = [];
    for (const [name, command] of Object.entries(template.scripts ?? {})) {
      if (scripts[name] === undefined) scripts[name] = command;
      else if (scripts[name] !== command) kept.push(`${name} (resource-service's: \`${command}\`)`);
    }
    const newScripts = Object.keys(scripts).filter((name) => manifest.scripts?.[name] === undefined);
    if (newScripts.length > 0) added.push(`scripts ${newScripts.join(', ')}`);
    const declared = (name: string): boolean =>
      manifest.dependencies?.[name] !== undefined || manifest.devDependencies?.[name] !== undefined;
    const newDependencies = Object.entries(dependencies).filter(([name]) => !declared(name));
    const newDevDependencies = Object.entries(template.devDependencies ?? {}).filter(([name]) => !declared(name));
    if (newDependencies.length > 0) added.push(`dependencies ${newDependencies.map(([name]) => name).join(', ')}`);
    if (newDevDependencies.length > 0) added.push(`devDependencies ${newDevDependencies.map(([name]) => name).join(', ')}`);
    const next: PackageManifest = {
      ...manifest,
      scripts,
      dependencies: sorted({ ...manifest.dependencies, ...Object.fromEntries(newDependencies) }),
      devDependencies: sorted({ ...manifest.devDependencies, ...Object.fromEntries(newDevDependencies) }),
    };
    const note = [
      added.length > 0 ? `package.json: added ${added.join('; ')}` : undefined,
      kept.length > 0 ? `package.json: kept your scripts ${kept.join(', ')}` : undefined,
    ].filter((line) => line !== undefined);
    if (added.length > 0)
      changes.push({ updated: note.join('; '), apply: () => writeFileSync(manifestFile, `${JSON.stringify(next, null, 2)}\n`) });
    else if (note.length > 0) changes.push({ updated: note.join('; '), apply: () => undefined });
  }
  for (const { from, to } of PROJECT_FILES) {
    const target = path.join(root, to);
    const text = readFileSync(path.join(templateDir, from), 'utf8').replaceAll('{{name}}', packageNameOf(root));
    if (!existsSync(target)) {
      changes.push({
        written: to,
        apply: () => {
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, text);
        },
      });
    } else if (to === '.gitignore') {
      const present = new Set(
        readFileSync(target, 'utf8')
          .split('\n')
          .map((line) => line.trim()),
      );
      const missing = text.split('\n').filter((line) => line.trim() !== '' && !present.has(line.trim()));
      if (missing.length > 0) {
        changes.push({
          updated: `.gitignore: added ${missing.join(', ')}`,
          apply: () => {
            const before = readFileSync(target, 'utf8');
            writeFileSync(target, `${before}${before.endsWith('\n') || before === '' ? '' : '\n'}${missing.join('\n')}\n`);
          },
        });
      }
    }
  }
  return changes;
}

/** Whether the project at `root` is the generator's own repository (its demo), whose project files are the package's. */
function isGeneratorRepository(root: string, packageName: string): boolean {
  const manifestFile = path.join(root, 'package.json');
  if (!existsSync(manifestFile)) return false;
  try {
    return (JSON.parse(readFileSync(manifestFile, 'utf8')) as PackageManifest).name === packageName;
  } catch {
    return false;
  }
}

/**
 * With `reset`, removes the previous application's `generated/` and SQLite database; then writes
 * the template application into `entities/` when it is absent or empty. Throws
 * {@link InitRefusedError}, having changed nothing, when `entities/` has files and `reset` is
 * false, when `generated/` lacks the generator's marker, or when there is previous state to
 * remove and `reset` is false. With `dependency`, also writes the project files (module docstring),
 * unless `layout.root` is the generator's own repository.
 */
export function initApplication(options: InitOptions): InitResult {
  const { layout, templateDir, reset, database, dependency } = options;
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
    const marker = existsSync(path.join(layout.generatedDir, MARKER_FILE))
      ? readFileSync(path.join(layout.generatedDir, MARKER_FILE), 'utf8')
      : '';
    if (!marker.startsWith(MARKER_LINE)) {
      throw new InitRefusedError(
        `${generatedName}/ is not empty and lacks the generator's marker (${MARKER_FILE}); it is not the generator's to remove: move it away, then run init again`,
      );
    }
    stale.push({
      path: `${generatedName}/`,
      what: `the previous application's output, ${describeGenerated(layout.generatedDir)}`,
      remove: () => rmSync(layout.generatedDir, { recursive: true, force: true }),
    });
  }
  const [file, ...companions] = database.files ?? [];
  if (file) {
    stale.push({
      path: relative(file),
      what: "the previous application's development database, its tables and applied migrations",
      remove: () => [file, ...companions].forEach((each) => rmSync(each, { force: true })),
    });
  }
  if (stale.length > 0 && !reset) {
    throw new InitRefusedError(
      `a new application starts without the previous one's state, and this project still has:\n${stale.map((entry) => `  ${entry.path}: ${entry.what}`).join('\n')}\n` +
        'pass --reset to remove them (generated/ is rewritten by `generate`, with a first migration of the new application), or remove them yourself',
    );
  }

  const project =
    dependency === undefined || isGeneratorRepository(layout.root, dependency.name)
      ? []
      : planProjectFiles(layout.root, templateDir, dependency);
  const projectFiles = project.flatMap((change) => (change.written === undefined ? [] : [change.written]));
  const updated = project.flatMap((change) => (change.updated === undefined ? [] : [change.updated]));

  const notes: string[] = [];
  if (database.files === undefined && reset) {
    notes.push(
      `APP_DATABASE__URL names a ${database.title} database; init never drops one: if it holds the previous application's tables and migrations, drop and recreate it (or point APP_DATABASE__URL at a new one) before \`migrate deploy\``,
    );
  }
  for (const entry of stale) entry.remove();
  for (const change of project) change.apply();
  const removed = stale.map((entry) => `${entry.path}: ${entry.what}`);
  if (existing.length > 0)
    return { written: [], kept: existing.map((file) => `${entitiesName}/${file}`), removed, notes, projectFiles, updated };
  const templateEntities = path.join(templateDir, 'entities');
  cpSync(templateEntities, layout.entitiesDir, { recursive: true });
  return {
    written: filesUnder(templateEntities).map((file) => `${entitiesName}/${file}`),
    kept: [],
    removed,
    notes,
    projectFiles,
    updated,
  };
}
