/**
 * Request ids (docs/behaviour.md §12.1): every answer carries `X-Request-Id`. A caller (or a proxy
 * in front) may choose it; a value that is not a well-formed id — too long, empty, or with a
 * character outside a small safe set (control characters, spaces, quotes, non-ASCII) — is never
 * echoed, logged or stored: the server generates a UUID v7 in its place.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { v7 as uuidv7 } from 'uuid';

/** The header carrying the request id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The longest request id taken from a caller, in characters (a UUID is 36, a W3C trace id 32). */
const MAX_REQUEST_ID_LENGTH = 128;

/**
 * What a caller's id may contain: ASCII letters, digits and `_ . : + = / ~ -` — enough for UUIDs,
 * ULIDs, hex and base64 ids, and nothing that could break a header, a log line or a JSON string.
 */
const WELL_FORMED = new RegExp(`^[A-Za-z0-9_.:+=/~-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** Whether `value` may be used as a request id as it is (see {@link WELL_FORMED}). */
export function isWellFormedRequestId(value: string): boolean {
  return WELL_FORMED.test(value);
}

/**
 * The id of a request with `headers`: its `X-Request-Id` when there is exactly one and it is well
 * formed, otherwise a new UUID v7 (time-ordered, like the keys).
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && isWellFormedRequestId(given) ? given : uuidv7();
}
