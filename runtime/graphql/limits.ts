/**
 * Query limits (spec §8, PRODUCT.md §4): complexity and depth, checked on a validated operation
 * before it runs. Over `APP_GRAPHQL__MAX_COMPLEXITY` → `COMPLEXITY_LIMIT` with the computed score;
 * over `APP_GRAPHQL__MAX_DEPTH` → `DEPTH_LIMIT`. Every executed operation reports what it cost in
 * `extensions.cost` ({ complexity, limit }).
 *
 * Scoring (spec §8), computed by `graphql-query-complexity` with one estimator:
 * - a field scores 1 + its children;
 * - a has_many relation scores `first × children` (`first` as the page will use it: absent → 20,
 *   clamped to 1..=100), so a three-level chain at default size scores 20^3;
 * - a belongs_to relation keeps the additive default;
 * - `@Complexity(expr)` on a field overrides its score; the expression may name `first`;
 * - connection plumbing (`edges`, `node`, `pageInfo`, `cursor`, …) is transparent: it adds
 *   nothing, so the cost is the rows and fields actually selected.
 *
 * Depth counts field levels the same way: plumbing levels do not count (graphql-armor's depth
 * rule counts `edges` and `node` as levels, which would make a three-level has_many chain read
 * as thirteen), and introspection is exempt.
 */
import { LRUCache } from 'lru-cache';
import { type ExecutionArgs, type FieldNode, type FragmentDefinitionNode, getNamedType, getOperationAST, GraphQLError, type GraphQLObjectType, type GraphQLSchema, isObjectType, Kind, type SelectionSetNode } from 'graphql';
import { type ComplexityEstimatorArgs, getComplexity } from 'graphql-query-complexity';
import { clampPageSize } from '../keyset.js';

/** What a field's score is computed from. */
export interface ComplexityInput {
  /** The page size the field will use (absent → 20, clamped to 1..=100). */
  readonly first: number;
  /** The score of the field's selection. */
  readonly childComplexity: number;
}

/** The score of one field (`Type.field` → function), as generated in `graphql/complexity.ts`. */
export type FieldComplexity = (input: ComplexityInput) => number;

/** Limits and scoring of one schema. */
export interface LimitOptions {
  readonly maxComplexity: number;
  readonly maxDepth: number;
  /** Scores of relation fields and `@Complexity` overrides, by `Type.field`. */
  readonly fieldComplexity: Readonly<Record<string, FieldComplexity>>;
  /** Connection, edge and page-info type names: transparent for scoring and depth. */
  readonly connectionTypes: ReadonlySet<string>;
}

/** The outcome of checking one operation. */
export interface LimitCheck {
  readonly errors: readonly GraphQLError[];
  readonly extensions?: Record<string, unknown>;
}

/** Checks operations against the limits of `options`. */
export class QueryLimits {
  constructor(private readonly options: LimitOptions) {}

  /** The estimator implementing the spec's scoring. */
  private estimate = ({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number => {
    const scored = this.options.fieldComplexity[`${type.name}.${field.name}`];
    if (scored) return scored({ first: clampPageSize(args.first as number | null | undefined), childComplexity });
    if (this.options.connectionTypes.has(type.name)) return childComplexity;
    return 1 + childComplexity;
  };

  /** The depth of an operation in entity levels (plumbing and introspection do not count). */
  depth(schema: GraphQLSchema, document: ExecutionArgs['document'], operationName: string | null | undefined): number {
    const operation = getOperationAST(document, operationName);
    if (!operation) return 0;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    const root = schema.getRootType(operation.operation);
    return root ? this.selectionDepth(schema, root, operation.selectionSet, fragments, new Set()) : 0;
  }

  private selectionDepth(schema: GraphQLSchema, type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, visiting: Set<string>): number {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        deepest = Math.max(deepest, this.fieldDepth(schema, type, selection, fragments, visiting));
      } else {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        const name = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : undefined;
        if (!fragment || (name && visiting.has(name))) continue;
        if (name) visiting.add(name);
        const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
        if (condition && isObjectType(condition)) deepest = Math.max(deepest, this.selectionDepth(schema, condition, fragment.selectionSet, fragments, visiting));
        if (name) visiting.delete(name);
      }
    }
    return deepest;
  }

  private fieldDepth(schema: GraphQLSchema, type: GraphQLObjectType, node: FieldNode, fragments: Map<string, FragmentDefinitionNode>, visiting: Set<string>): number {
    const name = node.name.value;
    if (name.startsWith('__')) return 0;
    const own = this.options.connectionTypes.has(type.name) ? 0 : 1;
    const fieldType = type.getFields()[name]?.type;
    const named = fieldType ? getNamedType(fieldType) : undefined;
    if (!node.selectionSet || !named || !isObjectType(named)) return own;
    return own + this.selectionDepth(schema, named, node.selectionSet, fragments, visiting);
  }

  /** Results already computed, per document, then operation name and variables. */
  private readonly checked = new WeakMap<ExecutionArgs['document'], LRUCache<string, LimitCheck>>();

  /**
   * Checks one validated operation: refusals before it runs, and the cost it reports. The result
   * depends only on the document, operation name and variables (scores read `first`), so it is
   * computed once per distinct combination.
   */
  check(args: ExecutionArgs): LimitCheck {
    let byInput = this.checked.get(args.document);
    if (!byInput) {
      byInput = new LRUCache<string, LimitCheck>({ max: 256 });
      this.checked.set(args.document, byInput);
    }
    const key = `${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
    const cached = byInput.get(key);
    if (cached) return cached;
    const result = this.compute(args);
    // A check that variables could not be scored with is not remembered (execution refuses it).
    if (result.errors.length > 0 || result.extensions) byInput.set(key, result);
    return result;
  }

  private compute(args: ExecutionArgs): LimitCheck {
    const { maxDepth, maxComplexity } = this.options;
    const depth = this.depth(args.schema, args.document, args.operationName);
    if (depth > maxDepth) {
      return { errors: [new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}; select fewer nested levels`, { extensions: { code: 'DEPTH_LIMIT', depth, limit: maxDepth } })] };
    }
    let complexity: number;
    try {
      complexity = getComplexity({
        schema: args.schema,
        query: args.document,
        operationName: args.operationName ?? undefined,
        variables: (args.variableValues ?? {}) as Record<string, unknown>,
        estimators: [this.estimate],
      });
    } catch {
      // Variables that do not coerce: execution refuses the operation with BAD_USER_INPUT.
      return { errors: [] };
    }
    if (complexity > maxComplexity) {
      return {
        errors: [
          new GraphQLError(`query complexity ${complexity} exceeds the limit of ${maxComplexity}; ask for smaller pages (first) or fewer nested relations`, {
            extensions: { code: 'COMPLEXITY_LIMIT', complexity, limit: maxComplexity },
          }),
        ],
      };
    }
    return { errors: [], extensions: { cost: { complexity, limit: maxComplexity } } };
  }
}
