/**
 * @module
 * The planning walk of a search: one pass over the query tree, children first, that says of every
 * node all the planner needs (compile.ts assembles the statement from the root's answers):
 *
 * - `exact`: SQL answers the node exactly; when false code must check it (search/check/check.ts):
 *   scopes with an operand, regexes over the text, text under match-case, and any group holding one;
 * - `fts`: the node as one FTS5 expression BM25 can rank (text only, and not negative on its own:
 *   FTS5's NOT is binary, `a NOT b`, there is no "everything except b");
 * - `needs` / `needsInBody`: an FTS5 expression every matching note matches, to narrow the notes
 *   before the check (inside a scope the words must be in the body column);
 * - `sql`: for an exact node, the SQL condition over `n` (the `notes` table) that answers it;
 * - `needsSql`: a SQL condition beyond `needs` every matching note meets, or null;
 * - `texts`: the words and phrases a result is found by, for excerpts.
 *
 * Every word reaches FTS5 as a quoted string (fts.ts), and user text only ever travels as a `?`
 * parameter: each SQL part carries its parameters in the order of its placeholders.
 */

import type { QueryNode } from '../parse/nodes.js';
import type { SqlPart } from './compiled.js';
import { FTS_SUBQUERY, fieldSql, paren, propertySql, regexSql, taskSql } from './conditions.js';
import { type Fts, ftsString, joinFts, wrap } from './fts.js';

export interface NodePlan {
  readonly node: QueryNode;
  readonly children: readonly NodePlan[];
  readonly exact: boolean;
  readonly fts: Fts | null;
  readonly needs: Fts | null;
  readonly needsInBody: Fts | null;
  readonly sql: SqlPart | null;
  readonly needsSql: SqlPart | null;
  readonly texts: readonly string[];
}

/** Plans `node` and everything under it, each node once. */
export function planNode(node: QueryNode): NodePlan {
  switch (node.kind) {
    case 'word':
    case 'phrase': {
      const str = ftsString(node.text);
      const inBody: Fts = { expr: `body : ${str}`, atomic: false };
      const anywhere: Fts = node.in === 'content' ? inBody : { expr: str, atomic: true };
      const exact = node.matchCase !== true;
      // match-case is checked in code, but the word must still be there: it narrows the candidates.
      return leaf(node, exact, exact ? anywhere : null, anywhere, inBody, [node.text]);
    }
    case 'field':
      return withSql(leaf(node, true, null, null, null, []), fieldSql(node));
    case 'regex': {
      const exact = node.in === 'file' || node.in === 'path' || node.in === 'tag';
      const plan = leaf(node, exact, null, null, null, []);
      return exact ? withSql(plan, regexSql(node)) : plan;
    }
    case 'property':
      return withSql(leaf(node, true, null, null, null, []), propertySql(node));
    case 'scope': {
      if (node.operand === null) return withSql(leaf(node, true, null, null, null, []), taskSql(node, null));
      const operand = planNode(node.operand);
      // A task's text is in the index; lines, blocks and sections are found by reading the note.
      const exact = node.scope.startsWith('task');
      const plan: NodePlan = {
        node,
        children: [operand],
        exact,
        fts: null,
        needs: operand.needsInBody,
        needsInBody: operand.needsInBody,
        sql: null,
        needsSql: null,
        texts: operand.texts,
      };
      return exact ? withSql(plan, taskSql(node, operand.needsInBody)) : plan;
    }
    case 'not': {
      const operand = planNode(node.operand);
      const sql = operand.exact
        ? part(`NOT (${(operand.sql as SqlPart).sql})`, operand.sql as SqlPart)
        : null;
      return {
        node,
        children: [operand],
        exact: operand.exact,
        fts: null,
        needs: null,
        needsInBody: null,
        sql,
        needsSql: sql,
        texts: [],
      };
    }
    case 'or':
      return planOr(node, node.operands.map(planNode));
    case 'and':
      return planAnd(node, node.operands.map(planNode));
  }
}

function planOr(node: QueryNode, children: NodePlan[]): NodePlan {
  const exact = children.every((c) => c.exact);
  const fts = allOf(
    children.map((c) => c.fts),
    ' OR ',
  );
  let sql: SqlPart | null = null;
  if (exact && fts) sql = ftsCondition(fts.expr);
  else if (exact) {
    // The text operands share one MATCH; the others are OR-ed beside it.
    const text = children.filter((c) => c.fts !== null);
    const parts: SqlPart[] =
      text.length > 0 ? [ftsCondition(text.map((c) => wrap(c.fts as Fts)).join(' OR '))] : [];
    for (const c of children) if (!c.fts) parts.push(paren(c.node, c.sql as SqlPart));
    sql = joinParts(parts, ' OR ');
  }
  const needsSql = exact
    ? fts
      ? null
      : sql
    : children.every((c) => c.needsSql !== null)
      ? joinParts(
          children.map((c) => grouped(c.needsSql as SqlPart)),
          ' OR ',
        )
      : null;
  return {
    node,
    children,
    exact,
    fts,
    needs: allOf(
      children.map((c) => c.needs),
      ' OR ',
    ),
    needsInBody: allOf(
      children.map((c) => c.needsInBody),
      ' OR ',
    ),
    sql,
    needsSql,
    texts: children.flatMap((c) => c.texts),
  };
}

function planAnd(node: QueryNode, children: NodePlan[]): NodePlan {
  const exact = children.every((c) => c.exact);
  const { positive, negative, rest } = splitConjuncts(children);
  const fts: Fts | null = rest.length > 0 || positive === null ? null : { expr: positive, atomic: false };
  let sql: SqlPart | null = null;
  if (exact && fts) sql = ftsCondition(fts.expr);
  else if (exact) {
    const parts: SqlPart[] = [];
    if (positive !== null) parts.push(ftsCondition(positive));
    else if (negative !== null) parts.push(part(`NOT (${FTS_SUBQUERY})`, { sql: '', params: [negative] }));
    for (const c of rest) parts.push(paren(c.node, c.sql as SqlPart));
    sql = joinParts(parts, ' AND ');
  }
  const narrowing = children.map((c) => c.needsSql).filter((s): s is SqlPart => s !== null);
  const needsSql = exact
    ? fts
      ? null
      : sql
    : narrowing.length === 0
      ? null
      : joinParts(narrowing.map(grouped), ' AND ');
  return {
    node,
    children,
    exact,
    fts,
    needs: anyOf(children.map((c) => c.needs)),
    needsInBody: anyOf(children.map((c) => c.needsInBody)),
    sql,
    needsSql,
    texts: children.flatMap((c) => c.texts),
  };
}

export interface TextConjuncts {
  /** `P NOT N`: the positive text conjuncts, minus any excluded text; null without a positive one. */
  readonly positive: string | null;
  /** The excluded text conjuncts OR-ed (`a OR b` for `-a -b`); null when there are none. */
  readonly negative: string | null;
  /** The conjuncts that are neither, in order. */
  readonly rest: readonly NodePlan[];
}

/** Splits the operands of an AND into the text that can share one MATCH and everything else, in order. */
export function splitConjuncts(children: readonly NodePlan[]): TextConjuncts {
  const pos: Fts[] = [];
  const neg: Fts[] = [];
  const rest: NodePlan[] = [];
  for (const c of children) {
    const excluded = c.node.kind === 'not' ? (c.children[0] as NodePlan).fts : null;
    if (c.fts) pos.push(c.fts);
    else if (excluded) neg.push(excluded);
    else rest.push(c);
  }
  const negative = neg.length === 0 ? null : neg.length === 1 ? neg[0]!.expr : neg.map(wrap).join(' OR ');
  const negAtomic = neg.length === 1 ? neg[0]!.atomic : false;
  let positive: string | null = null;
  if (pos.length > 0) {
    const p: Fts = pos.length === 1 ? pos[0]! : { expr: pos.map(wrap).join(' AND '), atomic: false };
    positive = negative === null ? p.expr : `${wrap(p)} NOT ${wrap({ expr: negative, atomic: negAtomic })}`;
  }
  return { positive, negative, rest };
}

function leaf(
  node: QueryNode,
  exact: boolean,
  fts: Fts | null,
  needs: Fts | null,
  needsInBody: Fts | null,
  texts: readonly string[],
): NodePlan {
  const sql = fts ? ftsCondition(fts.expr) : null;
  return { node, children: [], exact, fts, needs, needsInBody, sql, needsSql: null, texts };
}

/** An exact node with no FTS5 form: its SQL is also what every match meets. */
function withSql(plan: NodePlan, sql: SqlPart): NodePlan {
  return { ...plan, sql, needsSql: sql };
}

/** `n.id IN (… MATCH ?)` with the expression as its parameter. */
function ftsCondition(expr: string): SqlPart {
  return { sql: FTS_SUBQUERY, params: [expr] };
}

/** `sql` with the parameters of `of` (a part wrapped in more SQL). */
function part(sql: string, of: SqlPart): SqlPart {
  return { sql, params: of.params };
}

function grouped(p: SqlPart): SqlPart {
  return { sql: `(${p.sql})`, params: p.params };
}

function joinParts(parts: readonly SqlPart[], op: string): SqlPart {
  return { sql: parts.map((p) => p.sql).join(op), params: parts.flatMap((p) => p.params) };
}

/** The expressions joined when every one exists (an OR is necessary only if each side is), else null. */
function allOf(parts: readonly (Fts | null)[], op: string): Fts | null {
  if (parts.some((p) => p === null)) return null;
  return { expr: (parts as Fts[]).map(wrap).join(op), atomic: false };
}

/** The expressions that exist, AND-ed (each conjunct's words are needed), or null when none does. */
function anyOf(parts: readonly (Fts | null)[]): Fts | null {
  return joinFts(parts.filter((f): f is Fts => f !== null));
}
