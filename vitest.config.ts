import { createRequire } from 'node:module';
import os from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { chromiumInstalled, missingChromiumLine } from './test/support/browser.js';
import { postgresBinaries } from './test/support/postgres.js';

const require = createRequire(import.meta.url);
const ROOT_DIR = path.dirname(fileURLToPath(import.meta.url));

/**
 * The databases a suite runs on, from its first line: `// Runs on: sqlite, postgresql` for the behaviour
 * suites (run once per database), `// Runs on: postgresql` for what only PostgreSQL offers; SQLite
 * alone when the line is absent. Read from the file itself so a suite's reader sees it, and a new
 * suite needs no list here.
 */
function suitesRunningOn(database: 'sqlite' | 'postgresql'): string[] {
  const suites = readdirSync(path.join(ROOT_DIR, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/${name}`);
  return suites
    .filter((suite) => {
      const declared = /^\/\/ Runs on: (.+)$/m.exec(readFileSync(path.join(ROOT_DIR, suite), 'utf8').split('\n', 1)[0] ?? '')?.[1];
      return (declared ?? 'sqlite')
        .split(',')
        .map((name) => name.trim())
        .includes(database);
    })
    .sort();
}

const postgres = Boolean(process.env.TEST_POSTGRES_URL) || postgresBinaries() !== undefined;

/**
 * The condition under which the package's `exports` name its TypeScript sources (.npmrc sets it for
 * everything npm runs): in the test workers' own imports, and in every process a test starts, also
 * when vitest was started without npm.
 */
const SOURCE_CONDITION = 'resource-service-source';
if (!(process.env.NODE_OPTIONS ?? '').includes(`--conditions=${SOURCE_CONDITION}`)) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --conditions=${SOURCE_CONDITION}`.trim();
}

/**
 * The package's entries (`resource-service`, `resource-service/transports/*`, …) as the test
 * workers resolve them: aliases to the files package.json's `exports` names under
 * {@link SOURCE_CONDITION}. (Vite's own resolution honours the condition too, but changing its
 * conditions also changes how it picks other packages' builds.)
 */
function sourceAliases(): { find: RegExp; replacement: string }[] {
  const { name, exports } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as {
    name: string;
    exports: Record<string, string | Record<string, string>>;
  };
  return Object.entries(exports).flatMap(([subpath, target]) => {
    const source = typeof target === 'string' ? undefined : target[SOURCE_CONDITION];
    if (source === undefined) return [];
    const specifier = `${name}${subpath.slice(1)}`.replace(/[.*+?^${}()|[\]\\/]/g, (character) =>
      character === '*' ? '*' : `\\${character}`,
    );
    return [
      {
        find: new RegExp(`^${specifier.replace('*', '([^/]+)')}$`),
        replacement: new URL(source.replace('*', '$1'), import.meta.url).pathname,
      },
    ];
  });
}

/** Prints `line` once per run: vitest evaluates this file for the root and again for each project. */
function noteOnce(line: string): void {
  const printed = ((globalThis as { resourceServiceNotes?: Set<string> }).resourceServiceNotes ??= new Set());
  if (printed.has(line)) return;
  printed.add(line);
  process.stderr.write(`${line}\n`);
}

// What a machine without PostgreSQL or Chromium leaves out, each in one line with its install command.
if (!postgres) noteOnce('PostgreSQL is not installed: the behaviour suites run on SQLite only (apt-get install postgresql to run both)');
if (!chromiumInstalled()) noteOnce(missingChromiumLine());

export default defineConfig({
  resolve: {
    // Node resolves `graphql` (no "exports" field) to its CommonJS entry, and so do the libraries
    // loaded natively (graphql-http, @graphql-tools); Vite would pick the ESM entry for our own
    // files and end up with two graphql instances in one process. Resolve it the way Node does.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }, ...sourceAliases()],
  },
  test: {
    pool: 'forks',
    // Vitest's default, one worker per core but one, leaves a 2-core machine running one file at a
    // time, while most suites spend their time waiting on the servers, databases and commands they
    // start: two files at a time there, the default on bigger machines.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // A worker runs file after file in one process instead of a new one per file: the suites mock
    // nothing and set no variable, and every server or database they start is their own, so they
    // share only modules, which then load once per worker instead of once per file.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: suitesRunningOn('sqlite'), env: { TEST_DATABASE: 'sqlite' } } },
      ...(postgres
        ? [{ extends: true, test: { name: 'postgresql', include: suitesRunningOn('postgresql'), env: { TEST_DATABASE: 'postgresql' } } }]
        : []),
    ],
  },
});
