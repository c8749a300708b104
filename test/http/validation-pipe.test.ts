/**
 * The validation pipe (docs/behaviour.md §4.1, §4.7): `ZodValidationPipe` takes any zod schema,
 * the classic `zod` and `zod/mini` alike, passes on what it parses and refuses the rest as
 * `BAD_USER_INPUT`, listing each issue with its path.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { ZodValidationPipe } from '../../runtime/declarations/pipes.js';
import { FailureError } from '../../runtime/failures/result.js';

/** The failure a pipe throws for `value`, or undefined when it passes. */
function refusal(pipe: ZodValidationPipe<unknown>, value: unknown): FailureError | undefined {
  try {
    pipe.transform(value);
    return undefined;
  } catch (error) {
    if (error instanceof FailureError) return error;
    throw error;
  }
}

const schemas = {
  zod: z.object({ name: z.string().trim().min(1), tags: z.array(z.string()).default([]) }),
  'zod/mini': zm.object({ name: zm.string().check(zm.trim(), zm.minLength(1)), tags: zm._default(zm.array(zm.string()), []) }),
};

describe.each(Object.entries(schemas))('ZodValidationPipe with a %s schema', (_flavour, schema) => {
  const pipe = new ZodValidationPipe(schema);

  it('passes on the parsed value: trimmed, defaults applied, unknown keys stripped', () => {
    expect(pipe.transform({ name: '  Ada ', extra: true })).toEqual({ name: 'Ada', tags: [] });
  });

  it('refuses the rest as BAD_USER_INPUT, each issue with its path, a missing value as required', () => {
    const failure = refusal(pipe, { tags: [1] });
    expect(failure?.failure.code).toBe('BAD_USER_INPUT');
    expect(failure?.failure.issues?.map((issue) => issue.path)).toEqual(['name', 'tags.0']);
    expect(failure?.failure.issues?.[0]?.message).toBe('is required');
    expect(refusal(pipe, 'not an object')?.failure.code).toBe('BAD_USER_INPUT');
  });
});
