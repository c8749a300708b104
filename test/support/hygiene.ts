/**
 * The hygiene tools as the tests run them (docs/architecture.md §6 "Hygiene is checked"): each in its own process, as `npm run lint`
 * would, with its findings as one line each (`file:line:column rule message`) so that a failing
 * test lists them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './project.js';

/** One message of ESLint's JSON report. */
interface EslintMessage {
  readonly ruleId: string | null;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** ESLint's JSON report: one entry per linted file. */
type EslintReport = readonly { readonly filePath: string; readonly messages: readonly EslintMessage[] }[];

/**
 * Runs ESLint with the configuration of `cwd` over `targets` (paths relative to `cwd`); returns every
 * finding, errors and warnings alike. Throws when ESLint itself fails (a broken configuration).
 */
export function eslintFindings(cwd: string, targets: readonly string[]): string[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', ...targets], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  // Exit 1 means findings; anything else without a report is ESLint failing to run.
  if (result.status !== 0 && result.status !== 1) throw new Error(`eslint exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  const report = JSON.parse(result.stdout) as EslintReport;
  return report.flatMap((file) =>
    file.messages.map((message) => `${path.relative(cwd, file.filePath)}:${message.line ?? 0}:${message.column ?? 0} ${message.ruleId ?? 'parse'} ${message.message}`),
  );
}

/**
 * Runs knip (knip.config.ts) in `cwd`; returns its findings, one line each: files nothing reaches,
 * exports and types nothing imports, dependencies nothing uses, and configuration hints. Empty when
 * knip exits 0. Throws when knip itself fails (exit 2: a broken configuration).
 */
export function knipFindings(cwd: string): string[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/knip/bin/knip.js'), '--no-progress', '--reporter', 'compact', '--treat-config-hints-as-errors'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  if (result.status === 0) return [];
  if (result.status !== 1) throw new Error(`knip exited with ${result.status ?? result.signal ?? 'nothing'}: ${result.stderr}`);
  const findings = `${result.stdout}${result.stderr}`.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('npm warn'));
  // The compact reporter prints no configuration hint, though they fail the run: a failure with
  // nothing printed is still one.
  return findings.length > 0 ? findings : ['knip failed without a finding the compact reporter prints: run `npx knip --treat-config-hints-as-errors` for its configuration hints'];
}

/**
 * The import cycles among the TypeScript modules under `dir` (madge over the TypeScript compiler's
 * view of imports, `import type` included: a type-only cycle still says a declaration sits in the
 * wrong module). Each cycle is written `a.ts → b.ts → a.ts`, paths relative to `dir`.
 */
export async function importCycles(dir: string): Promise<string[]> {
  const { default: madge } = await import('madge');
  const graph = await madge(dir, {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return graph.circular().map((cycle) => [...cycle, cycle[0]].join(' → '));
}

/**
 * Doc comments that document nothing, as `file:line`: a `/** … *\/` followed by a blank line,
 * another doc comment or the end of a block, other than the module's header (the first thing in
 * the file, after any `//` lines). Takes paths relative to `root`.
 */
export function orphanedDocComments(root: string, files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*?\*\/[ \t]*\n(?=[ \t]*(?:\n|\/\*\*|\}))/g)) {
      const before = text.slice(0, match.index);
      if (/^(?:\s*\/\/[^\n]*\n)*\s*$/.test(before)) continue;
      found.push(`${file}:${before.split('\n').length}`);
    }
  }
  return found;
}
