/**
 * Builds the executable schema at boot from the committed SDL and the generated resolvers
 * (`@graphql-tools/schema`), adding the `DateTime` scalar and, on every entity column field, the
 * masking check (spec §2.1, §5.5, §7): a non-null field removed by masking answers `FORBIDDEN`
 * naming it; a nullable one is `null`.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import { type GraphQLResolveInfo, type GraphQLSchema, isNonNullType } from 'graphql';
import { MASKED_FIELDS, type MaskedRow } from '../ability.js';
import type { EntityDescriptor } from '../entity-metadata.js';
import { forbiddenField } from '../posture.js';
import type { GraphQLContext } from './context.js';
import { DateTimeScalar } from './scalars.js';

function maskedFieldResolver(entity: string, field: string): (parent: MaskedRow<Record<string, unknown>>, args: unknown, context: unknown, info: GraphQLResolveInfo) => unknown {
  return (parent, _args, _context, info) => {
    if (!parent[MASKED_FIELDS]?.has(field)) return parent[field];
    if (isNonNullType(info.returnType)) throw forbiddenField(entity, field);
    return null;
  };
}

/** The executable schema: `sdl` with `resolvers`, the DateTime scalar and masked entity fields. */
export function buildExecutableSchema(sdl: string, resolvers: IResolvers<unknown, GraphQLContext>, entities: readonly EntityDescriptor[]): GraphQLSchema {
  const masking: Record<string, Record<string, unknown>> = {};
  for (const entity of entities) {
    masking[entity.name] = Object.fromEntries(entity.fields.map((field) => [field, maskedFieldResolver(entity.name, field)]));
  }
  return makeExecutableSchema<GraphQLContext>({
    typeDefs: sdl,
    resolvers: [{ DateTime: DateTimeScalar }, masking as IResolvers<unknown, GraphQLContext>, resolvers],
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
