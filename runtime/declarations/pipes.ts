/**
 * Argument pipes (docs/behaviour.md §4.1): validation or transformation applied to one argument before the
 * operation body runs. A pipe rejects by throwing a {@link FailureError} (`BAD_USER_INPUT`);
 * the body then never runs, and the caller gets the failure as an error entry / problem+json.
 */
import { type $ZodError, type $ZodType, safeParse } from 'zod/v4/core';
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../failures/result.js';

/** A pipe: takes the argument's value and returns the value the operation receives. */
export interface PipeTransform<In = unknown, Out = unknown> {
  transform(value: In): Out | Promise<Out>;
}

/** Whether `path` names nothing in `input`: a key left out (or undefined) at the end of a path of own keys. */
function leftOut(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || typeof key === 'symbol' || !Object.hasOwn(value, key)) return true;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}

/**
 * The issues of a zod rejection of `input` as an answer lists them (docs/behaviour.md §4.7): each
 * with its dotted path; a required value left out says `is required`, as the body check does
 * (runtime/http/inputs.ts), rather than zod's "expected string, received undefined".
 */
export function zodInputIssues(error: $ZodError, input: unknown): InputIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'invalid_type' && issue.path.length > 0 && leftOut(input, issue.path) ? 'is required' : issue.message,
  }));
}

/**
 * Validates a value against a zod schema and passes on the parsed value (defaults applied,
 * unknown keys stripped). Rejections list every zod issue with its path.
 *
 * Takes any zod schema through zod's core type (`zod` and `zod/mini` alike), as zod asks of
 * libraries: inferring `T` from the classic `ZodType<T>` instead makes an application's type check
 * several times slower (BENCHMARKS.md "The test suite").
 */
export class ZodValidationPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: $ZodType<T>) {}

  transform(value: unknown): T {
    const parsed = safeParse(this.schema, value);
    if (parsed.success) return parsed.data;
    const issues = zodInputIssues(parsed.error, value);
    const summary = issueSummary(issues, (issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    throw new FailureError({ code: 'BAD_USER_INPUT', message: `invalid input: ${summary}`, issues: listedIssues(issues) });
  }
}

/**
 * Runs `value` through `pipes` in order (docs/behaviour.md §4.1); resolves to the final value.
 * Throws whatever a pipe throws (a {@link FailureError} for rejections).
 */
export async function applyPipes(value: unknown, pipes: readonly PipeTransform[]): Promise<unknown> {
  let current = value;
  for (const pipe of pipes) current = await pipe.transform(current);
  return current;
}

/** A transform rejecting a value: throw this from a custom pipe's `transform`. */
export function rejectInput(message: string, path = ''): never {
  throw new FailureError({ code: 'BAD_USER_INPUT', message, issues: [{ path, message }] });
}
