/**
 * Instants and JSON answers (docs/behaviour.md §2.1, §4.2): the server formats dates itself
 * (runtime/data/instant.ts) and pre-formats a row's dates before stringifying
 * (runtime/http/answer.ts); both must write exactly what `toISOString` and `JSON.stringify`
 * write, for any date and any value a route can return.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant, jsonInstant } from '../../runtime/data/instant.js';
import { jsonText } from '../../runtime/http/answer.js';

/** Any date a `Date` can hold, from -271821 to +275760, and invalid ones. */
const anyDate = fc.date({ noInvalidDate: false });
/** Dates near the ends of the range and of days, years and the epoch, where arithmetic slips. */
const edgeDate = fc
  .constantFrom(
    -8.64e15,
    8.64e15,
    0,
    -1,
    1,
    86_399_999,
    -86_400_001,
    253402300799999,
    253402300800000,
    -62167219200001,
    -62167219200000,
    951782400000,
  )
  .map((time) => new Date(time));

describe('isoInstant', () => {
  it('writes what toISOString writes, for any date', () => {
    fc.assert(
      fc.property(fc.oneof(anyDate, edgeDate), (date) => {
        if (Number.isNaN(date.getTime())) {
          expect(() => isoInstant(date)).toThrow(RangeError);
          expect(jsonInstant(date)).toBeNull();
        } else {
          expect(isoInstant(date)).toBe(date.toISOString());
          expect(jsonInstant(date)).toBe(date.toISOString());
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('is right for a run of dates on one day and then another (its cached day)', () => {
    const start = Date.UTC(2024, 1, 28, 23, 59, 58, 990);
    for (let step = 0; step < 3000; step += 7) {
      const date = new Date(start + step);
      expect(isoInstant(date)).toBe(date.toISOString());
    }
  });
});

describe('jsonText', () => {
  /** A row as a repository returns it: plain, with dates, some null, and any other JSON values. */
  const row = fc.dictionary(
    fc.string(),
    fc.oneof(anyDate, fc.constant(null), fc.string(), fc.double(), fc.boolean(), fc.array(anyDate, { maxLength: 2 })),
    { maxKeys: 8 },
  );

  it('writes what JSON.stringify writes, for rows, lists of rows and any other value', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          row,
          fc.array(row, { maxLength: 5 }),
          fc.anything({ withDate: true, withNullPrototype: true, withSparseArray: true, withObjectString: true, withBoxedValues: true }),
        ),
        (value) => {
          expect(jsonText(value, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('leaves class instances, Date subclasses and objects with their own toJSON to it, and an own __proto__ key as a key', () => {
    class Money {
      constructor(
        readonly cents: number,
        readonly at: Date,
      ) {}
      toJSON(): string {
        return `${this.cents / 100} EUR`;
      }
    }
    const at = new Date(Date.UTC(2001, 0, 1));
    const hostile = JSON.parse('{"__proto__": 1, "a": 2}') as Record<string, unknown>;
    Object.defineProperty(hostile, '__proto__', { value: at, enumerable: true, writable: true, configurable: true });
    class Day extends Date {
      override toJSON(): string {
        return this.toISOString().slice(0, 10);
      }
    }
    const ownDate = new Date(at);
    Object.defineProperty(ownDate, 'toJSON', { value: () => 'own' });
    const withOwnJson = { at, toJSON: () => ({ replaced: true }) };
    const listWithOwnJson = Object.assign([{ at }], { toJSON: () => 'list' });
    const values = [
      new Money(1250, at),
      [new Money(5, at), { at }],
      hostile,
      { day: new Day(at) },
      [{ day: new Day(at), at }],
      { ownDate },
      withOwnJson,
      [withOwnJson],
      listWithOwnJson,
    ];
    for (const value of values) expect(jsonText(value, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(value));
  });
});
