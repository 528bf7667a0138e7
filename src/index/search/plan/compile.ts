/**
 * @module
 * Turns a parsed search query into SQL over the index: words and phrases become one FTS5 MATCH per
 * maximal text sub-tree (so BM25 can rank them), field operators become plain SQL on `notes` and
 * `note_tags`. Every word reaches FTS5 as a quoted string; user text is never FTS5 syntax, and never SQL
 * (all values travel as `?` parameters).
 *
 The planning walk (plan-node.ts) says of every node, once, whether SQL answers it exactly, its
 * FTS5 form, its SQL and what it needs; this file assembles the statement from the root's answers: a
 * query SQL cannot answer exactly becomes candidates and the check code runs on each.
 *
 * How `where` and `rankMatch` fit together (the contract every caller relies on): the notes a query
 * matches are exactly the rows `n` of `notes` for which `where` is true AND, when `rankMatch` is not
 * null, `n.id` is a rowid of `notes_fts MATCH rankMatch`. The text part captured in `rankMatch` is left
 * out of `where`, so `where` alone is NOT the whole query when `rankMatch` is set (it is `1` when the
 * query is text only). search/plan/sql.ts applies this contract; use it rather than assembling SQL.
 */

import type { QueryNode } from '../parse/nodes.js';
import type { Check, CompiledSearch, SqlPart } from './compiled.js';
import { paren } from './conditions.js';
import { type Fts, wrap } from './fts.js';
import { type NodePlan, planNode, splitConjuncts } from './plan-node.js';

/**
 * Compiles a parsed query. See the module comment for how `where` and `rankMatch` combine.
 *
 * @example
 * compileSearch(parseSearchQuery('budget tag:work'))
 * // { where: "EXISTS (SELECT 1 FROM note_tags t WHERE …)", params: ['work', 'work/%'],
 * //   rankMatch: '"budget"', highlightTerms: ['budget'] }
 */
export function compileSearch(node: QueryNode): CompiledSearch {
  const root = planNode(node);
  const highlightTerms = [...new Set(root.texts)];
  if (!root.exact) return compileCandidates(root, highlightTerms);
  if (root.fts) return { where: '1', params: [], rankMatch: root.fts.expr, highlightTerms };
  if (node.kind === 'and') {
    // Rank by the text conjuncts: every result satisfies them anyway, so ranking loses nothing.
    const { positive, rest } = splitConjuncts(root.children);
    if (positive !== null) {
      const parts = rest.map((c) => paren(c.node, c.sql as SqlPart));
      return {
        where: parts.map((p) => p.sql).join(' AND ') || '1',
        params: parts.flatMap((p) => p.params),
        rankMatch: positive,
        highlightTerms,
      };
    }
  }
  const sql = root.sql as SqlPart;
  return { where: sql.sql, params: [...sql.params], rankMatch: null, highlightTerms };
}

/**
 * A query with parts SQL cannot answer: `rankMatch` and `where` narrow it to candidates (conditions
 * every match meets: the words a scope looks for are in the body, a property query needs the
 * property…), and `check` says what each candidate must also pass.
 */
function compileCandidates(root: NodePlan, highlightTerms: string[]): CompiledSearch {
  const where: SqlPart[] = [];
  const columns: SqlPart[] = [];
  const fts: Fts[] = [];
  const checks: Check[] = [];
  for (const op of root.node.kind === 'and' ? root.children : [root]) {
    if (op.exact) {
      if (op.fts) fts.push(op.fts);
      else where.push(paren(op.node, op.sql as SqlPart));
      continue;
    }
    if (op.needs) fts.push(op.needs);
    if (op.needsSql) where.push(op.needsSql);
    checks.push(checkOf(op, columns));
  }
  const rankMatch = fts.length === 0 ? null : fts.length === 1 ? fts[0]!.expr : fts.map(wrap).join(' AND ');
  const check: Check = checks.length === 1 ? checks[0]! : { k: 'and', ops: checks };
  return {
    where: where.map((p) => p.sql).join(' AND ') || '1',
    params: where.flatMap((p) => p.params),
    rankMatch,
    highlightTerms,
    check,
    columns,
  };
}

/** The check of a node SQL cannot answer; exact parts inside it become columns SQL computes. */
function checkOf(plan: NodePlan, columns: SqlPart[]): Check {
  if (plan.exact) {
    const sql = plan.sql as SqlPart;
    columns.push({ sql: sql.sql, params: [...sql.params] });
    return { k: 'col', i: columns.length - 1 };
  }
  switch (plan.node.kind) {
    case 'not':
      return { k: 'not', op: checkOf(plan.children[0] as NodePlan, columns) };
    case 'and':
    case 'or':
      return { k: plan.node.kind, ops: plan.children.map((c) => checkOf(c, columns)) };
    default:
      return { k: 'node', node: plan.node };
  }
}
