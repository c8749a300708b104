/**
 * Random GraphQL documents built from a schema, for the property suites: selections of real fields
 * with arguments, aliases, inline fragments and named fragments spread once or several times, and
 * hostile shapes that amplify a small text into a huge expansion.
 */
import fc from 'fast-check';
import {
  getNamedType,
  type GraphQLInputType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLSchema,
  isEnumType,
  isScalarType,
} from 'graphql';

/** Options of {@link documentArbitrary}. */
export interface DocumentOptions {
  /** Ids the string arguments draw from (besides random text). */
  readonly ids: readonly string[];
  /** Deepest object level a selection reaches (root fields are level 1). */
  readonly maxDepth?: number;
  /** Whether to declare named fragments and spread them (once or several times). */
  readonly fragments?: boolean;
  /** Text string arguments may take besides ids. */
  readonly text?: fc.Arbitrary<string>;
  /** Share of mutations among the documents (0..1). */
  readonly mutations?: number;
}

type Gen = fc.GeneratorValue;

/** Documents of one operation named `Fuzz`, built from `schema`'s query (and mutation) fields. */
export function documentArbitrary(schema: GraphQLSchema, options: DocumentOptions): fc.Arbitrary<string> {
  const maxDepth = options.maxDepth ?? 4;
  const text = options.text ?? fc.string({ maxLength: 20 });
  const mutations = options.mutations ?? 0.1;

  function literal(g: Gen, type: GraphQLInputType): string {
    if (type instanceof GraphQLNonNull) return literal(g, type.ofType);
    if (type instanceof GraphQLList) return `[${literal(g, type.ofType)}]`;
    if (type instanceof GraphQLInputObjectType) {
      const fields = Object.values(type.getFields()).filter((field) => field.type instanceof GraphQLNonNull || g(fc.boolean));
      return `{ ${fields.map((field) => `${field.name}: ${literal(g, field.type)}`).join(', ')} }`;
    }
    if (isEnumType(type)) return g(() => fc.constantFrom(...type.getValues().map((value) => value.name)));
    if (isScalarType(type) && type.name === 'Int') return String(g(() => fc.oneof(fc.integer({ min: -5, max: 150 }), fc.integer())));
    if (isScalarType(type) && type.name === 'Boolean') return String(g(fc.boolean));
    return JSON.stringify(g(() => fc.oneof(fc.constantFrom(...options.ids), fc.uuid(), fc.emailAddress(), text, fc.constant(''))));
  }

  return fc.gen().map((g) => {
    const fragments: string[] = [];
    /** Aliases are unique in the document, so no two fields conflict when fragments merge. */
    let aliases = 0;
    /** The arguments each `Type.field` was first selected with, unaliased: others need an alias. */
    const unaliased = new Map<string, string>();
    /** Fragments declared so far, by type: reused by later spreads. */
    const byType = new Map<string, string[]>();

    function selection(type: GraphQLObjectType, depth: number): string {
      const fields = Object.values(type.getFields());
      let picked = fields.filter(() => g(fc.boolean));
      if (picked.length === 0) picked = [fields[g(fc.nat, { max: fields.length - 1 })]!];
      const parts: string[] = [];
      for (const field of picked) {
        const named = getNamedType(field.type);
        if (named instanceof GraphQLObjectType && depth >= maxDepth) continue;
        const args = field.args
          .filter((arg) => arg.type instanceof GraphQLNonNull || g(fc.boolean))
          .map((arg) => `${arg.name}: ${literal(g, arg.type)}`);
        const copies = g(fc.nat, { max: 9 }) === 0 ? 2 + g(fc.nat, { max: 3 }) : 1;
        for (let copy = 0; copy < copies; copy++) {
          // Two unaliased selections of a field with different arguments would merge into a
          // conflict validation refuses, which would make the document uninteresting: a field is
          // aliased when it was selected before with other arguments, and now and then anyway.
          const key = `${type.name}.${field.name}`;
          const written = args.join(', ');
          const clash = unaliased.has(key) && unaliased.get(key) !== written;
          const alias = clash || copies > 1 || g(fc.nat, { max: 5 }) === 0 ? `a${aliases++}: ` : '';
          if (!alias && !unaliased.has(key)) unaliased.set(key, written);
          const head = `${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}`;
          parts.push(named instanceof GraphQLObjectType ? `${head} { ${selection(named, depth + 1)} }` : head);
        }
      }
      if (options.fragments && depth < maxDepth) {
        const kind = g(fc.nat, { max: 5 });
        if (kind === 0) parts.push(`... on ${type.name} { ${selection(type, depth + 1)} }`);
        else if (kind === 1) {
          const known = byType.get(type.name) ?? [];
          const reuse = known.length > 0 && g(fc.boolean);
          const name = reuse ? known[g(fc.nat, { max: known.length - 1 })]! : `F${fragments.length}`;
          if (!reuse) {
            // Registered for reuse only once its body exists, so no selection inside it can spread
            // it (a cycle, which validation refuses); its slot keeps the declaration order.
            fragments.push('');
            const index = fragments.length - 1;
            const body = selection(type, depth + 1);
            fragments[index] = `fragment ${name} on ${type.name} { ${body} }`;
            byType.set(type.name, [...known, name]);
          }
          parts.push(`...${name}`);
        }
      }
      return parts.length ? parts.join(' ') : '__typename';
    }

    const mutation = g(fc.double, { min: 0, max: 1, noNaN: true }) < mutations;
    const root = (mutation ? schema.getMutationType() : schema.getQueryType())!;
    const body = selection(root, 1);
    return [`${mutation ? 'mutation' : 'query'} Fuzz { ${body} }`, ...fragments.filter((fragment) => fragment !== '')].join('\n');
  });
}

/**
 * Documents of under a few KB whose expansion is enormous, in the shapes that amplify: fragments
 * that each spread the next one twice (or more), aliased copies of a relation around the spread,
 * nested connections, and a long chain of fragments each adding a level. Every one of them must be
 * refused before any costly step (docs/hostile-input.md §2).
 */
export function amplifiedDocumentArbitrary(): fc.Arbitrary<string> {
  const levels = fc.integer({ min: 12, max: 60 });
  const fanOut = fc.integer({ min: 2, max: 4 });
  return fc.oneof(
    // Each fragment spreads the next `fanOut` times on the root type.
    fc.tuple(levels, fanOut).map(([n, k]) => {
      const lines = ['query { ...F0 }'];
      for (let i = 0; i < n; i++)
        lines.push(`fragment F${i} on Query { me { id } ${Array.from({ length: k }, () => `...F${i + 1}`).join(' ')} }`);
      lines.push(`fragment F${n} on Query { orgs { id } }`);
      return lines.join('\n');
    }),
    // Aliased copies of a relation, each spreading the next fragment.
    fc.tuple(levels, fanOut).map(([n, k]) => {
      const lines = ['query { users { ...F0 } }'];
      for (let i = 0; i < n; i++)
        lines.push(
          `fragment F${i} on User { ${Array.from({ length: k }, (_, j) => `a${j}: org { users { edges { node { ...F${i + 1} } } } }`).join(' ')} }`,
        );
      lines.push(`fragment F${n} on User { id }`);
      return lines.join('\n');
    }),
    // Unaliased repeats (merged by execution, expanded by naive walkers).
    fc.tuple(levels, fanOut).map(([n, k]) => {
      const lines = ['query { users { ...F0 } }'];
      for (let i = 0; i < n; i++)
        lines.push(
          `fragment F${i} on User { ${Array.from({ length: k }, () => `posts { edges { node { author { ...F${i + 1} } } } }`).join(' ')} }`,
        );
      lines.push(`fragment F${n} on User { id }`);
      return lines.join('\n');
    }),
    // Inline fragments doubling inside one fragment chain.
    fc.tuple(levels, fanOut).map(([n, k]) => {
      const lines = ['query { ...F0 }'];
      for (let i = 0; i < n; i++)
        lines.push(`fragment F${i} on Query { ${Array.from({ length: k }, () => `... on Query { ...F${i + 1} }`).join(' ')} }`);
      lines.push(`fragment F${n} on Query { users { id name } }`);
      return lines.join('\n');
    }),
  );
}

/** Fragments F0..F(n-1) each spreading the next one twice: 2^n expanded fields from ~60n bytes. */
export function doublingDocument(levels: number): string {
  const lines = ['query { ...F0 }'];
  for (let i = 0; i < levels; i++) lines.push(`fragment F${i} on Query { me { id } ...F${i + 1} ...F${i + 1} }`);
  lines.push(`fragment F${levels} on Query { orgs { id } }`);
  return lines.join('\n');
}

/** A document of about `bytes` characters: `unit` repeated inside `head … tail`. */
function filledDocument(bytes: number, unit: (index: number) => string, head = '{ users { ', tail = ' } }'): string {
  const parts: string[] = [head];
  let length = head.length + tail.length;
  for (let index = 0; length < bytes; index++) {
    const piece = `${unit(index)} `;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('') + tail;
}

/** One hostile shape: its worst document near the body limit, and the code that refuses it. */
export interface HostileShape {
  readonly shape: string;
  readonly query: string;
  readonly code: string;
}

/**
 * The worst document of each hostile shape that fits in `bodyLimit` bytes of JSON (default the
 * server's 100 kB), with the code the default limits refuse it with (docs/hostile-input.md §2).
 * Shapes that pass the token bound at that size are refused by it; the others are the largest
 * documents of their shape within it.
 */
export function hostileShapes(bodyLimit = 100 * 1024): HostileShape[] {
  const body = bodyLimit - 200;
  return [
    { shape: 'tokens', query: filledDocument(body, () => 'id'), code: 'TOKEN_LIMIT' },
    { shape: 'aliases at the body limit', query: filledDocument(body, (index) => `a${index}: id`), code: 'TOKEN_LIMIT' },
    {
      shape: 'nesting at the body limit',
      query: `{ ${'users { org { '.repeat(Math.floor(body / 32))}id${' } }'.repeat(Math.floor(body / 32))} }`,
      code: 'NESTING_LIMIT',
    },
    { shape: 'a fragment chain at the body limit', query: doublingDocument(Math.floor(body / 70)), code: 'TOKEN_LIMIT' },
    {
      shape: 'operations',
      query: Array.from({ length: 21 }, (_, index) => `query Q${index} { me { id } }`).join('\n'),
      code: 'OPERATION_LIMIT',
    },
    { shape: 'directives', query: `{ me ${'@include(if: true) '.repeat(11)}{ id } }`, code: 'DIRECTIVE_LIMIT' },
    { shape: 'aliases', query: `{ ${Array.from({ length: 31 }, (_, index) => `a${index}: me { id }`).join(' ')} }`, code: 'ALIAS_LIMIT' },
    { shape: 'fragments spreading the next twice', query: doublingDocument(40), code: 'FIELD_LIMIT' },
    {
      shape: 'depth',
      query: `{ users { ${'posts { edges { node { author { '.repeat(6)}id${' } } } }'.repeat(6)} } }`,
      code: 'DEPTH_LIMIT',
    },
    {
      shape: 'complexity',
      query: `{ ${Array.from({ length: 25 }, (_, index) => `a${index}: users(first: 100) { posts(first: 100) { edges { node { id } } } }`).join(' ')} }`,
      code: 'COMPLEXITY_LIMIT',
    },
  ];
}
