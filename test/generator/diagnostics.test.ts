/**
 * Diagnostics as a compiler prints them (docs/architecture.md §1; docs/decisions.md §1): the caret under the offending
 * token, colour on a terminal and never in a pipe (NO_COLOR, FORCE_COLOR, TERM=dumb respected),
 * and a declaration the runtime does not know refused before anything is emitted.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../generator/diagnostics/color.js';
import { countWarningsAsErrors, type Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { codeFrame, formatDiagnostic, formatHeadline, formatPlain, formatReport } from '../../generator/diagnostics/format.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { planOutput } from '../../generator/pipeline.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { validate } from '../../generator/validate/index.js';
import { ROOT } from '../support/project.js';

const ESCAPE = '\u001b[';

function fixture(
  rule: string,
  name: string,
): { diagnostics: Diagnostic[]; read: (file: string) => string | undefined; layout: Parameters<typeof planOutput>[0] } {
  const dir = path.join(ROOT, 'test/errors', rule, name);
  const layout = { root: dir, entitiesDir: dir, runtimeDir: path.join(ROOT, 'runtime'), generatedDir: path.join(dir, 'generated') };
  return {
    diagnostics: validate(resolveApp(parseDeclarations(layout))),
    read: (file) => readFileSync(path.join(dir, file), 'utf8'),
    layout,
  };
}

describe('code frames', () => {
  it('underline the misspelt relation target, not the property', () => {
    const { diagnostics, read } = fixture('relation-target-unknown', 'invalid-no-cascade');
    const first = diagnostics[0];
    expect(first && formatDiagnostic(first, read, { color: false })).toBe(
      [
        'app.ts:38:20 error relation-target-unknown: Book.author points at Autor, which is not an @Entity(); did you mean Author?',
        '  37 | ',
        "> 38 |   @BelongsTo(() => Autor, { column: 'authorId', exposed: true })",
        '     |                    ^^^^^',
        '  39 |   author?: Author | null;',
      ].join('\n'),
    );
  });

  it('underline the via string', () => {
    const { diagnostics, read } = fixture('relation-via-unknown', 'invalid');
    const frame = diagnostics[0] && formatDiagnostic(diagnostics[0], read, { color: false });
    expect(frame?.split('\n').slice(2, 4)).toEqual([
      "> 15 |   @HasMany(() => Book, { exposed: true, via: 'writerId' })",
      '     |                                              ^^^^^^^^^^',
    ]);
  });

  it('underline an unknown option key and an unknown decorator', () => {
    const options = fixture('decorator-option-unknown', 'invalid');
    expect(
      options.diagnostics[0] && formatDiagnostic(options.diagnostics[0], options.read, { color: false }).split('\n').slice(2, 4),
    ).toEqual(['> 11 |   @Column({ maxLenght: 2000, bogus: true })', '     |             ^^^^^^^^^']);
    const decorators = fixture('decorator-unknown', 'invalid');
    expect(
      decorators.diagnostics[0] && formatDiagnostic(decorators.diagnostics[0], decorators.read, { color: false }).split('\n').slice(2, 4),
    ).toEqual(["> 8 | @Searchable({ path: 'notes', version: '1' })", '    |  ^^^^^^^^^^']);
  });

  it('put one caret where the span has no length, and never past the end of the line', () => {
    expect(codeFrame('first\nsecond\nthird', 2, 4)).toBe(['  1 | first', '> 2 | second', '    |    ^', '  3 | third'].join('\n'));
    expect(codeFrame('ab', 1, 2, 10)).toBe(['> 1 | ab', '    |  ^'].join('\n'));
  });
});

describe('colour', () => {
  it('is on in a terminal and off in a pipe, unless the environment says otherwise', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: 'false', NO_COLOR: '' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '3', NO_COLOR: '1' })).toBe(true);
  });

  it('styles the report only when asked, and the plain report is the headline, frame and count', () => {
    const { diagnostics, read } = fixture('relation-via-unknown', 'invalid');
    const coloured = formatReport(diagnostics, read, { color: true });
    const plain = formatReport(diagnostics, read, { color: false });
    expect(coloured).toContain(ESCAPE);
    expect(plain).not.toContain(ESCAPE);
    expect(stripVTControlCharacters(coloured)).toBe(plain);
    expect(plain.startsWith(`${formatHeadline(diagnostics[0] as Diagnostic)}\n`)).toBe(true);
    expect(plain.endsWith('\n\n1 error, 0 warnings')).toBe(true);
  });

  it('shows each related location as a note under the frame, and the fixtures record the same lines', () => {
    const { diagnostics, read } = fixture('relation-ambiguous-via', 'invalid');
    const [diagnostic] = diagnostics as [Diagnostic];
    const lines = formatPlain(diagnostic);
    expect(lines).toHaveLength(1 + (diagnostic.related?.length ?? 0));
    expect(lines.length).toBeGreaterThan(1);
    const shown = formatReport(diagnostics, read, { color: false }).split('\n');
    for (const note of lines.slice(1)) expect(shown).toContain(note);
  });

  it('prints a warning strict mode counts as an error as `error (strict)`, and says how many in the count', () => {
    const { diagnostics, read } = fixture('listener-event-unknown', 'invalid');
    expect(diagnostics.map((diagnostic) => diagnostic.severity)).toEqual(['warning', 'warning']);
    const strict = countWarningsAsErrors(diagnostics);
    expect(strict.map(formatHeadline)).toEqual(
      diagnostics.map((diagnostic) =>
        formatHeadline(diagnostic).replace(' warning listener-event-unknown: ', ' error (strict) listener-event-unknown: '),
      ),
    );
    const plain = formatReport(strict, read, { color: false });
    expect(plain.endsWith('\n\n2 errors, 0 warnings (strict mode counted 2 warnings as errors)')).toBe(true);
    expect(stripVTControlCharacters(formatReport(strict, read, { color: true }))).toBe(plain);
    const one = countWarningsAsErrors([...fixture('relation-via-unknown', 'invalid').diagnostics, ...diagnostics.slice(0, 1)]);
    expect(formatReport(one, read, { color: false }).endsWith('\n\n2 errors, 0 warnings (strict mode counted 1 warning as an error)')).toBe(
      true,
    );
  });
});

describe('declarations the runtime does not know', () => {
  it('are refused before anything is emitted (@Resource, unknown @Column options)', async () => {
    for (const rule of ['decorator-unknown', 'decorator-option-unknown']) {
      const { layout } = fixture(rule, 'invalid');
      const plan = await planOutput(layout);
      expect(plan.diagnostics.some((diagnostic) => diagnostic.ruleId === rule && diagnostic.severity === 'error')).toBe(true);
      expect(plan.files).toEqual([]);
      expect(plan.migrations).toEqual({});
    }
  });
});
