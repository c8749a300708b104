/**
 * SQL text as the SQL standard writes it, for the dialects whose database takes it as it is
 * (runtime/data/sql-text.ts `DialectSql`): each dialect says which of these it uses and why, and
 * writes its own text where its database differs.
 */
import type { TextMatch } from '../data/sql-text.js';
import { type Sql, sqltag } from '../data/sql-scope.js';

/** `name` between double quotes (the standard's delimited identifier); `name` is a plain identifier, so nothing in it needs doubling. */
export function doubleQuoted(name: string): string {
  return `"${name}"`;
}

/** `text` with the characters special in a LIKE pattern (`%`, `_` and the escape character `\` itself) escaped by `\`. */
function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * `column LIKE <pattern> ESCAPE '\'`, the pattern bound as one parameter: `text` escaped
 * ({@link escapeLikePattern}), with `%` on the side(s) where `match` allows anything.
 */
export function likeWithBackslashEscape(column: Sql, match: TextMatch, text: string): Sql {
  const escaped = escapeLikePattern(text);
  const pattern = match === 'contains' ? `%${escaped}%` : match === 'startsWith' ? `${escaped}%` : `%${escaped}`;
  return sqltag`${column} LIKE ${pattern} ESCAPE '\\'`;
}
