/**
 * @module
 * The FTS5 expressions of a search. {@link ftsOf} gives a text-only sub-tree as one MATCH expression
 * (the text conjuncts of an AND share one, {@link splitConjuncts}), which BM25 can rank; for a part
 * that code must check, {@link necessaryFts} gives the words every match must contain, to narrow the
 * notes first. Every word reaches FTS5 as a quoted string ({@link ftsString}), never as syntax.
 */

import { segmentCjk } from '../../words/cjk.js';
import type { QueryNode } from '../parse/nodes.js';

/**
 * A word or phrase as an FTS5 string: always quoted, `"` doubled, CJK spaced out into a phrase. A NUL
 * becomes a space: FTS5 reads its expression as a C string, so a NUL cut it short ("unterminated
 * string"), and the tokenizer splits words at a NUL anyway, so the phrase means the same.
 */
export function ftsString(text: string): string {
  return `"${segmentCjk(text).replaceAll('"', '""').replaceAll('\u0000', ' ')}"`;
}

export interface Fts {
  expr: string;
  /** True when `expr` is a single string and needs no parentheses inside a larger expression. */
  atomic: boolean;
}

export const wrap = (f: Fts): string => (f.atomic ? f.expr : `(${f.expr})`);

/**
 * The FTS5 expression for a text-only sub-tree, or null when there is none: the sub-tree holds a field,
 * or it is negative on its own (FTS5's NOT is binary, `a NOT b`; there is no "everything except b").
 */
export function ftsOf(node: QueryNode): Fts | null {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      if (node.matchCase) return null;
      return node.in === 'content'
        ? { expr: `body : ${ftsString(node.text)}`, atomic: false }
        : { expr: ftsString(node.text), atomic: true };
    case 'field':
    case 'not':
    case 'regex':
    case 'scope':
    case 'property':
      return null;
    case 'or': {
      const parts = node.operands.map(ftsOf);
      if (parts.some((p) => p === null)) return null;
      return { expr: (parts as Fts[]).map(wrap).join(' OR '), atomic: false };
    }
    case 'and': {
      const { text, rest } = splitConjuncts(node.operands);
      if (rest.length > 0 || !text.positive) return null;
      return { expr: text.positive, atomic: false };
    }
  }
}

interface TextConjuncts {
  /** `P NOT N`: the positive text conjuncts, minus any excluded text; null without a positive one. */
  positive: string | null;
  /** The excluded text conjuncts OR-ed (`a OR b` for `-a -b`); null when there are none. */
  negative: string | null;
}

/**
 * Splits the operands of an AND into the text that can share one MATCH and everything else, in order.
 * When only excluded text is found, `rest` keeps it as one `not` node so the caller need not know.
 */
export function splitConjuncts(operands: readonly QueryNode[]): { text: TextConjuncts; rest: QueryNode[] } {
  const pos: Fts[] = [];
  const neg: Fts[] = [];
  const rest: QueryNode[] = [];
  for (const op of operands) {
    const f = ftsOf(op);
    const nf = op.kind === 'not' ? ftsOf(op.operand) : null;
    if (f) pos.push(f);
    else if (nf) neg.push(nf);
    else rest.push(op);
  }
  const negative = neg.length === 0 ? null : neg.length === 1 ? neg[0]!.expr : neg.map(wrap).join(' OR ');
  const negAtomic = neg.length === 1 ? neg[0]!.atomic : false;
  let positive: string | null = null;
  if (pos.length > 0) {
    const p: Fts = pos.length === 1 ? pos[0]! : { expr: pos.map(wrap).join(' AND '), atomic: false };
    positive = negative === null ? p.expr : `${wrap(p)} NOT ${wrap({ expr: negative, atomic: negAtomic })}`;
  }
  return { text: { positive, negative }, rest };
}

/**
 * An FTS5 expression every note matching `node` matches, or null when there is none. Inside a scope
 * (`body`) the words must be in the body column: lines, blocks, sections and tasks are its text.
 */
export function necessaryFts(node: QueryNode, body: boolean): Fts | null {
  switch (node.kind) {
    case 'word':
    case 'phrase': {
      const str = ftsString(node.text);
      return body || node.in === 'content'
        ? { expr: `body : ${str}`, atomic: false }
        : { expr: str, atomic: true };
    }
    case 'scope':
      return node.operand === null ? null : necessaryFts(node.operand, true);
    case 'and': {
      const parts = node.operands.map((op) => necessaryFts(op, body)).filter((f): f is Fts => f !== null);
      if (parts.length === 0) return null;
      return parts.length === 1 ? parts[0]! : { expr: parts.map(wrap).join(' AND '), atomic: false };
    }
    case 'or': {
      const parts = node.operands.map((op) => necessaryFts(op, body));
      if (parts.some((p) => p === null)) return null;
      return { expr: (parts as Fts[]).map(wrap).join(' OR '), atomic: false };
    }
    default:
      return body ? null : ftsOf(node);
  }
}
