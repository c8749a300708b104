/**
 * Argument pipes (docs/behaviour.md §4.1): validation or transformation applied to one argument before the
 * operation body runs. A pipe rejects by throwing a {@link FailureError} (`BAD_USER_INPUT`);
 * the body then never runs, and the caller gets the failure as an error entry / problem+json.
 */
import type { ZodType } from 'zod';
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../failures/result.js';

/** A pipe: takes the argument's value and returns the value the operation receives. */
export interface PipeTransform<In = unknown, Out = unknown> {
  transform(value: In): Out | Promise<Out>;
}

/**
 * Validates a value against a zod schema and passes on the parsed value (defaults applied,
 * unknown keys stripped). Rejections list every zod issue with its path.
 */
export class ZodValidationPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: ZodType<T>) {}

  transform(value: unknown): T {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issues: InputIssue[] = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
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
