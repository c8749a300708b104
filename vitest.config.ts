import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { chromiumInstalled, missingChromiumLine } from './test/support/browser.js';
import { postgresBinaries } from './test/support/postgres.js';

const require = createRequire(import.meta.url);

/** Suites that talk to a database: they run once per provider. */
const BEHAVIOUR = [
  'test/access.test.ts',
  'test/authorization.test.ts',
  'test/crash.test.ts',
  'test/dev-loop.test.ts',
  'test/pagination-property.test.ts',
  'test/graphql.test.ts',
  'test/graphql-transport.test.ts',
  'test/loaders.test.ts',
  'test/openapi.test.ts',
  'test/pagination.test.ts',
  'test/relations.test.ts',
  'test/repository.test.ts',
  'test/repository-insert.test.ts',
  'test/resource-service.test.ts', 'test/resources.test.ts',
  'test/storage.test.ts',
  'test/migration-safety.test.ts',
  'test/subscriptions.test.ts',
  'test/versioning.test.ts',
  'test/postgres.test.ts',
  'test/shutdown.test.ts',
  'test/socket-faults.test.ts',
  'test/socket-fuzz.test.ts',
  'test/query-limits.test.ts',
  'test/request-scope.test.ts',
  'test/masking.test.ts',
  'test/mcp.test.ts',
  'test/mcp-fuzz.test.ts',
  'test/jobs.test.ts',
  'test/jobs-cluster.test.ts',
  'test/observability.test.ts',
  'test/observability-cluster.test.ts',
  'test/direct-routes.test.ts',
];

const postgres = Boolean(process.env.TEST_POSTGRES_URL) || postgresBinaries() !== undefined;

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
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/postgres.test.ts', 'test/jobs-cluster.test.ts', 'test/observability-cluster.test.ts'], env: { TEST_DATABASE: 'sqlite' } } },
      ...(postgres ? [{ extends: true, test: { name: 'postgresql', include: BEHAVIOUR, env: { TEST_DATABASE: 'postgresql' } } }] : []),
    ],
  },
});
