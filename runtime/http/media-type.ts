/**
 * The charset of a JSON request body (docs/behaviour.md §7): the one rule of every route that reads
 * one — REST routes, GraphQL over HTTP (both of its lanes), the MCP host. JSON exchanged between
 * systems is UTF-8 (RFC 8259 §8.1), so a body whose `Content-Type` names another charset
 * (`charset=utf-16`, `charset=latin1`) is refused with 415 `UNSUPPORTED_MEDIA_TYPE`, as a body in
 * another media type is. Before, REST decoded a `utf-16` body and answered the garbage 400 "not valid
 * JSON", and body-parser refused `latin1` with a 415 whose code said `BAD_USER_INPUT`.
 */

/**
 * Whether the media type `contentType` (a `Content-Type` value, or undefined when there is none) names
 * no charset, or UTF-8 (`charset=utf-8`, any case, quoted or not). Only the charset is judged here;
 * whether the type is `application/json` is the caller's question (Express's `request.is`).
 */
export function namesUtf8OrNoCharset(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const [, ...parameters] = contentType.split(';');
  return parameters.every((parameter) => {
    const equals = parameter.indexOf('=');
    const name = (equals < 0 ? parameter : parameter.slice(0, equals)).trim().toLowerCase();
    if (name !== 'charset') return true;
    const value = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    return value === 'utf-8';
  });
}

/**
 * The detail of the 415 refusing a body of `contentType` on a JSON route (docs/behaviour.md §7):
 * "send `what` as application/json (got …)", with "in UTF-8" when the type was JSON in another
 * charset. `json` says whether the type is `application/json`.
 */
export function unsupportedBodyDetail(what: string, contentType: string | undefined, json: boolean): string {
  return `send ${what} as application/json${json ? ' in UTF-8' : ''} (got ${contentType ?? 'no content type'})`;
}
