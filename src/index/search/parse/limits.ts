/**
 * @module
 * How much one `search_notes` query may hold. Each limit is checked where the parser meets it
 * (search/parse/query.ts, search/parse/parser.ts), and refused as `too_large` with the limit and the actual size,
 * so that no query, however hostile, can stall the server or overflow a stack.
 */

/** Longest query accepted, in UTF-16 units (what `string.length` counts). */
export const MAX_QUERY_CHARS = 2000;
/** Most distinct words, phrases, regexes, fields, properties and scopes one query may hold. */
export const MAX_QUERY_TERMS = 100;
/**
 * Deepest nesting of parenthesized groups (`-(…)` and operator groups included). Deeper queries
 * overflowed the parser's stack (a `RangeError` from 1,999 open parentheses) and FTS5's expression
 * parser, whose fixed stack took about 16 alternating `a (b OR (…))` levels ("fts5: parser stack overflow").
 */
export const MAX_GROUP_DEPTH = 10;
/** Longest regex accepted, in characters: RE2's compiled program grows with it. */
export const MAX_REGEX_CHARS = 500;
