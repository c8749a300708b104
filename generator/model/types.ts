/**
 * The value types every stage shares: source positions and references, and the wire types of
 * columns, arguments and return values (docs/behaviour.md §4.1) — what `parse/` reads from type annotations and
 * the resolved model keeps as is.
 */
import type { ResourceColumnConstraints } from '../../runtime/data/resource-input.js';
import type { DocText } from './docs.js';

/** A position in a declaration file; `file` is relative to the project root, with `/`. */
export interface SourceSpan {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** How many characters the offending token spans on that line (the code frame underlines them). */
  readonly length?: number;
}

/** Where an importable value is declared: emitters import `exportName` from `file`. */
export interface SourceRef {
  readonly file: string;
  readonly exportName: string;
}

/** Scalars on the wire (docs/behaviour.md §4.1): `ID` for keys, `DateTime` as an ISO-8601 string. */
export type ScalarName = 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime';

/** A named type a field, argument or return value refers to. */
export type NamedType =
  | { readonly kind: 'scalar'; readonly name: ScalarName }
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'entity'; readonly name: string }
  | { readonly kind: 'input'; readonly name: string }
  /** `text` is the type as written, undefined when none was written. */
  | { readonly kind: 'unsupported'; readonly text: string | undefined; readonly reason: string };

/** A value's shape: a named type, possibly a list, possibly nullable. List items are non-null. */
export interface TypeShape {
  readonly named: NamedType;
  readonly list: boolean;
  readonly nullable: boolean;
}

/**
 * What an operation returns after unwrapping `Promise`:
 * `value` (T, T | null, T[]), or `page` (`Page<T>`, a keyset page). `result` marks `Result<…>`;
 * `promised` marks a declared `Promise<…>` (generated code awaits only those).
 */
export type ReturnShape =
  | { readonly kind: 'value'; readonly type: TypeShape; readonly result: boolean; readonly promised: boolean }
  | { readonly kind: 'page'; readonly item: NamedType; readonly result: boolean; readonly promised: boolean }
  | { readonly kind: 'void'; readonly promised: boolean };

/** An enum: a string-literal union type alias (`type PostStatus = 'draft' | 'published'`). */
export interface EnumModel extends DocText {
  readonly kind: 'enum';
  readonly name: string;
  readonly values: readonly string[];
  readonly span: SourceSpan;
}

/** An input object type: an interface or object type alias used as an argument type. */
export interface InputModel extends DocText {
  readonly kind: 'input';
  readonly name: string;
  readonly fields: readonly InputFieldModel[];
  readonly span: SourceSpan;
}

/**
 * A deprecation as written, and where (docs/behaviour.md §2.7): the `deprecationReason` option's
 * value, or a docstring's `@deprecated` tag (its span the tag's).
 */
export interface WrittenDeprecation {
  /** Trimmed; empty when nothing is said. */
  readonly reason: string;
  readonly span: SourceSpan;
}

/**
 * Why a field is deprecated, decided once (docs/behaviour.md §2.7): from the `deprecationReason`
 * option, a docstring's `@deprecated` tag, or both (rule `deprecation-conflict` refuses two reasons
 * that differ).
 */
export interface DeprecationModel {
  /** What callers read (`@deprecated(reason:)`, OpenAPI): the option's reason when written, else the tag's; `No longer supported` when neither says one. */
  readonly reason: string;
  readonly option: WrittenDeprecation | undefined;
  /** The tag, its inline links written as their text. */
  readonly tag: WrittenDeprecation | undefined;
}

/** One field of an input object. */
export interface InputFieldModel extends DocText {
  readonly name: string;
  readonly type: TypeShape;
  /** Value constraints of the column a resource's input field stands for (docs/behaviour.md §4.7), shown in OpenAPI. */
  readonly constraints?: ResourceColumnConstraints;
  /** The field deprecated, and why: an optional field of a resource's input for a deprecated column (docs/behaviour.md §2.7); absent otherwise. */
  readonly deprecation?: DeprecationModel;
  readonly span: SourceSpan;
}
