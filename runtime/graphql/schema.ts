/**
 * Builds the executable schema at boot from the committed SDL and the generated resolvers
 * (`@graphql-tools/schema`), adding the `DateTime` scalar (when the SDL declares it: only applications
 * with a `Date` column do) and the masking of entity column fields (docs/behaviour.md §2.1, §5.5, §7):
 * a non-null field removed by masking answers `FORBIDDEN` naming it; a nullable one is `null`. A
 * non-null column field has no resolver: a masked row holds its refusal (`MaskedRow`), which the
 * executor reads as the field's error. A nullable one resolves to `null` when masked (docs/decisions.md
 * §6, "Masked fields without a resolver per field").
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import { type DocumentNode, type GraphQLSchema, Kind, parse, visit } from 'graphql';
import { MASKED_FIELDS, type MaskedRow } from '../auth/ability.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import type { GraphQLContext } from './context.js';
import { DateTimeScalar } from './scalars.js';

/** The resolver of a nullable column field: `null` when masking removed it, else its value. */
function nullableColumnResolver(field: string): (parent: MaskedRow<Record<string, unknown>>) => unknown {
  return (parent) => (parent[MASKED_FIELDS]?.has(field) ? null : parent[field]);
}

/** The fields `document` declares non-null on object type `type`. */
function nonNullFields(document: DocumentNode, type: string): Set<string> {
  const fields = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || definition.name.value !== type) continue;
    for (const field of definition.fields ?? []) if (field.type.kind === Kind.NON_NULL_TYPE) fields.add(field.name.value);
  }
  return fields;
}

/** Does `document` declare `scalar <name>`? */
function declaresScalar(document: DocumentNode, name: string): boolean {
  return document.definitions.some((definition) => definition.kind === Kind.SCALAR_TYPE_DEFINITION && definition.name.value === name);
}

/**
 * `document` with every name — of types, fields, arguments, enum values — held one byte a character
 * (docs/decisions.md §6, "Answers one byte a character"). GraphQL names are ASCII, but V8 keeps a
 * slice of a text holding any character past U+00FF (an em dash in a description) two bytes a
 * character. A schema's names become the keys of every answer object, and one such key makes
 * `JSON.stringify` build the whole answer two bytes a character: twice the bytes to copy, and a
 * conversion to UTF-8 on every write. A Latin-1 round trip of an ASCII name is exact.
 */
function withOneByteNames(document: DocumentNode): DocumentNode {
  return visit(document, { Name: (node) => ({ ...node, value: Buffer.from(node.value, 'latin1').toString('latin1') }) });
}

/**
 * The executable schema: `sdl` with `resolvers`, masked entity fields and, when the SDL declares
 * it, the DateTime scalar. The scalar's resolver is added only then, since resolvers are checked
 * against the schema (`requireResolversToMatchSchema`) and the generator declares the scalar only
 * for applications with a `Date` column.
 */
export function buildExecutableSchema(
  sdl: string,
  resolvers: IResolvers<unknown, GraphQLContext>,
  entities: readonly EntityDescriptor[],
): GraphQLSchema {
  const document = withOneByteNames(parse(sdl));
  const masking: Record<string, Record<string, unknown>> = {};
  for (const entity of entities) {
    const nonNull = nonNullFields(document, entity.name);
    const nullable = entity.fields.filter((field) => !nonNull.has(field));
    if (nullable.length > 0) masking[entity.name] = Object.fromEntries(nullable.map((field) => [field, nullableColumnResolver(field)]));
  }
  const scalars: IResolvers<unknown, GraphQLContext> = declaresScalar(document, 'DateTime') ? { DateTime: DateTimeScalar } : {};
  return makeExecutableSchema<GraphQLContext>({
    typeDefs: document,
    resolvers: [scalars, masking as IResolvers<unknown, GraphQLContext>, resolvers],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
