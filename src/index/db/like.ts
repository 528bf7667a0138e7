/**
 * @module
 * User text inside a SQL `LIKE` pattern: the search's folder and tag conditions and the table
 * queries' folder prefixes all escape it the same way.
 */

/** Escapes `\`, `%` and `_` for `LIKE … ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}
