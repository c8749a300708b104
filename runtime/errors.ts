/**
 * What an error may say on the wire (spec §7): a {@link FailureError} carries a caller-safe
 * failure; a database fault is the constant `database error`; anything else is an internal error.
 * Details (messages, SQL, stacks) are logged, never sent.
 */
import { FailureError, type Failure } from './result.js';

/** The wire message of every database failure (spec §7). */
export const DATABASE_ERROR_MESSAGE = 'database error';
/** The wire message of an unexpected failure. */
export const INTERNAL_ERROR_MESSAGE = 'internal server error';

/** How an error is reported. */
export type ErrorClass =
  | { readonly kind: 'failure'; readonly failure: Failure }
  | { readonly kind: 'database'; readonly unavailable: boolean }
  | { readonly kind: 'internal' };

const DATABASE_ERROR_NAMES = new Set([
  'PrismaClientKnownRequestError',
  'PrismaClientUnknownRequestError',
  'PrismaClientRustPanicError',
  'PrismaClientInitializationError',
  'PrismaClientValidationError',
  'DriverAdapterError',
  'SqliteError',
  'DatabaseError',
  // A loader batch or a list read straight from the driver (runtime/sql-reader.ts).
  'SqlReadError',
  // A relation resolved without its batch context has no executor (spec §5.10).
  'BatchContextMissingError',
  // A scope the per-parent window cannot express fails closed.
  'ScopeTranslationError',
]);

const UNAVAILABLE_CODES = new Set([
  'P1001', 'P1002', 'P1008', 'P1017', 'P2024',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'CONNECTION_LOST',
  // PostgreSQL: connection exceptions (class 08) and the server shutting down or starting (57P0x).
  '08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03',
  'SQLITE_BUSY', 'SQLITE_CANTOPEN',
]);

/** Whether `error` came from the database layer (client, adapter or driver). */
export function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (DATABASE_ERROR_NAMES.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('SQLITE_'));
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code ?? (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Classifies `error` for the wire (spec §7). */
export function classifyError(error: unknown): ErrorClass {
  if (error instanceof FailureError) return { kind: 'failure', failure: error.failure };
  if (isDatabaseError(error)) {
    const code = errorCode(error);
    return { kind: 'database', unavailable: code !== undefined && UNAVAILABLE_CODES.has(code) };
  }
  return { kind: 'internal' };
}
