/**
 * Hygiene, with tools (docs/architecture.md §6 "Hygiene is checked"), as part of `npm test` so that CI counts a finding as a failed
 * test: the code we write and the code we generate pass typescript-eslint's strict, type-aware
 * rules (eslint.config.js; `npm run lint` runs the same check by hand), knip finds no dead file,
 * export or dependency (knip.config.ts), neither `runtime/` nor `generator/` nor the demo's
 * `entities/` and `generated/` taken together has an import cycle, type-only imports included, and
 * every doc comment documents the declaration after it.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { APPLICATION_CYCLES, eslintFindings, importCycles, knipFindings, orphanedDocComments } from '../support/hygiene.js';
import { ROOT } from '../support/project.js';

describe('hygiene', () => {
  it('lints clean: generator, runtime, entities, generated code, tests, benchmarks and soak runs', () => {
    expect(eslintFindings(ROOT, ['.'])).toEqual([]);
  }, 300_000);

  it('has no unused file, export, type or dependency', () => {
    expect(knipFindings(ROOT)).toEqual([]);
  }, 300_000);

  it.each(['runtime', 'generator'])('has no import cycle in %s/, type-only imports included', async (dir) => {
    expect(await importCycles(ROOT, [dir])).toEqual([]);
  }, 120_000);

  it('has no import cycle across entities/ and generated/ taken together, type-only imports included (entity declarations aside)', async () => {
    expect(await importCycles(ROOT, ['entities', 'generated'], APPLICATION_CYCLES)).toEqual([]);
  }, 120_000);

  it('attaches every doc comment to a declaration', () => {
    const tracked = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const ours = tracked.filter((file) => file !== '' && !/^(test\/(errors|golden)|generated\/prisma)\//.test(file));
    expect(ours.length).toBeGreaterThan(100);
    expect(orphanedDocComments(ROOT, ours)).toEqual([]);
  });
});
