/**
 * Reading decorator arguments (model/declarations.ts `DeclaredValue`) as the values resolve
 * needs. Lenient by design: a value of the wrong kind reads as `undefined` here, and the rule
 * `decorator-argument-invalid` reports it against runtime/declarations/decorator-signatures.ts — so a
 * declaration that is wrong in one place is still resolved everywhere else, and rules whose input
 * is unknown stay silent instead of cascading.
 */
import type { DeclaredDecorator, DeclaredValue } from '../model/declarations.js';
import type { SourceSpan } from '../model/types.js';

/** The decorators of one declaration, by runtime name (first application first). */
export class DecoratorSet {
  private readonly byName = new Map<string, DeclaredDecorator[]>();

  constructor(readonly all: readonly DeclaredDecorator[]) {
    for (const decorator of all) {
      const list = this.byName.get(decorator.name) ?? [];
      list.push(decorator);
      this.byName.set(decorator.name, list);
    }
  }

  /** The first application of `name`. */
  first(name: string): DeclaredDecorator | undefined {
    return this.byName.get(name)?.[0];
  }

  /** Every application of `name`, in source order. */
  every(name: string): readonly DeclaredDecorator[] {
    return this.byName.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }
}

/** The `index`th argument of a decorator. */
export function argumentAt(decorator: DeclaredDecorator | undefined, index: number): DeclaredValue | undefined {
  return decorator?.arguments[index];
}

/** The value of `key` in an object literal (the first, when written twice), or undefined. */
export function optionOf(options: DeclaredValue | undefined, key: string): DeclaredValue | undefined {
  if (options?.kind !== 'object') return undefined;
  return options.properties.find((property) => property.key === key)?.value;
}

/** The span of `key` itself in an object literal. */
export function optionKeySpan(options: DeclaredValue | undefined, key: string): SourceSpan | undefined {
  if (options?.kind !== 'object') return undefined;
  return options.properties.find((property) => property.key === key)?.keySpan;
}

/** A string literal's value. */
export function stringOf(value: DeclaredValue | undefined): string | undefined {
  return value?.kind === 'string' ? value.value : undefined;
}

/** A numeric literal's value. */
export function numberOf(value: DeclaredValue | undefined): number | undefined {
  return value?.kind === 'number' ? value.value : undefined;
}

/** `true` or `false` as written. */
export function booleanOf(value: DeclaredValue | undefined): boolean | undefined {
  return value?.kind === 'boolean' ? value.value : undefined;
}

/** A complexity override: a string expression, or a number as text. */
export function expressionOf(value: DeclaredValue | undefined): string | undefined {
  if (value?.kind === 'string') return value.value;
  if (value?.kind === 'number') return String(value.value);
  return undefined;
}

/** The class a name refers to: its export name when followed, else the name as written. */
export function referenceName(value: DeclaredValue | undefined): string | undefined {
  return value?.kind === 'reference' ? (value.ref?.exportName ?? value.name) : undefined;
}

/** The class a thunk `() => Class` returns, as {@link referenceName}, with the name's span. */
export function thunkTarget(value: DeclaredValue | undefined): { readonly name: string; readonly span: SourceSpan } | undefined {
  if (value?.kind !== 'thunk' || value.body.kind !== 'reference') return undefined;
  return { name: value.body.ref?.exportName ?? value.body.name, span: value.body.span };
}
