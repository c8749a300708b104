/**
 * Query limits (docs/behaviour.md §8, docs/decisions.md §4 and §7; docs/hostile-input.md §2 and §3). Every step
 * between receiving a document and executing it costs at most linear time in the document's size,
 * and every check fails closed.
 *
 * Two passes, each walking every fragment once and reusing its result wherever it is spread:
 *
 * 0. {@link scanDocument}, before parsing: tokens per document and brackets open at once, counted
 *    by graphql-js's lexer, which never recurses. A parser stopped deep inside a document (and every
 *    recursive walk after it) costs ten times what a flat one does; neither happens past the bounds.
 * 1. {@link measureDocument}, before validation (the first costly step): operations per document,
 *    directives per location, aliases and fields once every fragment is expanded. A document of
 *    under 1 KB whose fragments each spread the next twice expands to millions of fields; it is
 *    refused here in microseconds, before graphql-js validation, scoring or compilation see it.
 * 2. {@link QueryLimits.check}, on a validated operation: depth and complexity.
 *
 * Scoring (docs/behaviour.md §8) counts what execution will do:
 * - a field scores 1 + its children;
 * - a has_many relation scores `first × children` (`first` as the page will use it: absent → 20,
 *   clamped to 1..=100), so a three-level chain at default size scores 20^3;
 * - an operation returning a keyset page scores `first × children` like a has_many, and one
 *   returning a whole list `LIST_CAP × children` (generated in `graphql/complexity.ts`);
 * - a belongs_to relation keeps the additive default;
 * - `@Complexity(expr)` on a field overrides its score; the expression may name `first`;
 * - such a scored field's children count at least 1: every row it loads costs something, even
 *   when only `pageInfo` is selected;
 * - connection plumbing (`edges`, `node`, `pageInfo`, `cursor`, …) is transparent: it adds
 *   nothing, so the cost is the rows and fields actually selected;
 * - every occurrence counts: aliases, inline fragments, each spread of a fragment, every root
 *   field. Fields execution would merge are counted once per occurrence, so the score is an upper
 *   bound of the rows execution materialises.
 *
 * Depth counts field levels the same way: plumbing levels do not count (graphql-armor's depth
 * rule counts `edges` and `node` as levels, which would make a three-level has_many chain read
 * as thirteen), and introspection is exempt.
 *
 * Failing closed: a score that is not a finite number, a variable that does not coerce, or any
 * error thrown while measuring refuses the operation; nothing unscored runs.
 */
import {
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  type SelectionSetNode,
  SchemaMetaFieldDef,
  Source,
  TokenKind,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { clampPageSize } from '../data/keyset.js';
import { coerceVariables } from './inputs.js';

/** What a field's score is computed from. */
interface ComplexityInput {
  /** The page size the field will use (absent → 20, clamped to 1..=100). */
  readonly first: number;
  /** The score of the field's selection, at least 1. */
  readonly childComplexity: number;
}

/** The score of one field (`Type.field` → function), as generated in `graphql/complexity.ts`. */
export type FieldComplexity = (input: ComplexityInput) => number;

/**
 * Bounds checked on a parsed document before it is validated (docs/hostile-input.md §2), each an
 * `APP_GRAPHQL__` setting.
 */
export interface DocumentBounds {
  /** Operations one document may define (`APP_GRAPHQL__MAX_OPERATIONS`). */
  readonly maxOperations: number;
  /** Directives on one location: a field, fragment, operation or variable (`APP_GRAPHQL__MAX_DIRECTIVES`). */
  readonly maxDirectives: number;
  /** Aliases once every fragment is expanded (`APP_GRAPHQL__MAX_ALIASES`). */
  readonly maxAliases: number;
  /** Field selections once every fragment is expanded (`APP_GRAPHQL__MAX_FIELDS`). */
  readonly maxFields: number;
}

/** Bounds checked while lexing, before a document is parsed (docs/hostile-input.md §2). */
export interface LexicalBounds {
  /** Tokens one document may have (`APP_GRAPHQL__MAX_TOKENS`). */
  readonly maxTokens: number;
  /** Brackets (`{`, `(`, `[`) open at once (`APP_GRAPHQL__MAX_NESTING`). */
  readonly maxNesting: number;
}

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

/**
 * Lexes `query` with graphql-js's lexer, stopping at the first bound it passes: more than
 * `maxTokens` tokens (`TOKEN_LIMIT`) or more than `maxNesting` brackets open at once
 * (`NESTING_LIMIT`, located at the bracket). Linear in the text up to that point, and iterative.
 * Returns the refusal, or undefined. Throws the lexer's syntax error (a GraphQLError) for text
 * that is not GraphQL.
 */
export function scanDocument(query: string, bounds: LexicalBounds): GraphQLError | undefined {
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  let open = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    tokens += 1;
    if (tokens > bounds.maxTokens) {
      return new GraphQLError(`the document has more than ${bounds.maxTokens} tokens (APP_GRAPHQL__MAX_TOKENS); send a smaller document`, {
        extensions: { code: 'TOKEN_LIMIT', limit: bounds.maxTokens },
      });
    }
    if (OPENING.has(token.kind)) {
      open += 1;
      if (open > bounds.maxNesting) {
        return new GraphQLError(
          `the document nests more than ${bounds.maxNesting} brackets deep (APP_GRAPHQL__MAX_NESTING); ask for fewer nested levels`,
          { source: lexer.source, positions: [token.start], extensions: { code: 'NESTING_LIMIT', limit: bounds.maxNesting } },
        );
      }
    } else if (CLOSING.has(token.kind)) open -= 1;
  }
  return undefined;
}

/** Counts stop growing here: an expansion past it is refused anyway, and sums stay exact integers. */
const SATURATED = Number.MAX_SAFE_INTEGER;

const add = (left: number, right: number): number => Math.min(SATURATED, left + right);

/** Fields and aliases of one selection once its fragments are expanded. */
interface Expansion {
  fields: number;
  aliases: number;
}

/**
 * Checks `document` against `bounds` in one pass linear in its size: every fragment's expansion
 * is computed once and reused wherever it is spread (a fragment spreading itself, which validation
 * refuses later, counts as empty). Returns the refusal — `OPERATION_LIMIT`, `DIRECTIVE_LIMIT`,
 * `ALIAS_LIMIT` or `FIELD_LIMIT` with the measured count and the limit in `extensions` — or
 * undefined when the document is within every bound. Never throws for a document's content.
 */
export function measureDocument(document: DocumentNode, bounds: DocumentBounds): GraphQLError | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  if (operations.length > bounds.maxOperations) {
    return refusal(
      `the document defines ${operations.length} operations; at most ${bounds.maxOperations} (APP_GRAPHQL__MAX_OPERATIONS): send one operation per request`,
      'OPERATION_LIMIT',
      { operations: operations.length, limit: bounds.maxOperations },
    );
  }

  let directives: { count: number; node: { readonly loc?: DocumentNode['loc'] } } | undefined;
  const checkDirectives = (node: { readonly directives?: readonly unknown[]; readonly loc?: DocumentNode['loc'] }): void => {
    const count = node.directives?.length ?? 0;
    if (count > bounds.maxDirectives && (!directives || count > directives.count)) directives = { count, node };
  };

  const expansions = new Map<string, Expansion | 'expanding'>();
  const expandFragment = (name: string): Expansion => {
    const known = expansions.get(name);
    if (known === 'expanding') return { fields: 0, aliases: 0 };
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment) return { fields: 0, aliases: 0 };
    expansions.set(name, 'expanding');
    const expansion = expandSelection(fragment.selectionSet);
    expansions.set(name, expansion);
    return expansion;
  };
  const expandSelection = (selectionSet: SelectionSetNode): Expansion => {
    const total: Expansion = { fields: 0, aliases: 0 };
    for (const selection of selectionSet.selections) {
      checkDirectives(selection);
      let part: Expansion;
      if (selection.kind === Kind.FIELD) {
        const child = selection.selectionSet ? expandSelection(selection.selectionSet) : { fields: 0, aliases: 0 };
        part = { fields: add(1, child.fields), aliases: add(selection.alias ? 1 : 0, child.aliases) };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        part = expandSelection(selection.selectionSet);
      } else {
        part = expandFragment(selection.name.value);
      }
      total.fields = add(total.fields, part.fields);
      total.aliases = add(total.aliases, part.aliases);
    }
    return total;
  };

  const expanded: Expansion = { fields: 0, aliases: 0 };
  for (const operation of operations) {
    checkDirectives(operation);
    for (const variable of operation.variableDefinitions ?? []) checkDirectives(variable);
    const part = expandSelection(operation.selectionSet);
    expanded.fields = add(expanded.fields, part.fields);
    expanded.aliases = add(expanded.aliases, part.aliases);
  }
  // Fragments no operation spreads are refused by validation; their directives are still bounded.
  for (const fragment of fragments.values()) {
    checkDirectives(fragment);
    if (!expansions.has(fragment.name.value)) expandFragment(fragment.name.value);
  }

  if (directives) {
    return refusal(
      `a location carries ${directives.count} directives; at most ${bounds.maxDirectives} (APP_GRAPHQL__MAX_DIRECTIVES)`,
      'DIRECTIVE_LIMIT',
      { directives: directives.count, limit: bounds.maxDirectives },
      directives.node,
    );
  }
  if (expanded.aliases > bounds.maxAliases) {
    return refusal(
      `the document uses ${countText(expanded.aliases)} aliases once its fragments are expanded; at most ${bounds.maxAliases} (APP_GRAPHQL__MAX_ALIASES)`,
      'ALIAS_LIMIT',
      { aliases: expanded.aliases, limit: bounds.maxAliases },
    );
  }
  if (expanded.fields > bounds.maxFields) {
    return refusal(
      `the document selects ${countText(expanded.fields)} fields once its fragments are expanded; at most ${bounds.maxFields} (APP_GRAPHQL__MAX_FIELDS): spread fewer fragments or ask for fewer fields`,
      'FIELD_LIMIT',
      { fields: expanded.fields, limit: bounds.maxFields },
    );
  }
  return undefined;
}

function countText(count: number): string {
  return count >= SATURATED ? 'more than 2^53' : String(count);
}

function refusal(
  message: string,
  code: string,
  extensions: Record<string, unknown>,
  node?: { readonly loc?: DocumentNode['loc'] },
): GraphQLError {
  const located = node?.loc ? { source: node.loc.source, positions: [node.loc.start] } : {};
  return new GraphQLError(message, { ...located, extensions: { code, ...extensions } });
}

/** Limits and scoring of one schema. */
export interface LimitOptions {
  readonly maxComplexity: number;
  readonly maxDepth: number;
  /** Scores of relation fields, list operations and `@Complexity` overrides, by `Type.field`. */
  readonly fieldComplexity: Readonly<Record<string, FieldComplexity>>;
  /** Connection, edge and page-info type names: transparent for scoring and depth. */
  readonly connectionTypes: ReadonlySet<string>;
  /**
   * Whether a variable's refusal may end with graphql-js's "Did you mean …?"; false when introspection
   * is off, since a suggestion spells the schema's input and enum names out (docs/hostile-input.md §10).
   */
  readonly suggestions: boolean;
}

/** The outcome of checking one operation. */
export interface LimitCheck {
  readonly errors: readonly GraphQLError[];
  readonly extensions?: Record<string, unknown>;
}

/** Score and depth of one selection. */
interface Cost {
  readonly score: number;
  readonly depth: number;
}

const NO_COST: Cost = { score: 0, depth: 0 };

/** Thrown inside the scorer when a field's score is not a finite, non-negative number. */
class UnscorableError extends Error {
  override readonly name = 'UnscorableError';
}

/** Checks operations against the limits of `options`. */
export class QueryLimits {
  /** Results of operations without variables, per document and operation name. */
  private readonly checked = new WeakMap<DocumentNode, LRUCache<string, LimitCheck>>();

  constructor(private readonly options: LimitOptions) {}

  /**
   * Checks one validated operation: refusals before it runs (`DEPTH_LIMIT`, `COMPLEXITY_LIMIT`,
   * `BAD_USER_INPUT` for variables that do not coerce) and the cost it reports. Linear in the
   * document's size. Any failure inside the check refuses the operation (`COMPLEXITY_LIMIT`, with
   * `complexity: null`): an operation that could not be scored never runs.
   */
  check(args: ExecutionArgs): LimitCheck {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return { errors: [new GraphQLError('no operation to check', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })] };
    // Without variables the result depends on the document and the operation alone.
    const cacheable = (operation.variableDefinitions ?? []).length === 0;
    let byOperation = cacheable ? this.checked.get(args.document) : undefined;
    const key = args.operationName ?? '';
    const cached = byOperation?.get(key);
    if (cached) return cached;
    let result: LimitCheck;
    try {
      result = this.compute(args.schema, args.document, operation, args.variableValues ?? {});
    } catch (error) {
      const message = error instanceof UnscorableError ? error.message : 'the operation could not be scored against the complexity limit';
      result = {
        errors: [
          new GraphQLError(`${message}; it is refused`, {
            extensions: { code: 'COMPLEXITY_LIMIT', complexity: null, limit: this.options.maxComplexity },
          }),
        ],
      };
    }
    if (cacheable) {
      if (!byOperation) {
        byOperation = new LRUCache<string, LimitCheck>({ max: 64 });
        this.checked.set(args.document, byOperation);
      }
      byOperation.set(key, result);
    }
    return result;
  }

  private compute(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    inputs: Readonly<Record<string, unknown>>,
  ): LimitCheck {
    const { maxDepth, maxComplexity } = this.options;
    // Bounded in what a refusal repeats, and no NUL in any text (runtime/graphql/inputs.ts).
    const coerced = coerceVariables(schema, operation.variableDefinitions ?? [], inputs, { suggestions: this.options.suggestions });
    if ('errors' in coerced) return { errors: coerced.errors };
    const root = schema.getRootType(operation.operation);
    if (!root)
      return {
        errors: [new GraphQLError(`the schema has no ${operation.operation} type`, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })],
      };
    const { score, depth } = new Scorer(schema, document, coerced.coerced, this.options).selection(root, operation.selectionSet);
    if (depth > maxDepth) {
      return {
        errors: [
          new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}; ask for fewer nested levels`, {
            extensions: { code: 'DEPTH_LIMIT', depth, limit: maxDepth },
          }),
        ],
      };
    }
    if (score > maxComplexity) {
      return {
        errors: [
          new GraphQLError(
            `query complexity ${countText(score)} exceeds the limit of ${maxComplexity}; ask for smaller pages (first) or fewer nested relations`,
            {
              extensions: { code: 'COMPLEXITY_LIMIT', complexity: Math.min(score, SATURATED), limit: maxComplexity },
            },
          ),
        ],
      };
    }
    return { errors: [], extensions: { cost: { complexity: score, limit: maxComplexity } } };
  }
}

/** One scoring pass over one operation: each fragment is scored once (its type is fixed). */
class Scorer {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly costs = new Map<string, Cost | 'scoring'>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Readonly<Record<string, unknown>>,
    private readonly options: LimitOptions,
  ) {
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
  }

  /** The cost of `selectionSet` selected on `type`: scores add up, depth is the deepest branch. */
  selection(type: GraphQLNamedType, selectionSet: SelectionSetNode): Cost {
    let score = 0;
    let depth = 0;
    for (const selection of selectionSet.selections) {
      let cost: Cost;
      if (selection.kind === Kind.FIELD) cost = this.field(type, selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        cost = this.selection(selection.typeCondition ? this.typeNamed(selection.typeCondition.name.value) : type, selection.selectionSet);
      else cost = this.fragment(selection.name.value);
      score = add(score, cost.score);
      depth = Math.max(depth, cost.depth);
    }
    return { score, depth };
  }

  private fragment(name: string): Cost {
    const known = this.costs.get(name);
    if (known === 'scoring') return NO_COST;
    if (known) return known;
    const fragment = this.fragments.get(name);
    if (!fragment) return NO_COST;
    this.costs.set(name, 'scoring');
    const cost = this.selection(this.typeNamed(fragment.typeCondition.name.value), fragment.selectionSet);
    this.costs.set(name, cost);
    return cost;
  }

  private typeNamed(name: string): GraphQLNamedType {
    const type = this.schema.getType(name);
    if (!type) throw new UnscorableError(`the document names a type the schema lacks (${name})`);
    return type;
  }

  private field(parent: GraphQLNamedType, node: FieldNode): Cost {
    const name = node.name.value;
    const definition = fieldDefinition(this.schema, parent, name);
    if (!definition) throw new UnscorableError(`the document selects ${parent.name}.${name}, which the schema lacks`);
    const named = getNamedType(definition.type);
    const child = node.selectionSet && isCompositeType(named) ? this.selection(named, node.selectionSet) : NO_COST;
    const plumbing = this.options.connectionTypes.has(parent.name);
    const depth = name.startsWith('__') ? 0 : (plumbing ? 0 : 1) + child.depth;
    if (plumbing) return { score: child.score, depth };
    const scored = this.options.fieldComplexity[`${parent.name}.${name}`];
    if (!scored) return { score: add(1, child.score), depth };
    const args = definition.args.some((argument) => argument.name === 'first') ? getArgumentValues(definition, node, this.variables) : {};
    const score = scored({ first: clampPageSize(args.first as number | null | undefined), childComplexity: Math.max(1, child.score) });
    if (typeof score !== 'number' || Number.isNaN(score) || score < 0)
      throw new UnscorableError(`the score of ${parent.name}.${name} is not a non-negative number`);
    return { score: Math.min(SATURATED, Math.ceil(score)), depth };
  }
}

/** The definition of `name` on `parent`, meta fields included; undefined when there is none. */
function fieldDefinition(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}
