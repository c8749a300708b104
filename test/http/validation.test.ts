/**
 * Field merging in linear time (docs/hostile-input.md §2; runtime/graphql/validation.ts): the
 * generator's schemas have no interfaces or unions, where "these fields can be merged" is an
 * equivalence; FieldMergeRule must refuse exactly the documents graphql-js's
 * OverlappingFieldsCanBeMergedRule refuses, on generated documents full of collisions, and do it
 * without comparing every pair.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  GraphQLObjectType,
  OverlappingFieldsCanBeMergedRule,
  parse,
  SingleFieldSubscriptionsRule,
  specifiedRules,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { FieldMergeRule, validationRules } from '../../runtime/graphql/validation.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';

const schema = buildSchema(readFileSync(new URL('../../generated/schema.graphql', import.meta.url), 'utf8'));
const counts: Record<string, number> = {};

/**
 * Documents whose fields collide on purpose: response names drawn from a small pool of aliases,
 * arguments from a small pool of values, the same fields again through inline fragments and named
 * fragments spread in several places.
 */
const collidingDocuments = fc.gen().map((g) => {
  const fragments: string[] = [];
  const selection = (type: GraphQLObjectType, depth: number): string => {
    const fields = Object.values(type.getFields());
    const parts: string[] = [];
    const count = 1 + g(fc.nat, { max: 4 });
    for (let index = 0; index < count; index++) {
      const field = fields[g(fc.nat, { max: fields.length - 1 })]!;
      const named = getNamedType(field.type);
      if (named instanceof GraphQLObjectType && depth >= 4) continue;
      const alias = g(fc.constantFrom, '', '', 'x: ', 'y: ');
      const args = field.args
        .filter((argument) => argument.name === 'first' && g(fc.boolean))
        .map(() => `first: ${g(fc.constantFrom, 1, 2)}`);
      const head = `${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}`;
      parts.push(named instanceof GraphQLObjectType ? `${head} { ${selection(named, depth + 1)} }` : head);
    }
    const extra = g(fc.nat, { max: 5 });
    if (extra === 0 && depth < 4) parts.push(`... on ${type.name} { ${selection(type, depth + 1)} }`);
    if (extra === 1 && depth < 4) {
      const name = `F${fragments.length}`;
      fragments.push('');
      const index = fragments.length - 1;
      fragments[index] = `fragment ${name} on ${type.name} { ${selection(type, depth + 1)} }`;
      const spreads = 1 + g(fc.nat, { max: 2 });
      for (let spread = 0; spread < spreads; spread++) parts.push(`...${name}`);
    }
    return parts.length > 0 ? parts.join(' ') : '__typename';
  };
  const body = selection(schema.getQueryType()!, 1);
  return [`query { ${body} }`, ...fragments].join('\n');
});

describe('FieldMergeRule', () => {
  it("replaces graphql-js's rule only on schemas without interfaces or unions", () => {
    expect(validationRules(schema)).toContain(FieldMergeRule);
    expect(validationRules(schema)).not.toContain(OverlappingFieldsCanBeMergedRule);
    const abstract = buildSchema('interface Node { id: ID! } type User implements Node { id: ID! } type Query { node: Node }');
    expect(validationRules(abstract)).toContain(OverlappingFieldsCanBeMergedRule);
    expect(validationRules(abstract)).not.toContain(FieldMergeRule);
    // Every other rule is graphql-js's, but the single-root-field rule, which also refuses @skip and @include at a subscription's root.
    expect(validationRules(abstract).filter((rule) => !specifiedRules.includes(rule))).toHaveLength(1);
    expect(validationRules(abstract)).not.toContain(SingleFieldSubscriptionsRule);
  });

  it('refuses what graphql-js refuses and accepts what it accepts (property)', () => {
    fc.assert(
      fc.property(collidingDocuments, (query) => {
        const document = parse(query);
        const theirs = validate(schema, document, [OverlappingFieldsCanBeMergedRule]);
        const ours = validate(schema, document, [FieldMergeRule]);
        counts[theirs.length > 0 ? 'conflicting documents' : 'mergeable documents'] =
          (counts[`${theirs.length > 0 ? 'conflicting' : 'mergeable'} documents`] ?? 0) + 1;
        expect(
          ours.length > 0,
          `${query}\ngraphql-js: ${theirs.map((error) => error.message).join('; ')}\nours: ${ours.map((error) => error.message).join('; ')}`,
        ).toBe(theirs.length > 0);
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS * 10 },
    );
    reportFigures({ suite: 'validation', seed: PROPERTY_SEED, runs: PROPERTY_RUNS * 10, counts });
    // Both outcomes were exercised.
    expect(counts['conflicting documents']).toBeGreaterThan(PROPERTY_RUNS / 2);
    expect(counts['mergeable documents']).toBeGreaterThan(PROPERTY_RUNS / 2);
  });

  it('words a conflict as graphql-js does, nested reasons included', () => {
    const messages = (query: string, rule: typeof FieldMergeRule): string[] =>
      validate(schema, parse(query), [rule]).map((error) => error.message);
    for (const query of [
      '{ users { x: id x: name } }',
      '{ users { posts(first: 1) { pageInfo { hasNextPage } } posts(first: 2) { pageInfo { hasNextPage } } } }',
      '{ users { org { v: id } } users { org { v: name } } }',
      '{ a: users(first: 1) { id } a: users(first: 2) { id } }',
      '{ users { ...A } } fragment A on User { org { v: id } ...B } fragment B on User { org { v: name } }',
    ]) {
      expect(messages(query, FieldMergeRule), query).toEqual(messages(query, OverlappingFieldsCanBeMergedRule));
    }
  });

  it('checks a document repeating one relation 138 times with one comparison per field', () => {
    // graphql-js 16.15 compares every pair (and stops at 500 000 comparisons): ~48 ms here.
    const query = `{ users { ${Array.from({ length: 138 }, () => 'org { users { edges { node { id } } } }').join(' ')} } }`;
    expect(validate(schema, parse(query), [FieldMergeRule])).toEqual([]);
    const conflicting = `${query.slice(0, -4)} org { users(first: 3) { edges { node { id } } } } } }`;
    expect(validate(schema, parse(conflicting), [FieldMergeRule]).map((error) => error.message)).toEqual([
      'Fields "org" conflict because subfields "users" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.',
    ]);
  });
});
