/**
 * Removing what was deprecated (docs/behaviour.md §2.7): the breaking-change check compares the
 * new schema with the committed SDL, and a field, input field, argument or enum value that the
 * committed SDL already marks `@deprecated` may leave without breaking anything callers were not
 * told about. This module takes those out of the committed schema before graphql-js compares the
 * two (`findBreakingChanges`), so their removal is no break, while every other change is judged as
 * before; what it took out is listed, for `generate` to print. Something deprecated only in the
 * new schema, or removed together with its whole type, is not retired: that stays a break.
 */
import {
  buildASTSchema,
  type ConstDirectiveNode,
  DEFAULT_DEPRECATION_REASON,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
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
 * `nodes` without the deprecated ones whose name `kept` does not hold; each one left out is added to
 * `retired`, named `coordinate(name)`. With `kept` undefined (the container is gone or changed
 * kind in the new schema) every node stays: that change is judged whole.
 */
function retire<T extends { readonly name: { readonly value: string }; readonly directives?: readonly ConstDirectiveNode[] }>(
  nodes: readonly T[] | undefined,
  kept: ((name: string) => boolean) | undefined,
  kind: RetiredMember['kind'],
  coordinate: (name: string) => string,
  retired: RetiredMember[],
): T[] | undefined {
  if (nodes === undefined || kept === undefined) return nodes === undefined ? undefined : [...nodes];
  return nodes.filter((node) => {
    const reason = deprecationOf(node.directives);
    if (reason === undefined || kept(node.name.value)) return true;
    retired.push({ kind, coordinate: coordinate(node.name.value), reason });
    return false;
  });
}

/** One definition of the committed SDL with its members retired against `next`. */
function retireIn(definition: DefinitionNode, next: GraphQLSchema, retired: RetiredMember[]): DefinitionNode {
  if (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.INTERFACE_TYPE_DEFINITION) {
    const type = definition.name.value;
    const after = next.getType(type);
    const same = definition.kind === Kind.OBJECT_TYPE_DEFINITION ? isObjectType(after) : isInterfaceType(after);
    const fields: Readonly<Record<string, GraphQLField<unknown, unknown>>> | undefined =
      same && (isObjectType(after) || isInterfaceType(after)) ? after.getFields() : undefined;
    const kept = retire(definition.fields, fields && ((name) => name in fields), 'FIELD', (name) => `${type}.${name}`, retired);
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
      fields: retire(definition.fields, fields && ((name) => name in fields), 'FIELD', (name) => `${type}.${name}`, retired),
    };
  }
  if (definition.kind === Kind.ENUM_TYPE_DEFINITION) {
    const type = definition.name.value;
    const after = next.getType(type);
    const values = isEnumType(after) ? new Set(after.getValues().map((value) => value.name)) : undefined;
    return {
      ...definition,
      values: retire(definition.values, values && ((name) => values.has(name)), 'VALUE', (name) => `${type}.${name}`, retired),
    };
  }
  return definition;
}

/**
 * The committed schema (`previous`, SDL text) as the new schema `next` is compared with: without
 * the fields, input fields, arguments and enum values it marks `@deprecated` that `next` no longer
 * has (docs/behaviour.md §2.7), and those, in the order the SDL lists them.
 *
 * Throws graphql-js's `GraphQLError` when `previous` is no valid SDL, as `buildSchema` would.
 */
export function releasedSchema(previous: string, next: GraphQLSchema): ReleasedSchema {
  const document = parse(previous);
  const retired: RetiredMember[] = [];
  const pruned: DocumentNode = { ...document, definitions: document.definitions.map((definition) => retireIn(definition, next, retired)) };
  return { schema: buildASTSchema(pruned), retired };
}
