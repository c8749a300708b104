/**
 * Hygiene, with tools (docs/architecture.md §6 "Hygiene is checked"), as part of `npm test` so that CI counts a finding as a failed
 * test: the code we write and the code we generate type-check (tsconfig.json, strict; `npm run typecheck`)
 * and pass typescript-eslint's strict, type-aware rules over that same program (eslint.config.js;
 * `npm run lint` runs the same check by hand), the code is formatted as
 * Prettier writes it (`npm run format`), knip finds no dead file,
 * export or dependency (knip.config.ts), neither `runtime/` nor `generator/` nor the demo's
 * `entities/` and `generated/` taken together has an import cycle, type-only imports included,
 * every doc comment documents the declaration after it, and nothing outside runtime/dialects/
 * branches on which database it runs on (docs/architecture.md §3).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../runtime/dialects/index.js';
import {
  APPLICATION_CYCLES,
  databaseNameBranches,
  importCycles,
  knipFindings,
  orphanedDocComments,
  typeCheckAndLint,
  unformattedFiles,
} from '../support/hygiene.js';
import { ROOT } from '../support/project.js';
import type { StaticFindings } from '../support/static-checks.js';

/** What names a database in code, lower case: each dialect's name, title, Prisma providers, adapter, URL schemes and driver code prefix. */
const DATABASE_TOKENS = [
  ...new Set(
    DIALECTS.flatMap((dialect) => [
      dialect.name,
      dialect.title,
      dialect.adapterProvider,
      dialect.prisma.datasource.provider,
      dialect.adapterName,
      ...dialect.schemes,
      ...(dialect.errors.codePrefix === undefined ? [] : [dialect.errors.codePrefix]),
    ]).map((token) => token.toLowerCase()),
  ),
];

/** Object keys that make a table by database: each dialect's name and Prisma providers. */
const DATABASE_KEYS = [
  ...new Set(DIALECTS.flatMap((dialect) => [dialect.name, dialect.adapterProvider, dialect.prisma.datasource.provider])),
];

/** The tracked TypeScript files under `dirs`, relative to the repository. */
function trackedSources(dirs: readonly string[]): string[] {
  return execFileSync('git', ['ls-files', ...dirs.map((dir) => `${dir}/*.ts`)], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '');
}

describe('hygiene', () => {
  // One program serves the type check and the type-aware lint (`npm run typecheck` and `npm run lint` by hand).
  let checked: Promise<StaticFindings> | undefined;
  const staticFindings = (): Promise<StaticFindings> => (checked ??= typeCheckAndLint(ROOT, 'tsconfig.json', ['.']));

  it('type-checks: generator, runtime, entities, generated code, tests, benchmarks and soak runs (tsc --noEmit -p ., strict)', async () => {
    expect((await staticFindings()).typeErrors).toEqual([]);
  }, 300_000);

  it('lints clean: generator, runtime, entities, generated code, tests, benchmarks and soak runs', async () => {
    const { lint, linted } = await staticFindings();
    expect(lint).toEqual([]);
    // Files of the program and files outside it (configuration, untyped peers) alike.
    expect(linted).toEqual(
      expect.arrayContaining(['runtime/server/main.ts', 'generated/app.ts', 'test/project/hygiene.test.ts', 'vitest.config.ts']),
    );
  }, 300_000);

  it('is formatted as Prettier writes it (npm run format; generated code and fixtures excepted, .prettierignore)', () => {
    expect(unformattedFiles(ROOT)).toEqual([]);
  }, 300_000);

  it('has no unused file, export, type or dependency', () => {
    expect(knipFindings(ROOT)).toEqual([]);
  }, 300_000);

  it.each(['runtime', 'generator'])(
    'has no import cycle in %s/, type-only imports included',
    async (dir) => {
      expect(await importCycles(ROOT, [dir])).toEqual([]);
    },
    120_000,
  );

  it('has no import cycle across entities/ and generated/ taken together, type-only imports included (entity declarations aside)', async () => {
    expect(await importCycles(ROOT, ['entities', 'generated'], APPLICATION_CYCLES)).toEqual([]);
  }, 120_000);

  it('attaches every doc comment to a declaration', () => {
    const tracked = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const ours = tracked.filter((file) => file !== '' && !/^(test\/(errors|golden)|generated\/prisma)\//.test(file));
    expect(ours.length).toBeGreaterThan(100);
    expect(orphanedDocComments(ROOT, ours)).toEqual([]);
  });

  it('branches on no database name outside runtime/dialects/ (runtime/ and generator/)', () => {
    const files = trackedSources(['runtime', 'generator']).filter((file) => !file.startsWith('runtime/dialects/'));
    expect(files.length).toBeGreaterThan(100);
    expect(
      databaseNameBranches(
        files.map((file) => ({ path: file, text: readFileSync(path.join(ROOT, file), 'utf8') })),
        DATABASE_TOKENS,
        DATABASE_KEYS,
      ),
    ).toEqual([]);
  });

  it('finds a database-name branch planted outside runtime/dialects/, and nothing in comments and messages', () => {
    const planted = [
      "import { SQLITE } from '../dialects/sqlite.js';",
      "if (dialect.name === 'postgresql') run();",
      "const [first] = adapter.provider === 'postgres' ? ['$1'] : ['?'];",
      "if (url.startsWith('postgres://')) run();",
      "switch (name) { case 'sqlite': break; }",
      'if (/`SocketTimeout`|SQLITE_BUSY/.test(message)) run();',
      'const LOCKED = /database is locked|SQLITE_BUSY/;',
      "const folder = { sqlite: 'a', postgresql: 'b' }[name];",
      "if (['file:', 'libsql:'].includes(scheme)) run();",
      "const dialect = await import('../dialects/postgresql.js');",
      "const folder = migrationsPath(entries[0]?.[0] ?? 'sqlite');",
      '// a comment naming SQLite and postgres:// is no branch',
      "logger.warn('the in-process queue (SQLite) is not durable');",
      'const url = `file:${path}`;',
    ].join('\n');
    expect(
      databaseNameBranches([{ path: 'runtime/data/planted.ts', text: planted }], DATABASE_TOKENS, DATABASE_KEYS).map(
        (finding) => finding.split(' ')[0],
      ),
    ).toEqual([
      'runtime/data/planted.ts:1',
      'runtime/data/planted.ts:2',
      'runtime/data/planted.ts:3',
      'runtime/data/planted.ts:4',
      'runtime/data/planted.ts:5',
      'runtime/data/planted.ts:6',
      'runtime/data/planted.ts:7',
      'runtime/data/planted.ts:8',
      'runtime/data/planted.ts:8',
      'runtime/data/planted.ts:9',
      'runtime/data/planted.ts:10',
      'runtime/data/planted.ts:11',
    ]);
  });
});
