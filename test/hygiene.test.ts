/**
 * Hygiene, with tools (issue 12 §5): the code we write and the code we generate pass
 * typescript-eslint's strict, type-aware rules (eslint.config.js). `npm run lint` runs the same
 * check by hand; here it is part of `npm test`, so CI counts a finding as a failed test.
 */
import { describe, expect, it } from 'vitest';
import { eslintFindings } from './support/hygiene.js';
import { ROOT } from './support/project.js';

describe('hygiene', () => {
  it('lints clean: generator, runtime, entities, generated code, tests, benchmarks and soak runs', () => {
    expect(eslintFindings(ROOT, ['.'])).toEqual([]);
  }, 300_000);
});
