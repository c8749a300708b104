/**
 * Failures an operation can report, and the `Result` type operations and services return
 * (docs/behaviour.md §4.1: "an operation may return a value or a result that can fail"; docs/behaviour.md §7).
 *
 * A failure is data with a code from docs/decisions.md §4. Each transport maps it once:
 * GraphQL puts it in `errors[].extensions.code` (`runtime/graphql/errors.ts`), REST answers
 * problem+json with the matching status (`runtime/http/problem.ts`).
 */

/**
 * Codes a failure carries on the wire (docs/decisions.md §4). `ROW_LIMIT`: an operation materialised
 * more rows than `APP_GRAPHQL__MAX_ROWS` allows (docs/hostile-input.md §3); `RESPONSE_TOO_LARGE`:
 * more bytes than its answer may hold (`APP_GRAPHQL__MAX_RESPONSE_BYTES`, §14; MCP's, §13).
 */
export type FailureCode =
  'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'ROW_LIMIT' | 'RESPONSE_TOO_LARGE';

/** One problem with an input value: where (dotted path, `''` for the whole value) and what. */
export interface InputIssue {
  readonly path: string;
  readonly message: string;
}

/** A failure an operation reports to its caller. */
export interface Failure {
  readonly code: FailureCode;
  /** Safe to show to the caller; never carries SQL, stack traces or file paths. */
  readonly message: string;
  /** For `FORBIDDEN` on a field: the field the caller's grant excludes. */
  readonly field?: string;
  /** For `BAD_USER_INPUT`: each problem found. */
  readonly issues?: readonly InputIssue[];
}

/** Issues an answer lists at most (docs/hostile-input.md §8); its message counts the others. */
export const MAX_LISTED_ISSUES = 20;

/** Characters of an issue's path or message an answer repeats at most (a caller's key may be 80 KB). */
const MAX_ISSUE_TEXT = 200;

/**
 * `text` cut to 200 characters, marked with `…` when cut: what a refusal repeats at most of one thing
 * a caller sent — an issue's path or message, a GraphQL variable's value (docs/hostile-input.md §8).
 */
export function boundedText(text: string): string {
  return text.length <= MAX_ISSUE_TEXT ? text : `${text.slice(0, MAX_ISSUE_TEXT)}…`;
}

/**
 * The issues an answer lists (docs/hostile-input.md §8): the first {@link MAX_LISTED_ISSUES} of
 * `issues`, each path and message cut to 200 characters, so an answer never grows with what a caller
 * sent. Idempotent.
 */
export function listedIssues(issues: readonly InputIssue[]): InputIssue[] {
  return issues.slice(0, MAX_LISTED_ISSUES).map((issue) => ({ path: boundedText(issue.path), message: boundedText(issue.message) }));
}

/**
 * The text of a BAD_USER_INPUT listing `issues` as {@link listedIssues} does, each written by
 * `format` (default `path message`), joined by `; `, and `; and N more` for the ones not listed.
 */
export function issueSummary(
  issues: readonly InputIssue[],
  format: (issue: InputIssue) => string = (issue) => `${issue.path} ${issue.message}`,
): string {
  const listed = listedIssues(issues).map(format).join('; ');
  return issues.length > MAX_LISTED_ISSUES ? `${listed}; and ${issues.length - MAX_LISTED_ISSUES} more` : listed;
}

/** The outcome of an operation or service call: a value, or a failure. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: Failure };

/** A successful result holding `value`. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed result with `code` and a caller-safe `message` (plus optional field/issues). */
export function fail(code: FailureCode, message: string, details: Pick<Failure, 'field' | 'issues'> = {}): Result<never> {
  return { ok: false, failure: { code, message, ...details } };
}

/**
 * The thrown form of a {@link Failure}, for places that cannot return one: pipes, guards, the
 * posture gate, `currentPrincipal()`. Transports catch it and answer with its failure.
 */
export class FailureError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = 'FailureError';
  }
}

/** The value of an ok result; throws the failure (as {@link FailureError}) otherwise. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new FailureError(result.failure);
}

/** The codes of the operation limits (docs/hostile-input.md §2, §3): each refuses an operation before it runs, or stops one that reads too much. */
export const QUERY_LIMIT_CODES = [
  'COMPLEXITY_LIMIT',
  'DEPTH_LIMIT',
  'TOKEN_LIMIT',
  'NESTING_LIMIT',
  'OPERATION_LIMIT',
  'DIRECTIVE_LIMIT',
  'ALIAS_LIMIT',
  'FIELD_LIMIT',
  'ROW_LIMIT',
  'RESPONSE_TOO_LARGE',
  'SUBSCRIPTION_LIMIT',
] as const;
