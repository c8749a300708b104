/**
 * What operations, routes and gateway handlers share: postures (docs/behaviour.md §1, §5), guard bindings and
 * the guard chain (docs/behaviour.md §5.2), and pipes bound to parameters (docs/behaviour.md §5.6), read from decorators.
 */
import type { DeclaredDecorator, DeclaredValue } from '../model/declarations.js';
import type { GuardBinding, PipeArgument, PipeModel, PostureModel, WrittenPosture } from '../model/model.js';
import { argumentAt, type DecoratorSet, referenceName, stringOf } from './values.js';

/** Every posture decorator written on a method, in source order; the first is the one in force. */
export function readPostures(decorators: DecoratorSet): { posture: PostureModel | undefined; postures: WrittenPosture[] } {
  const postures = decorators.all.flatMap((decorator): WrittenPosture[] => {
    if (decorator.name === 'Public') return [{ kind: 'public', span: decorator.span }];
    if (decorator.name !== 'Authorized') return [];
    const actionValue = argumentAt(decorator, 0);
    const action = stringOf(actionValue);
    const subjectValue = argumentAt(decorator, 1);
    const subject = referenceName(subjectValue) ?? stringOf(subjectValue);
    if (action === undefined || actionValue === undefined || subject === undefined || subjectValue === undefined)
      return [{ kind: 'unreadable', span: decorator.span }];
    return [{ kind: 'authorized', action, actionSpan: actionValue.span, subject, subjectSpan: subjectValue.span, span: decorator.span }];
  });
  const first = postures[0];
  return { posture: first?.kind === 'unreadable' ? undefined : first, postures };
}

/** The guards `@UseGuards(…)` names, each a class name (followed to its declaration when possible). */
export function readGuards(decorators: readonly DeclaredDecorator[]): GuardBinding[] {
  return decorators.flatMap((decorator) =>
    decorator.arguments.flatMap((argument): GuardBinding[] =>
      argument.kind === 'reference' ? [{ name: argument.ref?.exportName ?? argument.name, ref: argument.ref, span: argument.span }] : [],
    ),
  );
}

/** Global, then class, then method guards, each guard once (docs/behaviour.md §5.2: a guard bound twice runs once). */
export function guardChain(...scopes: readonly (readonly GuardBinding[])[]): GuardBinding[] {
  const chain: GuardBinding[] = [];
  const seen = new Set<string>();
  for (const binding of scopes.flat()) {
    const key = binding.ref ? `${binding.ref.file}#${binding.ref.exportName}` : `?${binding.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    chain.push(binding);
  }
  return chain;
}

function pipeArgument(value: DeclaredValue): PipeArgument | undefined {
  if (value.kind === 'reference' && value.ref) return { kind: 'ref', ref: value.ref };
  if (value.kind === 'string' || value.kind === 'number' || value.kind === 'boolean') return { kind: 'literal', value: value.value };
  return undefined;
}

/**
 * The pipes a decorator's arguments name: `PipeClass` or `new PipeClass(…)` with exported values
 * or literals as arguments. Anything else is left out here and reported by `decorator-argument-invalid`.
 */
export function readPipes(decorators: readonly (DeclaredDecorator | undefined)[]): PipeModel[] {
  return decorators.flatMap((decorator) =>
    (decorator?.arguments ?? []).flatMap((value): PipeModel[] => {
      if (value.kind === 'reference' && value.ref) return [{ class: value.ref, args: [], span: value.span }];
      if (value.kind !== 'new' || value.callee.kind !== 'reference' || !value.callee.ref) return [];
      const args = value.args.map(pipeArgument);
      if (args.some((argument) => argument === undefined)) return [];
      return [{ class: value.callee.ref, args: args as PipeArgument[], span: value.span }];
    }),
  );
}
