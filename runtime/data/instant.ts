/**
 * Instants on the wire (docs/behaviour.md §2.1: a `Date` field is an ISO-8601 instant in UTC,
 * `2000-01-31T09:30:00.000Z`). `Date.prototype.toISOString` is most of serialising a page of rows
 * with two dates each (docs/decisions.md §6; BENCHMARKS.md §"Where the time goes"); the day's text
 * is formatted once by it and kept, and the time of day is plain arithmetic.
 */

/** The last day formatted: its number since the epoch, and its `YYYY-MM-DDT` text. */
let lastDay = Number.NaN;
let lastDayText = '';

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : `${value}`);
const threeDigits = (value: number): string => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`);

const DAY_MS = 86_400_000;

/**
 * `date` as `Date.prototype.toISOString` writes it — `2000-01-31T09:30:00.000Z`, or the six-digit
 * signed year outside 0000–9999 — character for character.
 * @throws RangeError for an invalid date, as `toISOString` does
 */
export function isoInstant(date: Date): string {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new RangeError('Invalid time value');
  const day = Math.floor(time / DAY_MS);
  if (day !== lastDay) {
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, -13);
    lastDay = day;
  }
  let rest = time - day * DAY_MS;
  const milliseconds = rest % 1000;
  rest = (rest - milliseconds) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayText}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(milliseconds)}Z`;
}

/**
 * What `JSON.stringify` writes for `date` (its `toJSON`): {@link isoInstant}, or null for an
 * invalid date.
 */
export function jsonInstant(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : isoInstant(date);
}
