/**
 * @module
 * Turns a parsed search query into SQL over the index: words and phrases become one FTS5 MATCH per
 * maximal text sub-tree (so BM25 can rank them), field operators become plain SQL on `notes` and
 * `note_tags`. Every word reaches FTS5 as a quoted string; user text is never FTS5 syntax, and never SQL
 * (all values travel as `?` parameters).
 *
 * Its parts: search/plan/fts.ts builds the FTS5 expressions, search/plan/conditions.ts the SQL conditions, and
 * search/plan/candidates.ts turns a query SQL cannot answer exactly into candidates and the check that code
 * runs on each.
 *
 * How `where` and `rankMatch` fit together (the contract every caller relies on): the notes a query
 * matches are exactly the rows `n` of `notes` for which `where` is true AND, when `rankMatch` is not
 * null, `n.id` is a rowid of `notes_fts MATCH rankMatch`. The text part captured in `rankMatch` is left
 * out of `where`, so `where` alone is NOT the whole query when `rankMatch` is set (it is `1` when the
 * query is text only). search/plan/sql.ts applies this contract; use it rather than assembling SQL.
 */

import type { QueryNode } from '../parse/query.js';
import { compileCandidates } from './candidates.js';
import { isExact, sqlOf } from './conditions.js';
import { ftsOf, splitConjuncts } from './fts.js';

export interface CompiledSearch {
  /** SQL boolean expression over the alias `n` (the `notes` table), with `?` placeholders. */
  where: string;
  /** Values for the placeholders of `where`, in order. */
  params: unknown[];
  /**
   * FTS5 expression every result must also match, to rank by BM25; null when the query cannot be
   * ranked (its top level is an OR with a field, a field alone…) and results go newest first.
   */
  rankMatch: string | null;
  /** Words and phrases the results were searched for (not excluded ones, not field values), for excerpts. */
  highlightTerms: string[];
  /**
   * Present when `where` and `rankMatch` only narrow the query down to candidates (they hold for every
   * match, but not only for matches): each candidate must also pass this check (search/check/check.ts), which
   * reads the candidate's `c0`, `c1`… columns, the exact parts of `columns`.
   */
  check?: Check;
  columns?: SqlPart[];
}

export interface SqlPart {
  readonly sql: string;
  readonly params: unknown[];
}

/** What a candidate must pass beyond the SQL: a tree over exact SQL columns and parts checked in code. */
export type Check =
  | { readonly k: 'col'; readonly i: number }
  | { readonly k: 'and' | 'or'; readonly ops: readonly Check[] }
  | { readonly k: 'not'; readonly op: Check }
  | { readonly k: 'node'; readonly node: QueryNode };

/**
 * Compiles a parsed query. See the module comment for how `where` and `rankMatch` combine.
 *
 * @example
 * compileSearch(parseSearchQuery('budget tag:work'))
 * // { where: "EXISTS (SELECT 1 FROM note_tags t WHERE …)", params: ['work', 'work/%'],
 * //   rankMatch: '"budget"', highlightTerms: ['budget'] }
 */
export function compileSearch(node: QueryNode): CompiledSearch {
  const params: unknown[] = [];
  const highlightTerms = [...new Set(positiveTexts(node))];
  if (!isExact(node)) return compileCandidates(node, highlightTerms);
  const whole = ftsOf(node);
  if (whole) return { where: '1', params, rankMatch: whole.expr, highlightTerms };
  if (node.kind === 'and') {
    // Rank by the text conjuncts: every result satisfies them anyway, so ranking loses nothing.
    const { text, rest } = splitConjuncts(node.operands);
    if (text.positive) {
      const where = rest.map((n) => sqlOf(n, params)).join(' AND ') || '1';
      return { where, params, rankMatch: text.positive, highlightTerms };
    }
  }
  return { where: sqlOf(node, params), params, rankMatch: null, highlightTerms };
}

/**
 * The words and phrases a result was found by: everything not under an exclusion and not a field or
 * property value (inside a scope too).
 */
export function positiveTexts(node: QueryNode): string[] {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return [node.text];
    case 'scope':
      return node.operand === null ? [] : positiveTexts(node.operand);
    case 'and':
    case 'or':
      return node.operands.flatMap(positiveTexts);
    default:
      return [];
  }
}
