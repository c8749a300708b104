/**
 * Route paths, read once, as the server will read them (docs/behaviour.md §4.2): every path a
 * controller, a route or a resource writes is parsed with path-to-regexp 8's own `parse` — the
 * parser of Express 5's router and of the runtime's version router (runtime/http/versioning.ts) —
 * and compiled with its `pathToRegexp`, which refuses what the parser lets through (two parameters
 * with no text between them). A route's parameters are path-to-regexp's keys, so the generator binds
 * exactly the names the runtime will hand the route.
 *
 * What path-to-regexp reads but the generated server cannot carry is recorded as a problem too,
 * for `route-path-invalid` to report: a wildcard (`*rest`, an array of segments, which neither an
 * OpenAPI path template nor a typed client can express), an optional group (`{/:id}`: an OpenAPI
 * path parameter is always required), a parameter name other than letters, digits and `_` (the
 * OpenAPI template `{name}` and the method parameter take it as written), a backslash escape (the
 * documents would read the escaped `:` as a parameter), the same parameter twice, and a parameter
 * in a resource's path (its generated operations read `:id` alone).
 */
import { parse, pathToRegexp, type Token } from 'path-to-regexp';
import type { RoutePathProblem, WrittenPathModel } from '../model/model.js';
import type { SourceSpan } from '../model/types.js';

/** A parameter name every reader of the path takes as written: an ASCII identifier. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** path-to-regexp's own message without the path and the link it appends (`Unexpected ? at index 8`). */
function reasonOf(error: Error, text: string): string {
  const suffix = /; visit https:\/\/git\.new\/pathToRegexpError for info$/;
  const message = error.message.replace(suffix, '');
  return message.endsWith(`: ${text}`) ? message.slice(0, -(text.length + 2)) : message;
}

/**
 * Where in `text` the construct a path-to-regexp message is about starts: the character it names
 * (`Unexpected ? at index 8`), the `:` or `*` missing its name (the message names the index after
 * it), the `{` never closed, the parameter with no text before it; undefined when it says none.
 */
function constructAt(text: string, reason: string): number | undefined {
  const index = /at index (\d+)/.exec(reason)?.[1];
  if (reason.startsWith('Missing parameter name') && index !== undefined) return Math.max(0, Number(index) - 1);
  if (reason.endsWith('expected }')) return Math.max(0, text.lastIndexOf('{'));
  const together = /^Missing text before "(.*)" (param|wildcard)$/.exec(reason);
  if (together) return Math.max(0, text.lastIndexOf(`${together[2] === 'param' ? ':' : '*'}${together[1] ?? ''}`));
  return index === undefined ? undefined : Number(index);
}

/** The tokens path-to-regexp reads in `text`, or the problem it refuses it with. */
function tokensOf(text: string): { tokens: readonly Token[] } | { problem: RoutePathProblem } {
  try {
    const data = parse(text);
    // Compiling refuses what parsing lets through (`/:a:b`): the server compiles every path at boot.
    pathToRegexp(data);
    return { tokens: data.tokens };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const reason = reasonOf(error, text);
    return { problem: { kind: 'syntax', reason, index: constructAt(text, reason) } };
  }
}

/** Options of {@link readWrittenPath}. */
interface PathContext {
  /** It is a resource's path, which may hold no parameter. */
  readonly resource?: boolean;
  /** The parameters of the path it is mounted under (a route's controller's): naming one again is a problem. */
  readonly under?: readonly string[];
}

/**
 * Reads one written path. Takes the string as written (slashes included), where it is written, and
 * what it is mounted under; returns its parameters, in order, as path-to-regexp's tokens give them,
 * and what the generated server cannot carry (each with the index of its first character in
 * `text`, for the caret). Never throws on a path path-to-regexp refuses: that is a `syntax` problem.
 */
export function readWrittenPath(text: string, span: SourceSpan | undefined, context: PathContext = {}): WrittenPathModel {
  const read = tokensOf(text);
  if ('problem' in read) return { text, span, parameters: [], problems: [read.problem] };
  const parameters: string[] = [];
  const problems: RoutePathProblem[] = [];
  if (text.includes('\\')) problems.push({ kind: 'escape', index: text.indexOf('\\') });
  // The tokens carry no positions: each construct is looked for after the previous one.
  let cursor = 0;
  const find = (start: string): number => {
    const found = text.indexOf(start, cursor);
    if (found < 0) return cursor;
    cursor = found + start.length;
    return found;
  };
  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'text') continue;
      if (token.type === 'group') {
        problems.push({ kind: 'group', index: find('{') });
        visit(token.tokens);
        continue;
      }
      const sigil = token.type === 'param' ? ':' : '*';
      const quoted = text.includes(`${sigil}"${token.name}"`, cursor);
      const index = find(quoted ? `${sigil}"${token.name}"` : `${sigil}${token.name}`);
      if (token.type === 'wildcard') problems.push({ kind: 'wildcard', name: token.name, index });
      else if (quoted || !PARAMETER_NAME.test(token.name)) problems.push({ kind: 'parameterName', name: token.name, index });
      else if (parameters.includes(token.name) || context.under?.includes(token.name) === true)
        problems.push({ kind: 'duplicateParameter', name: token.name, index });
      else if (context.resource === true) problems.push({ kind: 'resourceParameter', name: token.name, index });
      parameters.push(token.name);
    }
  };
  visit(read.tokens);
  return { text, span, parameters, problems };
}

/**
 * The parameters of a route mounted at the full path of its written parts (the controller's path,
 * then the route's), in order: what the runtime's router hands the route. Undefined when a part has
 * a problem (`route-path-invalid` reports it): then which names are parameters is not the generator's to guess.
 */
export function pathParametersOf(parts: readonly WrittenPathModel[]): readonly string[] | undefined {
  if (parts.some((part) => part.problems.length > 0)) return undefined;
  return parts.flatMap((part) => part.parameters);
}
