/**
 * What `parse/` read from `entities/`, and nothing more (README.md "Layout"): every
 * class carrying a runtime decorator, its members with their declared types, and every decorator
 * application with its arguments as plain values. Nothing here is defaulted, normalised or
 * checked: an argument the parser could not read is a value of kind `other`, an absent type or
 * name is `undefined`. `resolve/` turns this into the decided model (`ResolvedApp`), and rules
 * report what is wrong with it. Plain readonly data: no ts-morph node gets past `parse/`.
 */
import type { DocText } from './docs.js';
import type { EnumModel, InputModel, ReturnShape, SourceRef, SourceSpan, TypeShape } from './types.js';

/**
 * A decorator argument as written, read without evaluating anything. `reference` is a name
 * (`User`, `ZodValidationPipe`) and where it is declared, when the parser could follow it.
 */
export type DeclaredValue =
  | { readonly kind: 'string'; readonly value: string; readonly span: SourceSpan }
  | { readonly kind: 'number'; readonly value: number; readonly span: SourceSpan }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly span: SourceSpan }
  | { readonly kind: 'array'; readonly items: readonly DeclaredValue[]; readonly span: SourceSpan }
  | { readonly kind: 'object'; readonly properties: readonly DeclaredProperty[]; readonly span: SourceSpan }
  | { readonly kind: 'thunk'; readonly body: DeclaredValue; readonly span: SourceSpan }
  | { readonly kind: 'reference'; readonly name: string; readonly ref: SourceRef | undefined; readonly span: SourceSpan }
  | { readonly kind: 'new'; readonly callee: DeclaredValue; readonly args: readonly DeclaredValue[]; readonly span: SourceSpan }
  | { readonly kind: 'other'; readonly text: string; readonly span: SourceSpan };

/** One entry of an object literal; `key` is undefined for a spread or a method, which cannot be read. */
export interface DeclaredProperty {
  readonly key: string | undefined;
  readonly keySpan: SourceSpan;
  readonly value: DeclaredValue;
}

/** One application of a decorator exported by runtime/declarations/decorators.ts (whatever local name it was imported under). */
export interface DeclaredDecorator {
  /** The runtime's export name (`Column`); it may name something the runtime does not export. */
  readonly name: string;
  readonly arguments: readonly DeclaredValue[];
  /** The decorator's name, where the caret goes. */
  readonly span: SourceSpan;
  /** Whether it was applied as a call (`@Public()`), not bare (`@Public`). */
  readonly called: boolean;
}

/** A property of a class. */
export interface DeclaredField extends DocText {
  readonly name: string;
  /** The declared type; `unsupported` with the reason when it has no wire type. */
  readonly type: TypeShape;
  /** Written `name?:`. */
  readonly optional: boolean;
  readonly decorators: readonly DeclaredDecorator[];
  readonly span: SourceSpan;
}

/** A parameter of a method. */
export interface DeclaredParameter {
  readonly name: string;
  readonly type: TypeShape;
  readonly optional: boolean;
  readonly decorators: readonly DeclaredDecorator[];
  readonly span: SourceSpan;
}

/** A call in a method body the generator can follow: `this.dependency.method(…)` or `this.method(…)`. */
export interface MethodCallModel {
  /** The constructor parameter called through, or undefined for a method of the same class. */
  readonly dependency: string | undefined;
  readonly method: string;
  /**
   * Its first argument: the string when it is a string literal (`this.events.publish('postPublished', …)`),
   * `other` when it is anything else, undefined when there is none.
   */
  readonly firstArgument: { readonly kind: 'string'; readonly value: string } | { readonly kind: 'other' } | undefined;
  readonly span: SourceSpan;
}

/** A method of a class. */
export interface DeclaredMethod extends DocText {
  readonly name: string;
  readonly parameters: readonly DeclaredParameter[];
  /** The declared return type; `unsupported` inside when it has no wire type. */
  readonly returns: ReturnShape;
  readonly decorators: readonly DeclaredDecorator[];
  /** Whether it has a body (its calls were read). */
  readonly hasBody: boolean;
  readonly calls: readonly MethodCallModel[];
  /** Where the body calls the runtime's `runUnscoped` (docs/behaviour.md §5.9). */
  readonly unscopedCalls: readonly SourceSpan[];
  readonly span: SourceSpan;
}

/** A constructor parameter: the type written, and where it is declared when it names a class. */
export interface DeclaredConstructorParameter {
  readonly name: string;
  /** Its runtime decorators (`@InjectQueue('notifications')`). */
  readonly decorators: readonly DeclaredDecorator[];
  /** The written type (`UserService`), or undefined when the parameter has none. */
  readonly typeText: string | undefined;
  /** The exported class the type names, when the parser could follow it. */
  readonly ref: SourceRef | undefined;
  readonly span: SourceSpan;
}

/** A class with at least one runtime decorator on it or on a member. */
export interface DeclaredClass extends DocText {
  /** Undefined for an anonymous class expression. */
  readonly name: string | undefined;
  /** The file, relative to the project root. */
  readonly file: string;
  readonly exported: boolean;
  readonly decorators: readonly DeclaredDecorator[];
  readonly fields: readonly DeclaredField[];
  readonly methods: readonly DeclaredMethod[];
  /** The first constructor's parameters. */
  readonly constructorParameters: readonly DeclaredConstructorParameter[];
  /** The class name (or the `class` keyword of an anonymous class). */
  readonly span: SourceSpan;
}

/**
 * One `can(…)` call of an `@Abilities()` class, read statically (generator/parse/grants.ts): its
 * actions and subjects, the fields it names (undefined: every field) and its conditions' keys.
 */
export interface DeclaredGrant {
  readonly actions: readonly string[];
  readonly subjects: readonly string[];
  readonly fields?: readonly string[];
  readonly conditionKeys: readonly string[];
}

/** The grants of the `@Abilities()` classes, or `unknown` when one could not be read statically. */
export type DeclaredGrants = { readonly kind: 'read'; readonly grants: readonly DeclaredGrant[] } | { readonly kind: 'unknown' };

/** Everything `parse/` read. */
export interface DeclaredApp {
  /** Decorated classes, by file (sorted), then in declaration order. */
  readonly classes: readonly DeclaredClass[];
  /** Enum aliases met in any type read, by name. */
  readonly enums: readonly EnumModel[];
  /** Input interfaces met in any type read, by name. */
  readonly inputs: readonly InputModel[];
  /** The grants the `@Abilities()` classes write, for the documents (docs/behaviour.md §4.4). */
  readonly grants: DeclaredGrants;
}
