/**
 * Every build-time rule fires on its fixture with the exact diagnostics (rule id, file:line:col,
 * message naming the fix), and stays silent on a valid counter-example (docs/architecture.md §6).
 * Fixtures: `test/errors/<rule-id>/{invalid,valid}/app.ts` with `expected.txt`;
 * `UPDATE_GOLDEN=1` rewrites the expectations.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDiagnostics } from '../../generator/diagnostics/diagnostic.js';
import { formatHeadline } from '../../generator/diagnostics/format.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { listTypeScriptFiles } from '../../generator/parse/project.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { checkDeclarationTypes, TYPE_ERROR_RULE } from '../../generator/typecheck.js';
import { RULES, validate } from '../../generator/validate/index.js';
import { ROOT } from '../support/project.js';

const FIXTURES = path.join(ROOT, 'test/errors');
const update = process.env.UPDATE_GOLDEN === '1';

/** The diagnostics of a fixture; `type-error` fixtures also go through the TypeScript checker (generator/typecheck.ts), which `generate --check` runs. */
function diagnose(caseDir: string, rule: string): string[] {
  const layout = { root: caseDir, entitiesDir: caseDir, runtimeDir: path.join(ROOT, 'runtime'), generatedDir: path.join(caseDir, 'generated') };
  const declared = parseDeclarations(layout);
  const typeErrors = rule === TYPE_ERROR_RULE ? checkDeclarationTypes(layout, listTypeScriptFiles(caseDir), 'error') : [];
  return [...validate(resolveApp(declared)), ...typeErrors].sort(compareDiagnostics).map(formatHeadline);
}

describe('build-time error fixtures', () => {
  for (const rule of readdirSync(FIXTURES).sort()) {
    describe(rule, () => {
      for (const name of readdirSync(path.join(FIXTURES, rule)).sort()) {
        it(`${name} case`, () => {
          const caseDir = path.join(FIXTURES, rule, name);
          const expectedFile = path.join(caseDir, 'expected.txt');
          const actual = diagnose(caseDir, rule);
          if (update) writeFileSync(expectedFile, actual.length > 0 ? `${actual.join('\n')}\n` : '');
          const expected = readFileSync(expectedFile, 'utf8').split('\n').filter(Boolean);
          expect(actual).toEqual(expected);
          const ofRule = actual.filter((line) => line.includes(` error ${rule}: `) || line.includes(` warning ${rule}: `));
          if (name.startsWith('invalid')) expect(ofRule.length).toBeGreaterThan(0);
          else expect(actual).toEqual([]);
        });
      }
    });
  }

  it('has an invalid and a valid fixture for every rule', () => {
    for (const rule of Object.keys(RULES)) {
      expect(existsSync(path.join(FIXTURES, rule, 'invalid', 'app.ts')), `test/errors/${rule}/invalid`).toBe(true);
      expect(existsSync(path.join(FIXTURES, rule, 'valid', 'app.ts')), `test/errors/${rule}/valid`).toBe(true);
    }
    expect(readdirSync(FIXTURES).sort()).toEqual([...Object.keys(RULES), TYPE_ERROR_RULE].sort());
  });
});
