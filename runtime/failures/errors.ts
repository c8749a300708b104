/**
 * What an error may say on the wire (docs/behaviour.md §7): a {@link FailureError} carries a caller-safe
 * failure; a database fault is the constant `database error`; anything else is an internal error.
 * Details (messages, SQL, stacks) are logged, never sent. What each database's driver throws is
 * its dialect's (runtime/dialects/): error classes, unavailability codes, code prefix.
 */
import { DIALECTS } from '../dialects/index.js';
import { FailureError, type Failure } from './result.js';

/** The wire message of every database failure (docs/behaviour.md §7). */
const DATABASE_ERROR_MESSAGE = 'database error';
/** The wire message of a write the database has no room for (a full disk; 503, docs/behaviour.md §7). */
const DATABASE_FULL_MESSAGE = 'the database has no room to write';
/** The wire message of an unexpected failure. */
export const INTERNAL_ERROR_MESSAGE = 'internal server error';

/**
 * How an error is reported. A database fault says `message` on the wire ({@link DATABASE_ERROR_MESSAGE},
 * or {@link DATABASE_FULL_MESSAGE} when it had no room to write) and is 503 when `unavailable` —
 * unreachable, busy, or full: the server cannot do the work now, another may, or it may later.
 */
export type ErrorClass =
  | { readonly kind: 'failure'; readonly failure: Failure }
  | { readonly kind: 'database'; readonly unavailable: boolean; readonly message: string }
  | { readonly kind: 'internal' };

/** Error classes of Prisma's client and adapters, and of the runtime's own database paths. */
const COMMON_ERROR_NAMES = [
  'PrismaClientKnownRequestError',
  'PrismaClientUnknownRequestError',
  'PrismaClientRustPanicError',
  'PrismaClientInitializationError',
  'PrismaClientValidationError',
  'DriverAdapterError',
  // A loader batch or a list read straight from the driver (runtime/data/sql-runner.ts).
  'SqlStatementError',
  // A relation resolved without its batch context has no executor (docs/behaviour.md §5.10).
  'BatchContextMissingError',
  // A scope the per-parent window cannot express fails closed.
  'ScopeTranslationError',
];

/** Prisma's and the socket's codes for a database that cannot be reached, whatever the database. */
const CONNECTION_CODES = [
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'CONNECTION_LOST',
];

/** Every database error class: Prisma's and each dialect's driver's (`SqliteError`, pg's `DatabaseError`). */
const DATABASE_ERROR_NAMES = new Set([...COMMON_ERROR_NAMES, ...DIALECTS.flatMap((dialect) => dialect.errors.classNames)]);

/** Codes meaning the database cannot be reached now (503): the connection's, and each dialect's. */
const UNAVAILABLE_CODES = new Set([...CONNECTION_CODES, ...DIALECTS.flatMap((dialect) => dialect.errors.unavailableCodes)]);

/** Prefixes of the drivers' own error codes (`SQLITE_`). */
const CODE_PREFIXES = DIALECTS.flatMap((dialect) => (dialect.errors.codePrefix === undefined ? [] : [dialect.errors.codePrefix]));

/** Codes meaning the database has no room to write (SQLITE_FULL, PostgreSQL's 53100), each dialect's. */
const FULL_CODES = new Set(DIALECTS.flatMap((dialect) => dialect.errors.fullCodes));

/** Codes of a database refusing a value the caller sent, with what the caller is told, each dialect's. */
const INPUT_CODES = new Map(DIALECTS.flatMap((dialect) => Object.entries(dialect.errors.inputCodes ?? {})));

/** Whether `error` came from the database layer (client, adapter or driver). */
function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (DATABASE_ERROR_NAMES.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || CODE_PREFIXES.some((prefix) => code.startsWith(prefix)));
}

/** What a driver adapter's error says of the driver's own error (`DriverAdapterError.cause`). */
interface AdapterCause {
  readonly code?: unknown;
  readonly originalCode?: unknown;
}

/**
 * The codes `error` carries: its own (`P2039`, a SQLSTATE, `SQLITE_BUSY`, `ECONNREFUSED`), its
 * cause's, and — on a Prisma error — the driver's, which Prisma keeps in
 * `meta.driverAdapterError.cause` (a unique violation, a NUL refused, a full disk all arrive as
 * Prisma's generic P2039 with the driver's code there).
 */
function errorCodes(error: unknown): string[] {
  const { code, cause, meta } = (error ?? {}) as {
    code?: unknown;
    cause?: AdapterCause;
    meta?: { driverAdapterError?: { cause?: AdapterCause } };
  };
  const driver = meta?.driverAdapterError?.cause;
  return [code, cause?.code, cause?.originalCode, driver?.originalCode, driver?.code].filter(
    (candidate): candidate is string => typeof candidate === 'string',
  );
}

/**
 * Classifies `error` for the wire (docs/behaviour.md §7): a failure as it is; a database error the
 * database raised over a value the caller sent (a dialect's `inputCodes`: PostgreSQL refusing a NUL
 * in text) as that caller's `BAD_USER_INPUT`; a database error for want of room to write as
 * unavailable with {@link DATABASE_FULL_MESSAGE}; one of an unreachable or busy database as
 * unavailable; any other database error as `database error`; the rest as internal.
 */
export function classifyError(error: unknown): ErrorClass {
  if (error instanceof FailureError) return { kind: 'failure', failure: error.failure };
  if (isDatabaseError(error)) {
    const codes = errorCodes(error);
    const input = codes.map((code) => INPUT_CODES.get(code)).find((message) => message !== undefined);
    if (input !== undefined) return { kind: 'failure', failure: { code: 'BAD_USER_INPUT', message: input } };
    if (codes.some((code) => FULL_CODES.has(code))) return { kind: 'database', unavailable: true, message: DATABASE_FULL_MESSAGE };
    return { kind: 'database', unavailable: codes.some((code) => UNAVAILABLE_CODES.has(code)), message: DATABASE_ERROR_MESSAGE };
  }
  return { kind: 'internal' };
}
