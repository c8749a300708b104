/**
 * Text the databases hold alike (docs/hostile-input.md §17): no NUL character (U+0000). PostgreSQL
 * refuses one in any text value ("invalid byte sequence for encoding UTF8: 0x00", SQLSTATE 22021)
 * while SQLite stores it, so a NUL in a caller's text was a 500 with a stack on one database and a
 * stored value on the other. Every way in refuses it first, as `BAD_USER_INPUT` naming the input:
 * REST (path and query parameters and the body, runtime/transports/rest/), GraphQL (variables and
 * literal arguments, runtime/graphql/inputs.ts), MCP tool arguments (runtime/transports/mcp/tools.ts)
 * and gateway message data (runtime/transports/gateways/). Behind them the repositories refuse one in
 * what a hand-written service writes or filters on (runtime/data/repository.ts, sql-scope.ts), and
 * PostgreSQL's own refusal of a NUL that still reaches it is the caller's fault, not the server's
 * (runtime/dialects/postgresql.ts).
 */
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../failures/result.js';

/** What an issue says of a text holding a NUL character. */
export const NUL_TEXT_MESSAGE = 'contains a NUL character (U+0000), which no text may hold';

/** Whether `text` holds a NUL character. */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000');
}

/**
 * One issue per string in `value` (parsed JSON: strings, lists, plain objects) that holds a NUL, and
 * per object key that does, each at its dotted path under `path` (`body.title`, `body.tags.0`), as
 * the body check names fields (runtime/http/inputs.ts). Iterative, so any depth is walked without
 * exhausting the stack; linear in the size of `value`.
 */
export function nulIssues(value: unknown, path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const pending: { readonly value: unknown; readonly path: string }[] = [{ value, path }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current === 'string') {
      if (holdsNul(current)) issues.push({ path: next.path, message: NUL_TEXT_MESSAGE });
      continue;
    }
    if (typeof current !== 'object' || current === null || current instanceof Date) continue;
    const entries = Array.isArray(current) ? current.map((item, index) => [String(index), item] as const) : Object.entries(current);
    // Pushed in reverse, so issues come out in the order the value is written.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as readonly [string, unknown];
      const childPath = next.path === '' ? key : `${next.path}.${key}`;
      if (holdsNul(key)) issues.push({ path: childPath, message: NUL_TEXT_MESSAGE });
      pending.push({ value: child, path: childPath });
    }
  }
  return issues;
}

/**
 * Throws `BAD_USER_INPUT` when any of `inputs` (a name and its value: a parameter, `body`, an
 * argument) holds a NUL character anywhere ({@link nulIssues}): the message lists where, as every
 * refusal of input lists its issues (docs/hostile-input.md §8), `field` the first. Returns otherwise.
 */
export function refuseNulText(inputs: Iterable<readonly [string, unknown]>): void {
  const issues: InputIssue[] = [];
  for (const [name, value] of inputs) issues.push(...nulIssues(value, name));
  const listed = listedIssues(issues);
  const first = listed[0];
  if (first === undefined) return;
  throw new FailureError({ code: 'BAD_USER_INPUT', message: `invalid input: ${issueSummary(issues)}`, field: first.path, issues: listed });
}
