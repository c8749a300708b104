/**
 * The hygiene tools as the tests run them (issue 12 §5): each in its own process, as `npm run lint`
 * would, with its findings as one line each (`file:line:column rule message`) so that a failing
 * test lists them.
 */
import { spawnSync } from 'node:child_process';
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
