/**
 * Removing what was deprecated (docs/behaviour.md §2.7): the breaking-change check compares the
 * new schema with the committed SDL, and a field, input field, argument or enum value that the
 * committed SDL already marks `@deprecated` may leave without breaking anything callers were not
 * told about. This module takes those out of the committed schema before graphql-js compares the
 * two (`findBreakingChanges`), so their removal is no break, while every other change is judged as
 * before; what it took out is listed, for `generate` to print. Something deprecated only in the
 * new schema is not retired, and a type removed goes only when nothing but retired members was in
 * it or referred to it (a deprecated has_many's connection): anything else stays a break.
 */
import {
  buildASTSchema,
  type ConstDirectiveNode,
  DEFAULT_DEPRECATION_REASON,
  type DefinitionNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isTypeDefinitionNode,
  Kind,
  parse,
  visit,
} from 'graphql';

/** What the committed schema deprecated and the new one no longer has. */
export interface RetiredMember {
  /** `FIELD` (of an object, interface or input type), `ARG` or `VALUE` (of an enum). */
  readonly kind: 'FIELD' | 'ARG' | 'VALUE';
  /** Its schema coordinate: `Post.title`, `Query.posts(status:)`, `Status.ARCHIVED`. */
  readonly coordinate: string;
  /** The reason the committed schema gave. */
  readonly reason: string;
}

/** The committed schema with its retired members taken out, and those members. */
export interface ReleasedSchema {
  readonly schema: GraphQLSchema;
  readonly retired: readonly RetiredMember[];
}

/** The reason of a `@deprecated` directive among `directives`, or undefined when there is none. */
function deprecationOf(directives: readonly ConstDirectiveNode[] | undefined): string | undefined {
  const directive = directives?.find((candidate) => candidate.name.value === 'deprecated');
  if (!directive) return undefined;
  const reason = directive.arguments?.find((argument) => argument.name.value === 'reason')?.value;
  return reason?.kind === Kind.STRING ? reason.value : DEFAULT_DEPRECATION_REASON;
}

/**
 * Which members of a committed type the new schema still has: a test of a member's name when the
 * type is still of its kind, `gone` when the type is gone, undefined when it changed kind.
 */
type Kept = ((name: string) => boolean) | 'gone' | undefined;

/**
 * `nodes` without the deprecated ones the new schema lacks (`left`); each one left out is added to
 * `retired`, named `coordinate(name)`. Every node stays when the container changed kind, or is gone
 * with members that were not deprecated: that change is judged whole.
 */
function retire<T extends { readonly name: { readonly value: string }; readonly directives?: readonly ConstDirectiveNode[] }>(
  nodes: readonly T[] | undefined,
  left: Kept,
  kind: RetiredMember['kind'],
  coordinate: (name: string) => string,
  retired: RetiredMember[],
): T[] | undefined {
  if (nodes === undefined) return undefined;
  const gone = left === 'gone';
  if (left === undefined || (gone && nodes.some((node) => deprecationOf(node.directives) === undefined))) return [...nodes];
  const kept = gone ? () => false : left;
  return nodes.filter((node) => {
    const reason = deprecationOf(node.directives);
    if (reason === undefined || kept(node.name.value)) return true;
    retired.push({ kind, coordinate: coordinate(node.name.value), reason });
    return false;
  });
}

/** {@link Kept} of a committed type whose counterpart in the new schema is `after`, whose members `present` names (undefined: of another kind). */
const keptOf = (after: GraphQLNamedType | undefined, present: ((name: string) => boolean) | undefined): Kept =>
  after === undefined ? 'gone' : present;

/** One definition of the committed SDL with its members retired against `next`. */
function retireIn(definition: DefinitionNode, next: GraphQLSchema, retired: RetiredMember[]): DefinitionNode {
  if (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.INTERFACE_TYPE_DEFINITION) {
    const type = definition.name.value;
    const after = next.getType(type);
    const same = definition.kind === Kind.OBJECT_TYPE_DEFINITION ? isObjectType(after) : isInterfaceType(after);
    const fields: Readonly<Record<string, GraphQLField<unknown, unknown>>> | undefined =
      same && (isObjectType(after) || isInterfaceType(after)) ? after.getFields() : undefined;
    const kept = retire(
      definition.fields,
      keptOf(after, fields && ((name) => name in fields)),
      'FIELD',
      (name) => `${type}.${name}`,
      retired,
    );
    return {
      ...definition,
      fields: kept?.map((field) => {
        const args: readonly GraphQLArgument[] | undefined = fields?.[field.name.value]?.args;
        return {
          ...field,
          arguments: retire(
            field.arguments,
            args && ((name) => args.some((argument) => argument.name === name)),
            'ARG',
            (name) => `${type}.${field.name.value}(${name}:)`,
            retired,
          ),
        };
      }),
    };
  }
  if (definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
    const type = definition.name.value;
    const after = next.getType(type);
    const fields: Readonly<Record<string, GraphQLInputField>> | undefined = isInputObjectType(after) ? after.getFields() : undefined;
    return {
      ...definition,
      fields: retire(definition.fields, keptOf(after, fields && ((name) => name in fields)), 'FIELD', (name) => `${type}.${name}`, retired),
    };
  }
  if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
    const type = definition.name.value;
    const after = next.getType(type);
    const values = isEnumType(after) ? new Set(after.getValues().map((value) => value.name)) : undefined;
    return {
      ...definition,
      values: retire(
        definition.values,
        keptOf(after, values && ((name) => values.has(name))),
        'VALUE',
        (name) => `${type}.${name}`,
        retired,
      ),
    };
  }
  return definition;
}

/**
 * The committed schema (`previous`, SDL text) as the new schema `next` is compared with: without
 * the fields, input fields, arguments and enum values it marks `@deprecated` that `next` no longer
 * has (docs/behaviour.md §2.7) and the types only those referred to, and the members retired, in
 * the order the SDL lists them (the types that went with them are not listed).
 *
 * Throws graphql-js's `GraphQLError` when `previous` is no valid SDL, as `buildSchema` would.
 */
export function releasedSchema(previous: string, next: GraphQLSchema): ReleasedSchema {
  const document = parse(previous);
  const retired: RetiredMember[] = [];
  const pruned = document.definitions.map((definition) => retireIn(definition, next, retired));
  return { schema: buildASTSchema({ ...document, definitions: withoutOrphans(document.definitions, pruned, next) }), retired };
}

/** The names of the types `definitions` refer to (field, argument and member types; not their own names). */
function referencedTypes(definitions: readonly DefinitionNode[]): Set<string> {
  const names = new Set<string>();
  visit({ kind: Kind.DOCUMENT, definitions }, { NamedType: (node) => void names.add(node.name.value) });
  return names;
}

/** Whether `definition` is a type with members (fields or values) of which none is left. */
const emptied = (definition: DefinitionNode): boolean =>
  'fields' in definition ? definition.fields?.length === 0 : 'values' in definition ? definition.values?.length === 0 : false;

/**
 * `pruned` (the committed definitions with their retired members taken out) without the types that
 * went with them: a type the new schema lacks that nothing left refers to, and that a retired member
 * was what referred to it (a deprecated has_many's connection and edge types) or whose every member
 * was retired (a `Mutation` of deprecated fields only), repeated while one more goes.
 */
function withoutOrphans(original: readonly DefinitionNode[], pruned: readonly DefinitionNode[], next: GraphQLSchema): DefinitionNode[] {
  const referencedBefore = referencedTypes(original);
  let kept = [...pruned];
  for (;;) {
    const referenced = referencedTypes(kept);
    const orphan = (definition: DefinitionNode): boolean =>
      isTypeDefinitionNode(definition) &&
      next.getType(definition.name.value) === undefined &&
      !referenced.has(definition.name.value) &&
      (referencedBefore.has(definition.name.value) || emptied(definition));
    const left = kept.filter((definition) => !orphan(definition));
    if (left.length === kept.length) return left;
    kept = left;
  }
}
