/**
 * @module
 * FTS5 expressions as the planner (plan-node.ts) writes them: every word reaches FTS5 as a quoted
 * string ({@link ftsString}), never as syntax, joined by AND, OR and NOT with parentheses wherever an
 * expression is not a single string.
 */

import { segmentCjk } from '../../words/cjk.js';

/**
 * A word or phrase as an FTS5 string: always quoted, `"` doubled, CJK spaced out into a phrase. A NUL
 * becomes a space: FTS5 reads its expression as a C string, so a NUL cut it short ("unterminated
 * string"), and the tokenizer splits words at a NUL anyway, so the phrase means the same.
 */
export function ftsString(text: string): string {
  return `"${segmentCjk(text).replaceAll('"', '""').replaceAll('\u0000', ' ')}"`;
}

export interface Fts {
  readonly expr: string;
  /** True when `expr` is a single string and needs no parentheses inside a larger expression. */
  readonly atomic: boolean;
}

export const wrap = (f: Fts): string => (f.atomic ? f.expr : `(${f.expr})`);

/** The expressions AND-ed: null for none, the one itself for one. */
export function joinFts(parts: readonly Fts[]): Fts | null {
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as Fts) : { expr: parts.map(wrap).join(' AND '), atomic: false };
}
