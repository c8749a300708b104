/**
 * What `parse/` read from `entities/`, and nothing more (docs/architecture.md §1): every
 * class carrying a runtime decorator, its members with their declared types, and every decorator
 * application with its arguments as plain values. Nothing here is defaulted, normalised or
 * checked: an argument the parser could not read is a value of kind `other`, an absent type or
 * name is `undefined`. `resolve/` turns this into the decided model (`ResolvedApp`), and rules
 * report what is wrong with it. Plain readonly data: no ts-morph node gets past `parse/`.
 */
import type { DocText } from './docs.js';
import type { EnumModel, InputModel, ReturnShape, SourceRef, SourceSpan, TypeShape, WrittenDeprecation } from './types.js';

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
  /** Its docstring's `@deprecated` tags, when it has any: their text as written (paragraph after paragraph), and the first tag's span. */
  readonly deprecated: WrittenDeprecation | undefined;
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
  /**
   * When it returns a list (`T[]`, through `Promise`), the shape of one element, which may be
   * nullable (`Promise<(string | null)[]>`: `String`): what a batched computed field answers per
   * parent (docs/behaviour.md §2.1); undefined otherwise.
   */
  readonly returnsEach: ReturnShape | undefined;
  /** The return type as written, when one is (for messages). */
  readonly returnsText: string | undefined;
  readonly decorators: readonly DeclaredDecorator[];
  /** Its docstring's `@deprecated` tags, when it has any: their text as written (paragraph after paragraph), and the first tag's span. */
  readonly deprecated: WrittenDeprecation | undefined;
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

/** A string an ability rule names (an action, a subject or a field), read statically, with where it is written. */
export interface AbilityName {
  readonly value: string;
  readonly span: SourceSpan;
}

/**
 * A condition object of an ability rule (a Prisma `where`), read statically: its keys, each
 * with the condition objects written as its value (a relation's `where`, `AND`/`OR`/`NOT`
 * branches, `is`/`some`/… of a relation); empty for a scalar or a value that cannot be read.
 * Spreads of local object constants are followed: their keys are listed where they are written.
 */
export interface AbilityCondition {
  readonly keys: readonly { readonly key: string; readonly span: SourceSpan; readonly values: readonly AbilityCondition[] }[];
}

/**
 * One `can(…)` or `cannot(…)` call of an `@Abilities()` class (docs/behaviour.md §5.5), as far as
 * it can be read without running it: a value whose type is a string-literal union counts as each
 * member. `unreadable` lists what could not be read (the rule asks for a literal there).
 */
export interface DeclaredAbilityRule {
  /** The `@Abilities()` class. */
  readonly owner: string;
  /** `cannot(…)`. */
  readonly inverted: boolean;
  readonly actions: readonly AbilityName[];
  readonly subjects: readonly AbilityName[];
  /** The fields argument, when written. */
  readonly fields: readonly AbilityName[] | undefined;
  /** The conditions argument, when written. */
  readonly conditions: AbilityCondition | undefined;
  /** Arguments (or parts of them) that are no literal and have no literal type: what, and where. */
  readonly unreadable: readonly {
    readonly what: 'action' | 'subject' | 'field' | 'condition';
    readonly text: string;
    readonly span: SourceSpan;
  }[];
  readonly span: SourceSpan;
}

/**
 * An import of a declaration file that resolves to nothing: a module file that does not exist
 * (`'../runtime/decorators.js'`; `candidates` are the declaration files it could mean, as
 * specifiers), or a name its module does not export (`candidates` are the module's exports).
 */
export type DeclaredImportProblem =
  | {
      readonly kind: 'module-missing';
      readonly specifier: string;
      readonly names: readonly string[];
      readonly candidates: readonly string[];
      readonly span: SourceSpan;
    }
  | {
      readonly kind: 'name-missing';
      readonly specifier: string;
      readonly name: string;
      readonly candidates: readonly string[];
      readonly span: SourceSpan;
    };

/** Everything `parse/` read. */
export interface DeclaredApp {
  /** The `can`/`cannot` calls of every `@Abilities()` class, in source order. */
  readonly abilityRules: readonly DeclaredAbilityRule[];
  /** Imports of declaration files that resolve to nothing, in source order. */
  readonly importProblems: readonly DeclaredImportProblem[];
  /** Decorated classes, by file (sorted), then in declaration order. */
  readonly classes: readonly DeclaredClass[];
  /** Enum aliases met in any type read, by name. */
  readonly enums: readonly EnumModel[];
  /** Input interfaces met in any type read, by name. */
  readonly inputs: readonly InputModel[];
}
