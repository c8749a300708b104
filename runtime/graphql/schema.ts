/**
 * Builds the executable schema at boot from the committed SDL and the generated resolvers
 * (`@graphql-tools/schema`), adding the `DateTime` scalar (when the SDL declares it: only applications
 * with a `Date` column do) and, on every entity column field, the
 * masking check (docs/behaviour.md §2.1, §5.5, §7): a non-null field removed by masking answers `FORBIDDEN`
 * naming it; a nullable one is `null`.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import { type DocumentNode, type GraphQLResolveInfo, type GraphQLSchema, isNonNullType, Kind, parse, visit } from 'graphql';
import { MASKED_FIELDS, type MaskedRow } from '../auth/ability.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import { forbiddenField } from '../auth/posture.js';
import type { GraphQLContext } from './context.js';
import { DateTimeScalar } from './scalars.js';

function maskedFieldResolver(
  entity: string,
  field: string,
): (parent: MaskedRow<Record<string, unknown>>, args: unknown, context: unknown, info: GraphQLResolveInfo) => unknown {
  return (parent, _args, _context, info) => {
    if (!parent[MASKED_FIELDS]?.has(field)) return parent[field];
    if (isNonNullType(info.returnType)) throw forbiddenField(entity, field);
    return null;
  };
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
  const masking: Record<string, Record<string, unknown>> = {};
  for (const entity of entities) {
    masking[entity.name] = Object.fromEntries(entity.fields.map((field) => [field, maskedFieldResolver(entity.name, field)]));
  }
  const document = withOneByteNames(parse(sdl));
  const scalars: IResolvers<unknown, GraphQLContext> = declaresScalar(document, 'DateTime') ? { DateTime: DateTimeScalar } : {};
  return makeExecutableSchema<GraphQLContext>({
    typeDefs: document,
    resolvers: [scalars, masking as IResolvers<unknown, GraphQLContext>, resolvers],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
