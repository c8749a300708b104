/**
 * Facts about types decided once: which entity a return value carries, and which enum aliases and
 * input interfaces the application uses (docs/behaviour.md §4.1) — the ones columns, operation and route
 * parameters and return values name, and the inputs those name in turn.
 */
import type { EnumModel, InputModel, NamedType, ReturnShape, TypeShape } from '../model/types.js';

/**
 * The entity an operation or route returns — alone, in a list or in a keyset page — or
 * undefined when it returns something else. Masking, subscription filtering and the event
 * transport key on it (docs/behaviour.md §5.5).
 */
export function returnedEntity(shape: ReturnShape): string | undefined {
  if (shape.kind === 'page') return shape.item.kind === 'entity' ? shape.item.name : undefined;
  if (shape.kind === 'value') return shape.type.named.kind === 'entity' ? shape.type.named.name : undefined;
  return undefined;
}

/** The named types of a return value. */
export function returnTypes(shape: ReturnShape): NamedType[] {
  if (shape.kind === 'page') return [shape.item];
  if (shape.kind === 'value') return [shape.type.named];
  return [];
}

/**
 * The enums and inputs reachable from `roots`, through input fields; each list sorted by name.
 * Takes the declared enums and inputs (by name) and the types the application names.
 */
export function usedTypes(
  enums: readonly EnumModel[],
  inputs: readonly InputModel[],
  roots: readonly (NamedType | TypeShape)[],
): { enums: EnumModel[]; inputs: InputModel[] } {
  const enumByName = new Map(enums.map((model) => [model.name, model]));
  const inputByName = new Map(inputs.map((model) => [model.name, model]));
  const usedEnums = new Set<string>();
  const usedInputs = new Set<string>();
  const visit = (named: NamedType): void => {
    if (named.kind === 'enum') usedEnums.add(named.name);
    if (named.kind !== 'input' || usedInputs.has(named.name)) return;
    usedInputs.add(named.name);
    for (const field of inputByName.get(named.name)?.fields ?? []) visit(field.type.named);
  };
  for (const root of roots) visit('named' in root ? root.named : root);
  const pick = <T extends { readonly name: string }>(names: Set<string>, byName: Map<string, T>): T[] =>
    [...names].flatMap((name) => byName.get(name) ?? []).sort((a, b) => a.name.localeCompare(b.name));
  return { enums: pick(usedEnums, enumByName), inputs: pick(usedInputs, inputByName) };
}
