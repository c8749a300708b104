/**
 * What a GraphQL operation's inputs may hold, and how a refusal of them reads, for every GraphQL
 * transport (docs/behaviour.md §7; docs/hostile-input.md §8): variables are coerced as graphql-js's
 * `getVariableValues` coerces them ({@link coerceVariables}), except that a refusal repeats at most
 * 200 characters of the value, of its path and of the reason: graphql-js writes the whole value into
 * "Variable "$x" got invalid value …" (and the reason repeats it), so an 84 KB variable came back
 * whole to an anonymous caller.
 */
import {
  type ASTNode,
  coerceInputValue,
  GraphQLError,
  type GraphQLSchema,
  isInputType,
  isNonNullType,
  print,
  typeFromAST,
  valueFromAST,
  type VariableDefinitionNode,
} from 'graphql';
import { boundedText } from '../failures/result.js';

/** An operation's variables coerced, or the first refusal of them. */
export type CoercedVariables = { readonly coerced: Record<string, unknown> } | { readonly errors: readonly GraphQLError[] };

/** A refusal of a caller's input: `BAD_USER_INPUT`, at `nodes`. */
function refusal(message: string, nodes: ASTNode): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT' } });
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
 * the caller sent: the value, its path, the reason. `suggestions` off leaves graphql-js's "Did you mean …?" out
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
    coerced[name] = result;
  }
  return { coerced };
}
