/**
 * Keyset pagination over the primary key (docs/behaviour.md §2.5, §4.2, §8).
 *
 * A page fetches `first + 1` rows ordered by id after the cursor; the extra probe row is
 * dropped and its presence sets `has_more` and `next_cursor`. There is no total count and no
 * jump-to-page. Cursors are the last visible row's primary key (a UUID v7, so id order is
 * creation order); an unparseable cursor pages from the start and is never an error.
 */

/** Page size when `first` is absent or unparseable (docs/behaviour.md §8). */
export const DEFAULT_PAGE_SIZE = 20;
/** Smallest page size; smaller requests are clamped up to it (docs/behaviour.md §8). */
export const MIN_PAGE_SIZE = 1;
/** Largest page size; larger requests are clamped down to it (docs/behaviour.md §8). */
export const MAX_PAGE_SIZE = 100;
/** Row cap of a list with pagination mode `none` (docs/behaviour.md §4.2, §8). */
export const LIST_CAP = 1000;

/** Arguments of a keyset list, as received from a transport (either may be absent). */
export interface PageArgs {
  readonly first?: number | string | null;
  readonly after?: string | null;
}

/** One keyset page (docs/behaviour.md §2.5). */
export interface Page<T> {
  readonly items: T[];
  /** Present only when more rows remain: the id of the last item. */
  readonly next_cursor?: string;
  readonly has_more: boolean;
}

/** A page request after normalisation: a clamped size and a valid cursor or none. */
export interface PageWindow {
  /** Rows to show, 1..=100. */
  readonly first: number;
  /** Rows to fetch: `first + 1` (the probe). */
  readonly take: number;
  /** Rows must have an id strictly greater than this; undefined = from the start. */
  readonly after: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Clamps a requested page size (docs/behaviour.md §8), the one rule of every transport: absent, empty
 * or non-numeric → 20; otherwise truncated to an integer and clamped to 1..=100 (`0` → 1, `-5` → 1,
 * `101` → 100) — however large: a text of 309 or more digits reads as `Infinity`, which is past 100
 * like any other number, so it is 100 (and `-Infinity` 1), never the default. REST reads `first`
 * through `pageSizeParameter` (runtime/http/routes.ts), which refuses a text that is not an integer
 * before it gets here.
 */
export function clampPageSize(first: number | string | null | undefined): number {
  if (first === null || first === undefined || first === '') return DEFAULT_PAGE_SIZE;
  const value = typeof first === 'number' ? first : Number(first);
  if (Number.isNaN(value)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(MIN_PAGE_SIZE, Math.trunc(value)));
}

/** Whether `text` is a UUID (every key and cursor is one). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * Reads a cursor (docs/behaviour.md §4.2): a UUID is returned lower-cased; anything else (absent, empty,
 * garbage, a repeated query key) means "from the start" and returns undefined.
 */
export function parseCursor(after: unknown): string | undefined {
  return typeof after === 'string' && isUuid(after) ? after.toLowerCase() : undefined;
}

/** Normalises page arguments into the window a query fetches (docs/behaviour.md §8). */
export function pageWindow(args: PageArgs): PageWindow {
  const first = clampPageSize(args.first);
  return { first, take: first + 1, after: parseCursor(args.after) };
}

/**
 * Turns the `first + 1` rows fetched for `window` into a page: drops the probe row and sets
 * `has_more` / `next_cursor` from its presence (docs/behaviour.md §8).
 */
export function toPage<T extends { readonly id: string }>(rows: readonly T[], window: PageWindow): Page<T> {
  if (rows.length <= window.first) return { items: [...rows], has_more: false };
  const items = rows.slice(0, window.first);
  const last = items[items.length - 1];
  return last ? { items, next_cursor: last.id, has_more: true } : { items, has_more: false };
}

/** The empty page (used when the caller's scope denies every row). */
export function emptyPage<T>(): Page<T> {
  return { items: [], has_more: false };
}
