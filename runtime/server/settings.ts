/**
 * The value kinds of `APP_*` settings (docs/behaviour.md §4.5): each a zod schema of the variable's
 * text, with the message a bad value is reported with. The server's own sections
 * (./config.ts) and the sections each transport declares (runtime/transports/settings.ts) are
 * written with these, so every variable reads its kind of value the same way.
 */
import { z } from 'zod';

/** A configuration problem, naming the environment variable. */
export interface ConfigProblem {
  readonly variable: string;
  readonly message: string;
}

/** `true`/`false` (also `1`/`0`, `yes`/`no`; empty is false). */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** An integer from `min` to `max`, both included. */
export const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { message: `expected an integer between ${min} and ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `expected at least ${min}` })
        .max(max, { message: `expected at most ${max}` }),
    );

/** A fraction from 0 to 1 (`0.25`): the share of requests a sampled output keeps. */
export const ratio = z
  .string()
  .regex(/^(0|1|0?\.\d+|1\.0+)$/, { message: 'expected a fraction between 0 and 1, such as 0.1' })
  .transform(Number);

/** A comma-separated list, each entry trimmed, empty entries dropped (unset: none). */
export const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );

/**
 * A section of settings, `APP_<NAME>__<KEY>` (`name` lower case, `schema`'s keys in camel case:
 * `maxBatch` is `APP_MCP__MAX_BATCH`), as an object to spread into the configuration's
 * schema: `{ [name]: schema }`.
 */
export function settingsSection<const Name extends string, Schema extends z.ZodObject>(
  name: Name,
  schema: Schema,
): { readonly [Key in Name]: Schema } {
  return { [name]: schema } as { readonly [Key in Name]: Schema };
}
