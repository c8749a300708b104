/**
 * Writing a JSON answer (docs/behaviour.md §4.2, §7): the REST routes' values and problem documents.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonInstant } from '../data/instant.js';
import { FailureError } from '../failures/result.js';

/**
 * Answers with `text`, JSON already serialised, as the whole body: `status`, `contentType` and its
 * `Content-Length` in bytes, sent in one write with the headers. (Express's `res.json` turns a
 * body of 1 000 characters or more into a Buffer, which Node then writes apart from the headers;
 * a HEAD request gets the headers only, as Node sends no body for it.)
 */
export function writeJson(response: ServerResponse, status: number, text: string, contentType = 'application/json; charset=utf-8'): void {
  response.statusCode = status;
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

/**
 * A plain object (an entity row) with its `Date` fields as {@link jsonInstant} text, copied only
 * when it has one; anything else — a class instance, an object with its own `toJSON`, a `Date`
 * subclass — as it is, for `JSON.stringify` to write. (`Date.prototype.toJSON` patched by the
 * application would not be followed.)
 */
function withInstantText(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    // A plain Date: a subclass may write itself otherwise.
    if (field instanceof Date && Object.getPrototypeOf(field) === Date.prototype && !Object.hasOwn(field, 'toJSON')) {
      copy ??= { ...(value as Record<string, unknown>) };
      // (An own `__proto__` key ignores the text assigned, and keeps the Date for JSON.stringify.)
      copy[key] = jsonInstant(field);
    }
  }
  return copy ?? value;
}

/**
 * The JSON text of a REST answer's value (docs/behaviour.md §4.2): exactly what `JSON.stringify`
 * writes, faster for rows — a row's, or a list's rows', `Date` fields are formatted before
 * stringifying (docs/decisions.md §6): `JSON.stringify` calls each `Date`'s `toJSON` on its slow
 * path, about twice the time for a page of posts (BENCHMARKS.md §"Where the time goes"). Past
 * `maxBytes` of UTF-8 (`APP_HTTP__MAX_RESPONSE_BYTES`, docs/hostile-input.md §14) no text is
 * written: it throws the `RESPONSE_TOO_LARGE` failure.
 * @throws FailureError `RESPONSE_TOO_LARGE`; TypeError as `JSON.stringify` does (a `bigint`, a cycle)
 */
export function jsonText(value: unknown, maxBytes: number): string {
  const list = Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  const prepared = list ? value.map(withInstantText) : withInstantText(value);
  if (jsonBytesWithin(prepared, maxBytes) === undefined) throw answerTooLarge(maxBytes, 'APP_HTTP__MAX_RESPONSE_BYTES');
  return JSON.stringify(prepared);
}

/**
 * The refusal of an answer that would write more than `maxBytes` bytes (docs/hostile-input.md §14):
 * `RESPONSE_TOO_LARGE`, naming the setting that bounds it and what to ask for instead.
 */
export function answerTooLarge(maxBytes: number, setting: string): FailureError {
  return new FailureError({
    code: 'RESPONSE_TOO_LARGE',
    message: `the answer is larger than ${maxBytes} bytes (${setting}); ask for smaller pages (first), fewer fields or fewer nested relations`,
  });
}

/** Characters a JSON string holds as they are, one byte each: printable ASCII but `"` and `\`. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The UTF-8 bytes `JSON.stringify(text)` writes: its quotes, and each character escaped as JSON escapes it. */
function stringBytes(text: string): number {
  return PLAIN_TEXT.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text));
}

/** Counting past the budget: thrown through the walk, caught by {@link jsonBytesWithin}. */
class OverBudget extends Error {}

/**
 * The bytes of the JSON `JSON.stringify(value)` writes, counted without writing it
 * (docs/hostile-input.md §14): each string escaped as JSON escapes it, in UTF-8; `toJSON` followed
 * (a `Date`, a `GraphQLError`), a property whose value is `undefined`, a function or a symbol left
 * out (`null` in an array); a sub-tree counted each time it occurs. Stops as soon as the count passes
 * `maxBytes` and answers `undefined`: the work is bounded by the budget, not by the answer.
 * @throws TypeError as `JSON.stringify` would (a cycle, a `bigint`)
 */
export function jsonBytesWithin(value: unknown, maxBytes: number): number | undefined {
  let bytes = 0;
  const open = new Set<object>();
  const add = (count: number): void => {
    bytes += count;
    if (bytes > maxBytes) throw new OverBudget();
  };
  /** Counts `item` as the value of `key` where JSON writes it; false when JSON leaves it out. */
  const walk = (item: unknown, key: string): boolean => {
    let current = item;
    if (typeof current === 'object' && current !== null && typeof (current as { toJSON?: unknown }).toJSON === 'function')
      current = (current as { toJSON(key: string): unknown }).toJSON(key);
    // JSON writes a boxed primitive as the primitive.
    if (current instanceof Number || current instanceof String || current instanceof Boolean) current = current.valueOf();
    switch (typeof current) {
      case 'string':
        add(stringBytes(current));
        return true;
      case 'number':
        add(Number.isFinite(current) ? String(current).length : 4);
        return true;
      case 'boolean':
        add(current ? 4 : 5);
        return true;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'undefined':
      case 'function':
      case 'symbol':
        return false;
      case 'object':
        break;
    }
    if (current === null) {
      add(4);
      return true;
    }
    const object = current;
    if (open.has(object)) throw new TypeError('Converting circular structure to JSON');
    open.add(object);
    if (Array.isArray(object)) {
      add(2 + Math.max(0, object.length - 1));
      // Every index, holes too: JSON writes a hole as null, as it writes what it leaves out of an object.
      for (let index = 0; index < object.length; index++) if (!walk((object as unknown[])[index], String(index))) add(4);
    } else {
      add(2);
      let first = true;
      for (const name of Object.keys(object)) {
        const before = bytes;
        // The key, its colon and the comma before it, counted only if the value is written.
        const keyBytes = stringBytes(name) + 1 + (first ? 0 : 1);
        add(keyBytes);
        if (walk((object as Record<string, unknown>)[name], name)) first = false;
        else bytes = before;
      }
    }
    open.delete(object);
    return true;
  };
  try {
    return walk(value, '') ? bytes : 0;
  } catch (error) {
    if (error instanceof OverBudget) return undefined;
    throw error;
  }
}

/**
 * `JSON.stringify(value)` of an object or array `value` when it writes at most `maxBytes` bytes of
 * UTF-8 (docs/hostile-input.md §14), else `undefined` — never building a text past the budget,
 * however large the value would write (a sub-tree repeated under every parent, characters JSON
 * escapes to six bytes).
 * @throws TypeError as `JSON.stringify` would (a cycle, a `bigint`)
 */
export function jsonWithin(value: object, maxBytes: number): string | undefined {
  if (jsonBytesWithin(value, maxBytes) === undefined) return undefined;
  return JSON.stringify(value);
}

/**
 * Operations of the rate limit a refusal past the byte budget costs its client (docs/hostile-input.md
 * §14): the server did up to a budget's worth of work for it, so a client asking for such answers in
 * a loop reaches the limit ten times sooner than one asking for answers it may be sent.
 */
const OVER_BUDGET_COST = 10;

/** What a transport's answers may write, and what an answer refused past it costs (docs/hostile-input.md §14). */
export interface AnswerBudget {
  /** Bytes of JSON one answer may write (counted as written: escaped, UTF-8). */
  readonly maxBytes: number;
  /** Charges the client of `request` {@link OVER_BUDGET_COST} in the rate limit, when one is on; never rejects. */
  refused(request: IncomingMessage): Promise<void>;
}

/** The budget of `maxBytes` per answer, charging refusals to `rateLimit` (undefined: the rate limit is off). */
export function answerBudget(
  maxBytes: number,
  rateLimit: { take(request: IncomingMessage, count?: number): Promise<boolean> } | undefined,
): AnswerBudget {
  return {
    maxBytes,
    refused: async (request) => {
      await rateLimit?.take(request, OVER_BUDGET_COST);
    },
  };
}

/** Whether `error` is the refusal of an answer past its byte budget. */
export function isTooLarge(error: unknown): boolean {
  return error instanceof FailureError && error.failure.code === 'RESPONSE_TOO_LARGE';
}
