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
import type { CompiledSearch } from './compiled.js';
import { isExact, sqlOf } from './conditions.js';
import { ftsOf, splitConjuncts } from './fts.js';

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
