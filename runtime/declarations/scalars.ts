/**
 * Scalar type aliases the generator recognises by name in declarations (docs/behaviour.md §4.1):
 * `Int` and `ID`.
 *
 * TypeScript has one `number`; a parameter or column typed `Int` is a 32-bit integer on the
 * wire (GraphQL `Int`, OpenAPI `integer/int32`), while a plain `number` is a `Float`.
 */

/** A 32-bit signed integer (GraphQL `Int`). */
export type Int = number;

/**
 * A key: the id of a row, as text (GraphQL `ID`, OpenAPI `string`, `format: uuid`; docs/decisions.md
 * §2). A hand-written operation's parameter typed `ID` is an `ID` argument, and a column typed `ID`
 * an `ID` field, stored as text; a plain `string` stays `String`. Primary keys, belongs_to columns
 * and the id arguments of generated operations are `ID` whatever they are typed.
 */
export type ID = string;

/** Smallest and largest values of a GraphQL `Int`. */
export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;
