/**
 * Writing a JSON answer (docs/behaviour.md §4.2, §7): the REST routes' values and problem documents.
 */
import type { ServerResponse } from 'node:http';
import { jsonInstant } from '../data/instant.js';

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
 * path, about twice the time for a page of posts (BENCHMARKS.md §"Where the time goes").
 * @throws TypeError as `JSON.stringify` does (a `bigint`, a cycle)
 */
export function jsonText(value: unknown): string {
  const list = Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  return JSON.stringify(list ? value.map(withInstantText) : withInstantText(value));
}
