/**
 * Custom scalars of the schema (docs/behaviour.md §2): `DateTime`. Shared by the generator (which prints the
 * SDL) and the runtime (which serializes values), so both describe it identically.
 */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { isoInstant } from '../data/instant.js';

/** `DateTime`: an ISO-8601 instant on the wire, a `Date` in resolvers. */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An instant, as an ISO-8601 string in UTC (for example 2000-01-31T09:30:00.000Z).',
  serialize(value) {
    const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent a non-date value');
    return isoInstant(date);
  },
  parseValue(value) {
    const date = typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime expects an ISO-8601 string');
    return date;
  },
  parseLiteral(node) {
    if (node.kind !== Kind.STRING) throw new GraphQLError('DateTime expects an ISO-8601 string', { nodes: node });
    const date = new Date(node.value);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime expects an ISO-8601 string', { nodes: node });
    return date;
  },
});
