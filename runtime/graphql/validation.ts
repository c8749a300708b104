/**
 * Validation of GraphQL documents in time linear in their expanded size (docs/hostile-input.md
 * §2). graphql-js's rules are linear but one: `OverlappingFieldsCanBeMergedRule` compares every
 * pair of fields sharing a response name, and every pair of fragments spread in one selection set,
 * so a small document repeating one relation is slow to validate (docs/hostile-input.md §2 has the
 * figure; graphql-js 16.15 stops it only at a fixed budget of 500 000 comparisons). {@link FieldMergeRule} decides the same question with one comparison per field.
 *
 * On a schema whose selections only ever meet fields of one object type — no interfaces, no unions,
 * which is every schema this generator emits — "these fields can be merged" is an equivalence:
 * same field name, same arguments, same response shape. So each field of a response name is compared
 * with the first one only, and their sub-selections are then merged and checked once, level by
 * level. Every field node of the expansion is visited once per place it is spread, and the
 * expansion is bounded before validation runs (`APP_GRAPHQL__MAX_FIELDS`). A schema with abstract
 * types keeps graphql-js's rule, whose "mutually exclusive parents" case needs pairs.
 */
import {
  type ArgumentNode,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type OperationDefinitionNode,
  OperationTypeNode,
  OverlappingFieldsCanBeMergedRule,
  print,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  SingleFieldSubscriptionsRule,
  specifiedRules,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  validate,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** One field occurrence in a selection once fragments are flattened: its node and where it applies. */
interface Occurrence {
  readonly node: FieldNode;
  readonly parent: GraphQLNamedType;
  readonly definition: GraphQLField<unknown, unknown> | undefined;
  /** In a merged sub-selection: which occurrence of the parent response name it came from. */
  readonly origin: number;
}

/** A conflict found between two occurrences sharing a response name. */
interface Conflict {
  readonly responseName: string;
  /** Why, as graphql-js words it (nested: `subfields "x" conflict because …`). */
  readonly reason: string;
  readonly nodes: readonly FieldNode[];
  /** The two occurrences, at the conflict's own level, that cannot be merged. */
  readonly pair: readonly [Occurrence, Occurrence];
}

/**
 * Fields of a response name can be merged (spec "Field Selection Merging"), checked with one
 * comparison per field against the first of its response name, then once more per level on the
 * merged sub-selections. For schemas without interfaces or unions; see the module docstring.
 * Reports one conflict per response name where graphql-js would (a conflict inside one field's
 * selection at that selection; one between repeated fields at their response name), with
 * graphql-js's wording.
 */
export const FieldMergeRule: ValidationRule = (context: ValidationContext) => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const schema = context.getSchema();

  /**
   * Adds the fields `selectionSet` applies on `parent` to `into`, by response name, through
   * fragments (each once per path), marked as coming from occurrence `origin` of the parent.
   */
  const collect = (
    parent: GraphQLNamedType,
    selectionSet: SelectionSetNode,
    into: Map<string, Occurrence[]>,
    path: Set<string>,
    origin: number,
  ): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const responseName = selection.alias?.value ?? selection.name.value;
        const occurrences = into.get(responseName) ?? [];
        occurrences.push({ node: selection, parent, definition: fieldOf(schema, parent, selection.name.value), origin });
        into.set(responseName, occurrences);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (type) collect(type, selection.selectionSet, into, path, origin);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        const type = fragment ? schema.getType(fragment.typeCondition.name.value) : undefined;
        // Unknown fragments and cycles are other rules' findings.
        if (!fragment || !type || path.has(name)) continue;
        path.add(name);
        collect(type, fragment.selectionSet, into, path, origin);
        path.delete(name);
      }
    }
  };

  const report = (conflict: Conflict): void => {
    context.reportError(
      new GraphQLError(
        `Fields "${conflict.responseName}" conflict because ${conflict.reason}. Use different aliases on the fields to fetch both if this was intentional.`,
        { nodes: conflict.nodes.slice(0, 20) },
      ),
    );
  };

  /**
   * The conflict of one response name's occurrences, if any: two of them that differ, or two whose
   * sub-selections, merged, conflict. A conflict inside the sub-selection of one occurrence alone is
   * reported on its own, unwrapped (graphql-js finds it visiting that selection set).
   */
  const conflictOf = (responseName: string, occurrences: readonly Occurrence[]): Conflict | undefined => {
    const [first, ...rest] = occurrences;
    if (!first) return undefined;
    for (const other of rest) {
      const reason = differs(first, other);
      if (reason) return { responseName, reason, nodes: [first.node, other.node], pair: [first, other] };
    }
    const type = first.definition ? getNamedType(first.definition.type) : undefined;
    if (!type || !isCompositeType(type)) return undefined;
    const merged = new Map<string, Occurrence[]>();
    occurrences.forEach(
      (occurrence, index) => occurrence.node.selectionSet && collect(type, occurrence.node.selectionSet, merged, new Set(), index),
    );
    for (const [name, nested] of merged) {
      const conflict = conflictOf(name, nested);
      if (!conflict) continue;
      const [left, right] = conflict.pair;
      if (left.origin === right.origin) {
        report(conflict);
        continue;
      }
      const a = occurrences[left.origin] ?? first;
      const b = occurrences[right.origin] ?? first;
      return {
        responseName,
        reason: `subfields "${conflict.responseName}" conflict because ${conflict.reason}`,
        nodes: [a.node, b.node, ...conflict.nodes],
        pair: [a, b],
      };
    }
    return undefined;
  };

  const check = (parent: GraphQLNamedType | undefined | null, selectionSet: SelectionSetNode): void => {
    if (!parent) return;
    const groups = new Map<string, Occurrence[]>();
    collect(parent, selectionSet, groups, new Set(), 0);
    for (const [responseName, occurrences] of groups) {
      const conflict = conflictOf(responseName, occurrences);
      if (conflict) report(conflict);
    }
  };

  return {
    OperationDefinition(node) {
      check(schema.getRootType(node.operation), node.selectionSet);
    },
  };
};

/** Why two occurrences of one response name cannot be merged, or undefined when they can. */
function differs(first: Occurrence, other: Occurrence): string | undefined {
  if (first.node === other.node) return undefined;
  const name1 = first.node.name.value;
  const name2 = other.node.name.value;
  if (name1 !== name2) return `"${name1}" and "${name2}" are different fields`;
  if (!sameArguments(first.node.arguments ?? [], other.node.arguments ?? [])) return 'they have differing arguments';
  const type1 = first.definition?.type;
  const type2 = other.definition?.type;
  if (type1 && type2 && typesConflict(type1, type2)) return `they return conflicting types "${String(type1)}" and "${String(type2)}"`;
  return undefined;
}

/** Whether two argument lists name the same arguments with the same printed values (graphql-js's test). */
function sameArguments(left: readonly ArgumentNode[], right: readonly ArgumentNode[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((argument) => {
    const match = right.find((candidate) => candidate.name.value === argument.name.value);
    return match !== undefined && print(match.value) === print(argument.value);
  });
}

/** Whether two return types differ in shape: lists and non-null wrappers, or different leaf types. */
function typesConflict(type1: GraphQLOutputType, type2: GraphQLOutputType): boolean {
  if (isListType(type1) || isListType(type2))
    return isListType(type1) && isListType(type2) ? typesConflict(type1.ofType, type2.ofType) : true;
  if (isNonNullType(type1) || isNonNullType(type2))
    return isNonNullType(type1) && isNonNullType(type2) ? typesConflict(type1.ofType, type2.ofType) : true;
  if (isLeafType(type1) || isLeafType(type2)) return type1 !== type2;
  return false;
}

/** The definition of `name` on `parent` (meta fields included), when there is one. */
function fieldOf(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType() && name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (parent === schema.getQueryType() && name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  return isObjectType(parent) ? parent.getFields()[name] : undefined;
}

/** The first `@skip` or `@include` at the root of `operation`'s selection, through fragments (each once). */
function rootConditional(operation: OperationDefinitionNode, context: ValidationContext): DirectiveNode | undefined {
  const seen = new Set<string>();
  const find = (selectionSet: SelectionSetNode): DirectiveNode | undefined => {
    for (const selection of selectionSet.selections) {
      const conditional = selection.directives?.find((directive) => directive.name.value === 'skip' || directive.name.value === 'include');
      if (conditional) return conditional;
      let nested: SelectionSetNode | undefined;
      if (selection.kind === Kind.INLINE_FRAGMENT) nested = selection.selectionSet;
      else if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        nested = context.getFragment(selection.name.value)?.selectionSet;
      }
      const found = nested && find(nested);
      if (found) return found;
    }
    return undefined;
  };
  return find(operation.selectionSet);
}

/**
 * graphql-js's `SingleFieldSubscriptionsRule`, refusing `@skip` and `@include` at the root of a
 * subscription first (docs/hostile-input.md §2): a subscription selects exactly one root field, and
 * a directive that may remove it left graphql-js's `subscribe` with none — it threw instead of
 * answering — while graphql-js's own rule throws on such a directive naming a variable. The rule
 * graphql-js 17 and the GraphQL specification (2021, "Single root field") have.
 */
const SingleSubscriptionRootRule: ValidationRule = (context: ValidationContext) => {
  // graphql-js 16's rule is one function on OperationDefinition, reading nothing but the node.
  const single = SingleFieldSubscriptionsRule(context) as { OperationDefinition?: (operation: OperationDefinitionNode) => void };
  return {
    OperationDefinition(operation) {
      if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
        const conditional = rootConditional(operation, context);
        if (conditional) {
          context.reportError(
            new GraphQLError(`a subscription selects exactly one root field: @${conditional.name.value} may not be used at its root`, {
              nodes: [conditional],
            }),
          );
          return;
        }
      }
      single.OperationDefinition?.(operation);
    },
  };
};

/** Rules for `schema`, computed once per schema. */
const rulesBySchema = new WeakMap<GraphQLSchema, readonly ValidationRule[]>();

/**
 * graphql-js's specified rules, with `OverlappingFieldsCanBeMergedRule` replaced by
 * {@link FieldMergeRule} when `schema` has no interface or union (the module docstring says why),
 * and `SingleFieldSubscriptionsRule` by {@link SingleSubscriptionRootRule}.
 */
export function validationRules(schema: GraphQLSchema): readonly ValidationRule[] {
  let rules = rulesBySchema.get(schema);
  if (!rules) {
    const abstract = Object.values(schema.getTypeMap()).some((type) => !type.name.startsWith('__') && isAbstractType(type));
    const replaced = new Map<ValidationRule, ValidationRule>([
      [SingleFieldSubscriptionsRule, SingleSubscriptionRootRule],
      ...(abstract ? [] : [[OverlappingFieldsCanBeMergedRule, FieldMergeRule] as const]),
    ]);
    rules = specifiedRules.map((rule) => replaced.get(rule) ?? rule);
    rulesBySchema.set(schema, rules);
  }
  return rules;
}

/**
 * Validates `document` against `schema` with {@link validationRules}; returns graphql-js's error
 * list. Without `introspection` (docs/hostile-input.md §10), `__schema` and `__type` are refused
 * too (graphql-js's `NoSchemaIntrospectionCustomRule`) and no message suggests a name
 * ("Did you mean …?"), which would spell the schema out one guess at a time.
 */
export function validateDocument(schema: GraphQLSchema, document: DocumentNode, introspection = true): readonly GraphQLError[] {
  if (introspection) return validate(schema, document, validationRules(schema)).map(withBoundedMessage);
  return validate(schema, document, [...validationRules(schema), NoSchemaIntrospectionCustomRule]).map((error) =>
    withBoundedMessage(withoutSuggestion(error)),
  );
}

/**
 * Characters of a validation message an answer repeats: graphql-js's messages about a literal print
 * it (`Int cannot represent non-integer value: "…"`, `found {…}`), and a literal may be as long as the
 * body limit allows; what they say of names and types fits many times over (docs/hostile-input.md §8).
 */
const MAX_VALIDATION_MESSAGE = 1_000;

/** `error` with its message cut to {@link MAX_VALIDATION_MESSAGE} characters and marked `…`; itself when shorter. */
function withBoundedMessage(error: GraphQLError): GraphQLError {
  return error.message.length <= MAX_VALIDATION_MESSAGE
    ? error
    : new GraphQLError(`${error.message.slice(0, MAX_VALIDATION_MESSAGE)}…`, { nodes: error.nodes, extensions: error.extensions });
}

/** graphql-js's suggestion at the end of a message: ` Did you mean "title"?`, ` Did you mean the enum value "DRAFT"?`. */
const SUGGESTION = / Did you mean [^?]*\?$/;

/**
 * `error` without graphql-js's closing "Did you mean …?" (docs/hostile-input.md §10), its nodes and
 * extensions kept; `error` itself when it suggests nothing.
 */
function withoutSuggestion(error: GraphQLError): GraphQLError {
  return SUGGESTION.test(error.message)
    ? new GraphQLError(error.message.replace(SUGGESTION, ''), { nodes: error.nodes, extensions: error.extensions })
    : error;
}
