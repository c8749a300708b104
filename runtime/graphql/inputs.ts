/**
 * What a GraphQL operation's inputs may hold, and how a refusal of them reads, for every GraphQL
 * transport (docs/behaviour.md §7; docs/hostile-input.md §8, §17):
 *
 * - Variables are coerced as graphql-js's `getVariableValues` coerces them ({@link coerceVariables}),
 *   except that a refusal repeats at most 200 characters of the value, of its path and of the
 *   reason: graphql-js writes the whole value into "Variable "$x" got invalid value …" (and the
 *   reason repeats it), so an 84 KB variable came back whole to an anonymous caller.
 * - A text holding a NUL character is refused as `BAD_USER_INPUT` naming where it is: in a variable
 *   (its path under the variable's name, `input.title`) and in a literal argument of the document
 *   ({@link nulLiteral}: `createPost.input.title`), so no text a database would treat differently
 *   reaches a resolver.
 */
import {
  type ArgumentNode,
  type ASTNode,
  coerceInputValue,
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  isInputType,
  isNonNullType,
  Kind,
  print,
  typeFromAST,
  valueFromAST,
  type ValueNode,
  type VariableDefinitionNode,
  visit,
} from 'graphql';
import { holdsNul, NUL_TEXT_MESSAGE, nulIssues } from '../data/text-input.js';
import { boundedText } from '../failures/result.js';

/** An operation's variables coerced, or the first refusal of them. */
export type CoercedVariables = { readonly coerced: Record<string, unknown> } | { readonly errors: readonly GraphQLError[] };

/** A refusal of a caller's input: `BAD_USER_INPUT`, at `nodes`. */
function refusal(message: string, nodes: ASTNode, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT', ...extensions } });
}

/** `value` written for a message: its JSON (undefined as such), at most 200 characters of it. */
function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return boundedText(JSON.stringify(value));
  } catch {
    // A value JSON cannot write (a depth past the stack): its kind is all a message needs.
    return typeof value;
  }
}

/** A path under a variable as graphql-js prints it: `input.tags[0]`. */
function printPath(name: string, path: readonly (string | number)[]): string {
  return name + path.map((key) => (typeof key === 'number' ? `[${String(key)}]` : `.${key}`)).join('');
}

/**
 * `inputs` coerced to the types `definitions` declare, as graphql-js's `getVariableValues` does (a
 * variable left out takes its default; one of a non-null type must be given and not null), stopping
 * at the first refusal, which is `BAD_USER_INPUT` and repeats at most 200 characters of each thing
 * the caller sent: the value, its path, the reason. A variable holding a NUL character in any text
 * is refused too, naming its path. `suggestions` off leaves graphql-js's "Did you mean …?" out
 * (docs/hostile-input.md §10). Variables the operation does not declare are not read.
 */
export function coerceVariables(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  inputs: Readonly<Record<string, unknown>>,
  options: { readonly suggestions: boolean },
): CoercedVariables {
  const coerced: Record<string, unknown> = {};
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!isInputType(type)) {
      // Validation refuses this first; checked again, as graphql-js does, for safety.
      return {
        errors: [
          refusal(
            `Variable "$${name}" expected value of type "${print(definition.type)}" which cannot be used as an input type.`,
            definition.type,
          ),
        ],
      };
    }
    if (!Object.hasOwn(inputs, name)) {
      if (definition.defaultValue) coerced[name] = valueFromAST(definition.defaultValue, type);
      else if (isNonNullType(type))
        return { errors: [refusal(`Variable "$${name}" of required type "${String(type)}" was not provided.`, definition)] };
      continue;
    }
    const value = inputs[name];
    if (value === null && isNonNullType(type))
      return { errors: [refusal(`Variable "$${name}" of non-null type "${String(type)}" must not be null.`, definition)] };
    let refused: GraphQLError | undefined;
    const result: unknown = coerceInputValue(
      value,
      type,
      (path, invalid, error) => {
        if (refused) return;
        const at = path.length > 0 ? ` at "${boundedText(printPath(name, path))}"` : '';
        refused = refusal(`Variable "$${name}" got invalid value ${describe(invalid)}${at}; ${boundedText(error.message)}`, definition);
      },
      !options.suggestions,
    );
    if (refused) return { errors: [refused] };
    const nul = nulIssues(value, name)[0];
    if (nul)
      return {
        errors: [
          refusal(`Variable "$${name}" got invalid value at "${boundedText(nul.path)}"; it ${NUL_TEXT_MESSAGE}`, definition, {
            field: boundedText(nul.path),
            issues: [{ path: boundedText(nul.path), message: NUL_TEXT_MESSAGE }],
          }),
        ],
      };
    coerced[name] = result;
  }
  return { coerced };
}

/** The first string literal holding a NUL character in `value`, with its path under `path`. */
function nulInValue(value: ValueNode, path: string): { readonly node: ValueNode; readonly path: string } | undefined {
  switch (value.kind) {
    case Kind.STRING:
      return holdsNul(value.value) ? { node: value, path } : undefined;
    case Kind.LIST:
      for (const [index, item] of value.values.entries()) {
        const found = nulInValue(item, `${path}.${String(index)}`);
        if (found) return found;
      }
      return undefined;
    case Kind.OBJECT:
      for (const field of value.fields) {
        const found = nulInValue(field.value, `${path}.${field.name.value}`);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The refusal of the first literal text in `document` that holds a NUL character
 * (`"\u0000"` in a string), naming it by the field, argument and input fields it sits in
 * (`createPost.input.title`; `@directive.argument`; a variable's default `$name`); undefined when
 * there is none. Linear in the document's size; recursion is bounded by the nesting the lexer
 * allowed (docs/hostile-input.md §2).
 */
export function nulLiteral(document: DocumentNode): GraphQLError | undefined {
  let found: GraphQLError | undefined;
  const check = (value: ValueNode, path: string): void => {
    const nul = found ? undefined : nulInValue(value, path);
    if (nul)
      found = refusal(`${boundedText(nul.path)} ${NUL_TEXT_MESSAGE}`, nul.node, {
        field: boundedText(nul.path),
        issues: [{ path: boundedText(nul.path), message: NUL_TEXT_MESSAGE }],
      });
  };
  visit(document, {
    Argument: (node: ArgumentNode, _key, _parent, _path, ancestors) => {
      // The field or directive the argument is given to: the nearest node above its list of arguments.
      const owner = ancestors.findLast((ancestor): ancestor is ASTNode => !Array.isArray(ancestor));
      const where = owner?.kind === Kind.FIELD ? `${owner.name.value}.` : owner?.kind === Kind.DIRECTIVE ? `@${owner.name.value}.` : '';
      check(node.value, `${where}${node.name.value}`);
      return false;
    },
    VariableDefinition: (node) => {
      if (node.defaultValue) check(node.defaultValue, `$${node.variable.name.value}`);
    },
  });
  return found;
}
