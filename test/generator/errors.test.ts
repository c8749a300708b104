/**
 * Every build-time rule fires on its fixture with the exact diagnostics (rule id, file:line:col,
 * message naming the fix, and each related location), and stays silent on a valid counter-example
 * (docs/architecture.md §6). Fixtures: `test/errors/<rule-id>/{invalid,valid}/app.ts` with
 * `expected.txt` (a migration rule's fixture also holds the committed `generated/prisma/sqlite`
 * the declarations are compared with); `UPDATE_GOLDEN=1` rewrites the expectations.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDiagnostics, type Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { formatPlain } from '../../generator/diagnostics/format.js';
import { DOCUMENT_RULE } from '../../generator/documents.js';
import { reviewMigrations } from '../../generator/migration-review.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { listTypeScriptFiles } from '../../generator/parse/project.js';
import { planOutput } from '../../generator/pipeline.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { checkDeclarationTypes, TYPE_ERROR_RULE } from '../../generator/typecheck.js';
import { RULES, validate } from '../../generator/validate/index.js';
import { STAGE_RULES } from '../../generator/validate/rule.js';
import { ROOT } from '../support/project.js';

const FIXTURES = path.join(ROOT, 'test/errors');
const update = process.env.UPDATE_GOLDEN === '1';

/**
 * The diagnostics of a fixture, each as its headline and related locations. `type-error` fixtures
 * also go through the TypeScript checker (generator/typecheck.ts), which `generate --check` runs; a
 * `graphql-document-invalid` fixture through the plan, whose emit stage checks the documents; a
 * migration rule's fixture goes through the whole plan and the review of the new migration, with no
 * development database to count rows in (generator/migration-review.ts).
 */
async function diagnose(caseDir: string, rule: string): Promise<string[]> {
  const layout = {
    root: caseDir,
    entitiesDir: caseDir,
    runtimeDir: path.join(ROOT, 'runtime'),
    generatedDir: path.join(caseDir, 'generated'),
  };
  let diagnostics: Diagnostic[];
  if (rule.startsWith('migration-')) {
    const plan = await planOutput(layout);
    const review = await reviewMigrations({
      migrations: plan.migrations,
      generatedDir: layout.generatedDir,
      developmentUrl: undefined,
      acceptDataLoss: false,
      locate: plan.locate,
    });
    diagnostics = [...plan.diagnostics, ...review];
  } else if (rule === DOCUMENT_RULE) {
    // The listed documents are checked against the schema this run emits.
    diagnostics = [...(await planOutput(layout)).diagnostics];
  } else {
    const typeErrors = rule === TYPE_ERROR_RULE ? checkDeclarationTypes(layout, listTypeScriptFiles(caseDir), 'error') : [];
    diagnostics = [...validate(resolveApp(parseDeclarations(layout))), ...typeErrors];
  }
  return diagnostics.sort(compareDiagnostics).flatMap(formatPlain);
}

describe('build-time error fixtures', () => {
  for (const rule of readdirSync(FIXTURES).sort()) {
    describe(rule, () => {
      for (const name of readdirSync(path.join(FIXTURES, rule)).sort()) {
        it(`${name} case`, async () => {
          const caseDir = path.join(FIXTURES, rule, name);
          const expectedFile = path.join(caseDir, 'expected.txt');
          const actual = await diagnose(caseDir, rule);
          if (update) writeFileSync(expectedFile, actual.length > 0 ? `${actual.join('\n')}\n` : '');
          const expected = readFileSync(expectedFile, 'utf8').split('\n').filter(Boolean);
          expect(actual).toEqual(expected);
          const registered = new Set([...Object.keys(RULES), ...Object.keys(STAGE_RULES)]);
          for (const line of actual) {
            const ruleId = / (?:error|warning) ([a-z-]+): /.exec(line)?.[1];
            if (!line.startsWith('  ')) expect(registered.has(ruleId ?? ''), `${ruleId} is a registered rule`).toBe(true);
          }
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
    for (const rule of Object.keys(STAGE_RULES)) {
      expect(existsSync(path.join(FIXTURES, rule, 'invalid', 'app.ts')), `test/errors/${rule}/invalid`).toBe(true);
      expect(existsSync(path.join(FIXTURES, rule, 'valid', 'app.ts')), `test/errors/${rule}/valid`).toBe(true);
    }
    expect(readdirSync(FIXTURES).sort()).toEqual([...Object.keys(RULES), ...Object.keys(STAGE_RULES)].sort());
  });
});
