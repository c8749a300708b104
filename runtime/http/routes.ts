/**
 * The HTTP route table (docs/behaviour.md §4.2, §4.3): what the generated `http/routes.ts` declares, and how a
 * route's result becomes a response — a keyset page as a flat JSON array with `x-next-cursor`
 * (only when more rows remain), a value (null → 404), a whole list, or 204.
 */
import type { ServerResponse } from 'node:http';
import { answerable } from '../auth/ability.js';
import type { Authentication } from '../auth/authentication.js';
import type { RequestContext } from '../auth/context.js';
import { clampPageSize, type Page } from '../data/keyset.js';
import { FailureError, type InputIssue, issueSummary, listedIssues } from '../failures/result.js';
import { jsonText, writeJson } from './answer.js';
import { problem, sendProblem } from './problem.js';

/**
 * HTTP methods routes use: the one method type of the project. The generator reads the route
 * decorators (`@Get`, `@Post`, …) into these through runtime/declarations/decorator-signatures.ts.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler receives. */
export interface HttpCall {
  /** Path parameters by name. */
  readonly params: Readonly<Record<string, string>>;
  /** Query-string values (text, or a list for a repeated key). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body (routes that take one). */
  readonly body: unknown;
  readonly request: RequestContext;
  readonly authentication: Authentication;
}

/**
 * How a route's result is sent: `page` (flat array + `x-next-cursor`), `value` (JSON; null or
 * undefined → 404), `list` (JSON array), `empty` (204).
 */
export type ReplyKind = 'page' | 'value' | 'list' | 'empty';

/** One route of one controller, as generated. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  /** Controller path plus route path, without prefix or version: `/posts/:id/publish`. */
  readonly path: string;
  /** Versions the route is mounted under; empty for an unversioned controller. */
  readonly versions: readonly string[];
  /** Versions its controller declares (a route-level `@Version` may mount it under fewer). */
  readonly controllerVersions: readonly string[];
  readonly controller: string;
  readonly handler: string;
  /** Success status. */
  readonly status: number;
  readonly reply: ReplyKind;
  /** Whether the route reads a JSON body (bodies are parsed only for these). */
  readonly takesBody: boolean;
  /**
   * The query parameters the route reads (`first`, `after`, filters, `@Query` parameters): any
   * other one, or one of these given twice, is refused before the route runs
   * ({@link refuseUnreadQuery}, docs/behaviour.md §4.2).
   */
  readonly query: readonly string[];
  /**
   * Runs the route: gate, pipes, controller method, masking. Returns the value, or a promise of it
   * when the method (or a pipe) is asynchronous; throws failures.
   */
  readonly handle: (call: HttpCall) => unknown;
}

/** The name of the header carrying the next cursor of a keyset page (docs/behaviour.md §4.2). */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/**
 * Sends `value`, the result of `route`, as the response (docs/behaviour.md §4.2); `path`, the
 * request's, is named in a 404's detail. An answer past `maxBytes` (`APP_HTTP__MAX_RESPONSE_BYTES`,
 * docs/hostile-input.md §14) is never written: it throws the `RESPONSE_TOO_LARGE` failure, sent
 * as its problem document.
 * @throws FailureError `RESPONSE_TOO_LARGE`, or `FORBIDDEN` for a value that is a refused field
 */
export function sendReply(path: string, response: ServerResponse, route: RouteDefinition, value: unknown, maxBytes: number): void {
  answerable(value);
  switch (route.reply) {
    case 'page': {
      const page = value as Page<unknown>;
      const text = jsonText(page.items, maxBytes);
      if (page.next_cursor !== undefined) response.setHeader(NEXT_CURSOR_HEADER, page.next_cursor);
      writeJson(response, route.status, text);
      return;
    }
    case 'value':
      if (value === null || value === undefined) {
        sendProblem(response, problem(404, 'NOT_FOUND', `nothing was found at ${path}`));
        return;
      }
      writeJson(response, route.status, jsonText(value, maxBytes));
      return;
    case 'list':
      writeJson(response, route.status, jsonText(value, maxBytes));
      return;
    case 'empty':
      response.statusCode = 204;
      response.end();
      return;
  }
}

/**
 * Refuses a query string the route would not read in full (docs/behaviour.md §4.2, "One reading of
 * every parameter"): a parameter the route does not read (`?titel=x`, a typo that would otherwise
 * answer unfiltered rows; `?postId[x]=1` too, the simple query parser reading `postId[x]` as a
 * name) and a parameter it reads given more than once (`?first=1&first=2`) are each an issue. Throws `BAD_USER_INPUT` listing them, `field` naming the
 * first, the detail naming the parameters the route reads. `query` is the parsed query string (an
 * object without a prototype, node:querystring's).
 */
export function refuseUnreadQuery(route: RouteDefinition, query: Readonly<Record<string, unknown>>): void {
  const issues: InputIssue[] = [];
  for (const name of Object.keys(query)) {
    if (!route.query.includes(name)) issues.push({ path: name, message: 'is not a query parameter of this route' });
    else if (typeof query[name] !== 'string') issues.push({ path: name, message: 'is given more than once; give it once' });
  }
  const listed = listedIssues(issues);
  const first = listed[0];
  if (first === undefined) return;
  const reads = route.query.length > 0 ? `it reads ${route.query.join(', ')}` : 'it reads no query parameter';
  throw new FailureError({
    code: 'BAD_USER_INPUT',
    message: `invalid query string: ${issueSummary(issues)}; ${reads}`,
    field: first.path,
    issues: listed,
  });
}

/** An integer as the query string writes it: optional minus, decimal digits, nothing else. */
const INTEGER_TEXT = /^-?[0-9]+$/;

/**
 * The page size `first` of a keyset route from the query string (docs/behaviour.md §4.2, §8):
 * absent → the default (20); an integer (`^-?[0-9]+$`) → clamped to 1..=100; any other text
 * (`abc`, `1.5`, `1e2`, `0x10`, ` 5`, an empty value) throws `BAD_USER_INPUT` naming it.
 */
export function pageSizeParameter(query: Readonly<Record<string, unknown>>, name: string): number {
  const text = query[name];
  if (text === undefined) return clampPageSize(undefined);
  if (typeof text === 'string' && INTEGER_TEXT.test(text)) return clampPageSize(Number(text));
  const issues = [{ path: name, message: `expected an integer, got ${typeof text === 'string' ? JSON.stringify(text) : 'a list'}` }];
  throw new FailureError({
    code: 'BAD_USER_INPUT',
    message: `invalid ${issueSummary(issues, (issue) => `${issue.path}: ${issue.message}`)}`,
    field: name,
    issues: listedIssues(issues),
  });
}

/** Reads one query-string value as text; a repeated key or a missing one gives undefined. */
export function queryText(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

/** A path parameter's value (always present once Express matched the route's path). */
export function pathParameter(call: HttpCall, name: string): string {
  return call.params[name] ?? '';
}
