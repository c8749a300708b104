/**
 * The byte budget counts what is written (docs/hostile-input.md §14): `jsonBytesWithin` answers
 * exactly the UTF-8 bytes `JSON.stringify` writes, for generated values of every kind JSON takes
 * and leaves out, and stops counting past the budget; `jsonWithin` writes nothing past it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytesWithin, jsonWithin } from '../../runtime/http/answer.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';

/** Values as answers hold them: JSON values with odd strings, plus what JSON writes otherwise or leaves out. */
const answerValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.constantFrom('\u0001', '"', '\\', '\n', 'é', '\u2028', '😀', 'a', '\ud800') }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: fc.constantFrom('k', '"', 'é', '\u0002') }), tie('value'), { maxKeys: 5 }),
    tie('value').map((inner) => ({ toJSON: () => inner })),
  ),
})).value;

describe('jsonBytesWithin (docs/hostile-input.md §14)', () => {
  it('counts exactly what JSON.stringify writes of anything (sparse arrays, boxed values, null prototypes)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withDate: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, withBoxedValues: true }),
        (value) => {
          const text = JSON.stringify(value) as string | undefined;
          expect(jsonBytesWithin(value, Number.POSITIVE_INFINITY)).toBe(text === undefined ? 0 : Buffer.byteLength(text));
        },
      ),
      { numRuns: PROPERTY_RUNS * 4, seed: PROPERTY_SEED },
    );
  });

  it('counts exactly the UTF-8 bytes JSON.stringify writes (generated values)', () => {
    fc.assert(
      fc.property(answerValue, (value) => {
        const text = JSON.stringify(value) as string | undefined;
        expect(jsonBytesWithin(value, Number.POSITIVE_INFINITY)).toBe(text === undefined ? 0 : Buffer.byteLength(text));
      }),
      { numRuns: PROPERTY_RUNS * 4, seed: PROPERTY_SEED },
    );
  });

  it('answers undefined past the budget, and writes nothing then; the text itself within it', () => {
    fc.assert(
      fc.property(answerValue, fc.nat({ max: 400 }), (value, budget) => {
        const text = JSON.stringify(value) as string | undefined;
        const bytes = text === undefined ? 0 : Buffer.byteLength(text);
        expect(jsonBytesWithin(value, budget)).toBe(bytes <= budget ? bytes : undefined);
        expect(jsonWithin({ value }, budget + 10)).toBe(bytes + 10 <= budget + 10 ? JSON.stringify({ value }) : undefined);
      }),
      { numRuns: PROPERTY_RUNS * 2, seed: PROPERTY_SEED },
    );
  });

  it('stops counting at the budget: a sub-tree repeated ten thousand times is refused after a budget of work', () => {
    // Each row counts how often it is written; a row writes 6 002 bytes (each \u0001 escapes to six).
    let rowsWritten = 0;
    const row = { toJSON: () => (rowsWritten++, { body: '\u0001'.repeat(1000) }) };
    const page = Array.from({ length: 100 }, () => row);
    const repeated = Array.from({ length: 10_000 }, () => ({ author: { posts: page } }));
    expect(jsonBytesWithin(repeated, 1_000_000)).toBeUndefined();
    // A million bytes is 167 rows' worth; the whole answer would be a million rows, 6 GB.
    expect(rowsWritten).toBeLessThanOrEqual(Math.ceil(1_000_000 / 6_000) + 1);
  });

  it('refuses what JSON.stringify refuses: a cycle and a bigint', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonBytesWithin(cycle, 1000)).toThrow(TypeError);
    expect(() => jsonBytesWithin({ n: 1n }, 1000)).toThrow(TypeError);
  });
});
