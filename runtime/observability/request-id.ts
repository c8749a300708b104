/**
 * Request ids (docs/behaviour.md §12.1): every answer carries `X-Request-Id`. A caller (or a proxy
 * in front) may choose it; a value that is not a well-formed id — too long, empty, or with a
 * character outside a small safe set (control characters, spaces, quotes, non-ASCII) — is never
 * echoed, logged or stored: the server generates a UUID v7 in its place.
 */
import { randomFillSync } from 'node:crypto';
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

/** Ids whose random bytes one refill of {@link pool} holds. */
const POOLED_IDS = 256;
/** Random bytes for the next {@link POOLED_IDS} generated ids, 16 each. */
const pool = new Uint8Array(16 * POOLED_IDS);
/** How many ids of {@link pool} are used (a full pool is refilled before the next). */
let used = POOLED_IDS;

/**
 * A new UUID v7: the time in milliseconds, then random bits, taken from a pool refilled once per
 * 256 ids. The uuid package's own generator asks the operating system for 16 bytes per id
 * (`crypto.getRandomValues`), the largest part of a request id's cost
 * (BENCHMARKS.md §"Where the time goes"). Ids of one millisecond are not ordered among themselves.
 */
export function generateRequestId(): string {
  if (used === POOLED_IDS) {
    randomFillSync(pool);
    used = 0;
  }
  const start = 16 * used++;
  return uuidv7({ random: pool.subarray(start, start + 16) });
}

/**
 * The id of a request with `headers`: its `X-Request-Id` when there is exactly one and it is well
 * formed, otherwise a new UUID v7 ({@link generateRequestId}: time-ordered, like the keys).
 */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && isWellFormedRequestId(given) ? given : generateRequestId();
}
