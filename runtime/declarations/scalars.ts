/**
 * Scalar type aliases the generator recognises by name in declarations (docs/behaviour.md §4.1).
 *
 * TypeScript has one `number`; a parameter or column typed `Int` is a 32-bit integer on the
 * wire (GraphQL `Int`, OpenAPI `integer/int32`), while a plain `number` is a `Float`.
 */

/** A 32-bit signed integer (GraphQL `Int`). */
export type Int = number;

/** Smallest and largest values of a GraphQL `Int`. */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
