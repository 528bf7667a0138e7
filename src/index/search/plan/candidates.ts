/**
 * @module
 * The compiled form of a query with parts SQL cannot answer ({@link isExact} is false for them): SQL
 * that narrows it down to candidates, and the {@link Check} that code runs on each (search/check/check.ts).
 */

import type { QueryNode } from '../parse/nodes.js';
import type { Check, CompiledSearch, SqlPart } from './compiled.js';
import { isExact, paren, sqlOf } from './conditions.js';
import { type Fts, ftsOf, necessaryFts, wrap } from './fts.js';

/**
 * A query with parts SQL cannot answer: `rankMatch` and `where` narrow it to candidates (conditions
 * every match meets: the words a scope looks for are in the body, a property query needs the
 * property…), and `check` says what each candidate must also pass.
 */
export function compileCandidates(node: QueryNode, highlightTerms: string[]): CompiledSearch {
  const params: unknown[] = [];
  const columns: SqlPart[] = [];
  const fts: Fts[] = [];
  const where: string[] = [];
  const checks: Check[] = [];
  for (const op of node.kind === 'and' ? node.operands : [node]) {
    if (isExact(op)) {
      const f = ftsOf(op);
      if (f) fts.push(f);
      else where.push(paren(op, sqlOf(op, params)));
      continue;
    }
    const f = necessaryFts(op, false);
    if (f) fts.push(f);
    const rest = necessarySql(op, params);
    if (rest) where.push(rest);
    checks.push(checkOf(op, columns));
  }
  const rankMatch = fts.length === 0 ? null : fts.length === 1 ? fts[0]!.expr : fts.map(wrap).join(' AND ');
  const check: Check = checks.length === 1 ? checks[0]! : { k: 'and', ops: checks };
  return { where: where.join(' AND ') || '1', params, rankMatch, highlightTerms, check, columns };
}

/** The check of a node SQL cannot answer; exact parts inside it become columns SQL computes. */
function checkOf(node: QueryNode, columns: SqlPart[]): Check {
  if (isExact(node)) {
    const params: unknown[] = [];
    columns.push({ sql: sqlOf(node, params), params });
    return { k: 'col', i: columns.length - 1 };
  }
  switch (node.kind) {
    case 'not':
      return { k: 'not', op: checkOf(node.operand, columns) };
    case 'and':
    case 'or':
      return { k: node.kind, ops: node.operands.map((op) => checkOf(op, columns)) };
    default:
      return { k: 'node', node };
  }
}

/** A SQL condition (beyond {@link necessaryFts}) every note matching `node` meets, or null. */
function necessarySql(node: QueryNode, params: unknown[]): string | null {
  if (isExact(node)) return ftsOf(node) ? null : sqlOf(node, params);
  switch (node.kind) {
    case 'and': {
      const parts = node.operands
        .map((op) => necessarySql(op, params))
        .filter((s): s is string => s !== null);
      return parts.length === 0 ? null : parts.map((p) => `(${p})`).join(' AND ');
    }
    case 'or': {
      const mark = params.length;
      const parts = node.operands.map((op) => necessarySql(op, params));
      if (parts.some((p) => p === null)) {
        params.length = mark;
        return null;
      }
      return parts.map((p) => `(${p})`).join(' OR ');
    }
    default:
      return null;
  }
}
