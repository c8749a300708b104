/**
 * Checking what is written in a decorator against its signature (runtime/declarations/decorator-signatures.ts):
 * one walk over the arguments that finds values of the wrong kind, unknown option keys, missing
 * arguments and options, and extra arguments. The three `decorator-argument-*` /
 * `decorator-option-unknown` rules each report one kind of finding, so they agree by construction
 * on what a declaration means.
 */
import {
  type ArgumentSpec,
  DECORATOR_SIGNATURES,
  type DecoratorName,
  type DecoratorSignature,
  type OptionTable,
  type ValueKind,
} from '../../runtime/declarations/decorator-signatures.js';
import { closestMatch } from '../../runtime/server/suggest.js';
import type { DeclaredValue } from '../model/declarations.js';
import type { DecoratorUse } from '../model/model.js';
import type { SourceSpan } from '../model/types.js';

const SIGNATURES: ReadonlyMap<string, DecoratorSignature> = new Map(Object.entries(DECORATOR_SIGNATURES));

/** The names of every runtime decorator. */
export const DECORATOR_NAMES: readonly DecoratorName[] = Object.keys(DECORATOR_SIGNATURES) as DecoratorName[];

/** The signature of the runtime decorator `name`, or undefined when the runtime exports none by that name. */
export function signatureOf(name: string): DecoratorSignature | undefined {
  return SIGNATURES.get(name);
}

/** Something written in a decorator that its signature does not allow. */
export type ArgumentFinding =
  | {
      readonly kind: 'mismatch';
      readonly label: string;
      readonly expected: ValueKind;
      readonly value: DeclaredValue;
      readonly example: string | undefined;
    }
  | { readonly kind: 'notCalled'; readonly span: SourceSpan }
  | { readonly kind: 'extraArgument'; readonly value: DeclaredValue; readonly count: number }
  | { readonly kind: 'missingArgument'; readonly spec: ArgumentSpec; readonly span: SourceSpan }
  | {
      readonly kind: 'missingOption';
      readonly label: string;
      readonly key: string;
      readonly span: SourceSpan;
      readonly example: string | undefined;
    }
  | {
      readonly kind: 'unknownOption';
      readonly label: string;
      readonly key: string;
      readonly known: readonly string[];
      readonly span: SourceSpan;
    };

/** Does `value` have the outer shape of `kind` (deeper mismatches are found by {@link checkArguments})? */
function shallowMatch(value: DeclaredValue, kind: ValueKind): boolean {
  if (typeof kind === 'string') {
    switch (kind) {
      case 'string':
      case 'number':
      case 'boolean':
        return value.kind === kind;
      case 'true':
        return value.kind === 'boolean' && value.value;
      case 'class':
        return value.kind === 'reference';
      case 'value':
        return value.kind === 'reference' && value.ref !== undefined;
      case 'thunk':
        return value.kind === 'thunk' && value.body.kind === 'reference';
      case 'pipe':
        return value.kind === 'reference' || (value.kind === 'new' && value.callee.kind === 'reference');
      case 'refused':
        return true;
    }
  }
  if ('anyOf' in kind) return kind.anyOf.some((alternative) => shallowMatch(value, alternative));
  if ('listOf' in kind) return value.kind === 'array';
  if ('oneOf' in kind) return value.kind === 'string' && kind.oneOf.includes(value.value);
  return value.kind === 'object';
}

/** The kind of an option, and whether the key is required. */
function optionKind(spec: OptionTable[string]): { kind: ValueKind; required: boolean } {
  return typeof spec === 'object' && 'required' in spec ? { kind: spec.required, required: true } : { kind: spec, required: false };
}

/** The keys an options table accepts and suggests (`refused` keys are reported by dedicated rules). */
function acceptedKeys(table: OptionTable): string[] {
  return Object.entries(table).flatMap(([key, spec]) => (optionKind(spec).kind === 'refused' ? [] : [key]));
}

class Walker {
  readonly findings: ArgumentFinding[] = [];

  check(value: DeclaredValue, kind: ValueKind, label: string, example: string | undefined): void {
    if (typeof kind === 'object' && 'anyOf' in kind) {
      const matching = kind.anyOf.find((alternative) => shallowMatch(value, alternative));
      if (matching === undefined) this.findings.push({ kind: 'mismatch', label, expected: kind, value, example });
      else this.check(value, matching, label, example);
      return;
    }
    if (!shallowMatch(value, kind)) {
      this.findings.push({ kind: 'mismatch', label, expected: kind, value, example });
      return;
    }
    if (kind === 'pipe') {
      this.checkPipe(value, label, example);
      return;
    }
    if (typeof kind !== 'object') return;
    if ('listOf' in kind && value.kind === 'array') {
      for (const item of value.items) this.check(item, kind.listOf, `an item of ${label}`, undefined);
    } else if ('recordOf' in kind && value.kind === 'object') {
      for (const property of value.properties) {
        if (property.key === undefined)
          this.findings.push({ kind: 'mismatch', label: `an entry of ${label}`, expected: kind, value: property.value, example });
        else this.check(property.value, kind.recordOf, `the entry '${property.key}' of ${label}`, undefined);
      }
    } else if ('options' in kind && value.kind === 'object') {
      this.checkOptions(value, kind.options, label, example);
    }
  }

  private checkOptions(
    value: Extract<DeclaredValue, { kind: 'object' }>,
    table: OptionTable,
    label: string,
    example: string | undefined,
  ): void {
    const written = new Set<string>();
    for (const property of value.properties) {
      if (property.key === undefined) {
        this.findings.push({
          kind: 'mismatch',
          label: `an entry of ${label}`,
          expected: { options: table },
          value: property.value,
          example,
        });
        continue;
      }
      written.add(property.key);
      const spec = table[property.key];
      if (spec === undefined) {
        this.findings.push({ kind: 'unknownOption', label, key: property.key, known: acceptedKeys(table), span: property.keySpan });
        continue;
      }
      const { kind } = optionKind(spec);
      this.check(property.value, kind, `${property.key} in ${label}`, undefined);
    }
    for (const [key, spec] of Object.entries(table)) {
      if (optionKind(spec).required && !written.has(key))
        this.findings.push({ kind: 'missingOption', label, key, span: value.span, example });
    }
  }

  /** A pipe must be importable: a followed class name, or `new` of one with literals or followed names as arguments. */
  private checkPipe(value: DeclaredValue, label: string, example: string | undefined): void {
    const followed = (candidate: DeclaredValue): boolean => candidate.kind === 'reference' && candidate.ref !== undefined;
    if (value.kind === 'reference' && !followed(value)) this.findings.push({ kind: 'mismatch', label, expected: 'pipe', value, example });
    if (value.kind !== 'new') return;
    if (!followed(value.callee)) this.findings.push({ kind: 'mismatch', label, expected: 'pipe', value: value.callee, example });
    for (const argument of value.args) {
      const literal = argument.kind === 'string' || argument.kind === 'number' || argument.kind === 'boolean';
      if (!literal && !followed(argument)) {
        this.findings.push({
          kind: 'mismatch',
          label: `an argument of ${label}`,
          expected: { anyOf: ['string', 'number', 'boolean', 'class'] },
          value: argument,
          example: 'a literal, or a name exported by another file',
        });
      }
    }
  }
}

/** Labels for messages: `@Column` (its options), `the target of @BelongsTo`; options read `exposed in @Column`. */
function argumentLabel(decorator: string, spec: ArgumentSpec): string {
  const takesOptions = (kind: ValueKind): boolean =>
    typeof kind === 'object' && ('options' in kind || ('anyOf' in kind && kind.anyOf.some(takesOptions)));
  return takesOptions(spec.kind) ? `@${decorator}` : `the ${spec.name} of @${decorator}`;
}

/**
 * Every finding in one decorator application, in source order. Takes the application; returns
 * nothing for a decorator the runtime does not export (rule `decorator-unknown` reports that).
 */
export function checkArguments(use: DecoratorUse): ArgumentFinding[] {
  const { decorator } = use;
  const signature = signatureOf(decorator.name);
  if (!signature) return [];
  const walker = new Walker();
  if (!decorator.called) {
    walker.findings.push({ kind: 'notCalled', span: decorator.span });
    return walker.findings;
  }
  decorator.arguments.forEach((value, index) => {
    const spec = signature.arguments[index] ?? signature.rest;
    if (!spec) {
      walker.findings.push({ kind: 'extraArgument', value, count: signature.arguments.length });
      return;
    }
    walker.check(
      value,
      spec.kind,
      signature.arguments[index] ? argumentLabel(decorator.name, spec) : `a ${spec.name} of @${decorator.name}`,
      spec.example,
    );
  });
  signature.arguments.forEach((spec, index) => {
    if (spec.required && decorator.arguments[index] === undefined)
      walker.findings.push({ kind: 'missingArgument', spec, span: decorator.span });
  });
  return walker.findings;
}

/** Whether only a literal (not a name) is a value of `kind`: then a name written there is a variable the generator cannot read. */
export function expectsLiteral(kind: ValueKind): boolean {
  if (typeof kind === 'string') return kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'true';
  if ('anyOf' in kind) return kind.anyOf.every(expectsLiteral);
  return 'oneOf' in kind;
}

/** "a string literal", "true or false", "one of 'cursor', 'none'", … */
export function describeKind(kind: ValueKind): string {
  if (typeof kind === 'string') {
    switch (kind) {
      case 'string':
        return 'a string literal';
      case 'number':
        return 'a number literal';
      case 'boolean':
        return 'true or false';
      case 'true':
        return 'true';
      case 'class':
        return 'a class name';
      case 'value':
        return 'the name of an exported value (a zod schema), imported from its file';
      case 'thunk':
        return 'an arrow function returning a class, () => Class';
      case 'pipe':
        return 'a pipe class, or new PipeClass(…) with literals or exported names as arguments';
      case 'refused':
        return 'nothing';
    }
  }
  if ('anyOf' in kind) return kind.anyOf.map(describeKind).join(' or ');
  if ('listOf' in kind) return `an array literal of ${describeKind(kind.listOf).replace(/^an? /, '')}s`;
  if ('oneOf' in kind) return `one of ${kind.oneOf.map((value) => `'${value}'`).join(', ')}`;
  if ('options' in kind) return `an object literal with ${acceptedKeys(kind.options).join(', ')}`;
  return 'an object literal';
}

/** What was written, for messages: "the string 'true'", "the name isUnique", "`base.path`". */
export function describeValue(value: DeclaredValue): string {
  switch (value.kind) {
    case 'string':
      return `the string '${value.value}'`;
    case 'number':
      return `the number ${value.value}`;
    case 'boolean':
      return String(value.value);
    case 'array':
      return 'an array';
    case 'object':
      return 'an object literal';
    case 'thunk':
      return 'an arrow function';
    case 'reference':
      return value.ref ? `the name ${value.name}` : `the name ${value.name}, which could not be followed to its declaration`;
    case 'new':
      return `a new expression`;
    case 'other':
      return `\`${value.text.length > 40 ? `${value.text.slice(0, 39)}…` : value.text}\``;
  }
}

/** The literal the writer probably meant, when a near miss is obvious (`'true'` for `true`, `'nonee'` for `'none'`). */
export function suggestionFor(value: DeclaredValue, kind: ValueKind): string | undefined {
  const kinds = typeof kind === 'object' && 'anyOf' in kind ? kind.anyOf : [kind];
  for (const candidate of kinds) {
    if (candidate === 'boolean' && value.kind === 'string' && (value.value === 'true' || value.value === 'false')) return value.value;
    if (candidate === 'number' && value.kind === 'string' && value.value.trim() !== '' && Number.isFinite(Number(value.value)))
      return value.value.trim();
    if (candidate === 'string' && (value.kind === 'number' || value.kind === 'boolean')) return `'${String(value.value)}'`;
    if (typeof candidate === 'object' && 'oneOf' in candidate && value.kind === 'string') {
      const match = closestMatch(value.value, candidate.oneOf);
      if (match) return `'${match}'`;
    }
    if (candidate === 'thunk' && value.kind === 'reference') return `() => ${value.name}`;
  }
  return undefined;
}
