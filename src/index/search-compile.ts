/**
 * @module
 * Turns a parsed search query into SQL over the index: words and phrases become one FTS5 MATCH per
 * maximal text sub-tree (so BM25 can rank them), field operators become plain SQL on `notes` and
 * `note_tags`. Every word reaches FTS5 as a quoted string; user text is never FTS5 syntax, and never SQL
 * (all values travel as `?` parameters).
 *
 * How `where` and `rankMatch` fit together (the contract every caller relies on): the notes a query
 * matches are exactly the rows `n` of `notes` for which `where` is true AND, when `rankMatch` is not
 * null, `n.id` is a rowid of `notes_fts MATCH rankMatch`. The text part captured in `rankMatch` is left
 * out of `where`, so `where` alone is NOT the whole query when `rankMatch` is set (it is `1` when the
 * query is text only). search-sql.ts applies this contract; use it rather than assembling SQL.
 */

import { foldName } from '../markdown/link-key.js';
import { segmentCjk } from './cjk.js';
import type { QueryNode } from './search-query.js';
import { tagValue } from './search-tokens.js';

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
   * match, but not only for matches): each candidate must also pass this check (search-check.ts), which
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

const FTS_SUBQUERY = 'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)';

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
 * A word or phrase as an FTS5 string: always quoted, `"` doubled, CJK spaced out into a phrase. A NUL
 * becomes a space: FTS5 reads its expression as a C string, so a NUL cut it short ("unterminated
 * string"), and the tokenizer splits words at a NUL anyway, so the phrase means the same.
 */
export function ftsString(text: string): string {
  return `"${segmentCjk(text).replaceAll('"', '""').replaceAll('\u0000', ' ')}"`;
}

/** Escapes `\`, `%` and `_` for `LIKE … ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}

interface Fts {
  expr: string;
  /** True when `expr` is a single string and needs no parentheses inside a larger expression. */
  atomic: boolean;
}

const wrap = (f: Fts): string => (f.atomic ? f.expr : `(${f.expr})`);

/**
 * The FTS5 expression for a text-only sub-tree, or null when there is none: the sub-tree holds a field,
 * or it is negative on its own (FTS5's NOT is binary, `a NOT b`; there is no "everything except b").
 */
function ftsOf(node: QueryNode): Fts | null {
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
function splitConjuncts(operands: readonly QueryNode[]): { text: TextConjuncts; rest: QueryNode[] } {
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

/** SQL for any node, pushing its parameters in the order its placeholders appear. */
function sqlOf(node: QueryNode, params: unknown[]): string {
  const whole = ftsOf(node);
  if (whole) {
    params.push(whole.expr);
    return FTS_SUBQUERY;
  }
  switch (node.kind) {
    case 'field':
      if (node.matchCase) {
        params.push(JSON.stringify(node));
        return 'noted_text(?, n.path) = 1';
      }
      return fieldSql(node.field, node.value, params);
    case 'regex':
      params.push(JSON.stringify(node));
      return node.in === 'tag'
        ? 'EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND noted_text(?, t.tag) = 1)'
        : 'noted_text(?, n.path) = 1';
    case 'scope':
      return taskSql(node, params);
    case 'property':
      return propertySql(node, params);
    case 'not':
      return `NOT (${sqlOf(node.operand, params)})`;
    case 'and': {
      const { text, rest } = splitConjuncts(node.operands);
      const parts: string[] = [];
      if (text.positive) {
        params.push(text.positive);
        parts.push(FTS_SUBQUERY);
      } else if (text.negative) {
        params.push(text.negative);
        parts.push(`NOT (${FTS_SUBQUERY})`);
      }
      for (const op of rest) parts.push(paren(op, sqlOf(op, params)));
      return parts.join(' AND ');
    }
    case 'or': {
      const text = node.operands.map(ftsOf).filter((f): f is Fts => f !== null);
      const parts: string[] = [];
      if (text.length > 0) {
        params.push(text.map(wrap).join(' OR '));
        parts.push(FTS_SUBQUERY);
      }
      for (const op of node.operands) {
        if (!ftsOf(op)) parts.push(paren(op, sqlOf(op, params)));
      }
      return parts.join(' OR ');
    }
    default:
      // Exact words and phrases always have an FTS form; other leaves are checked in code.
      throw new Error(`sqlOf: no SQL for a ${node.kind} node`);
  }
}

/** AND and OR operands are parenthesized so SQL's own precedence can never regroup them. */
function paren(node: QueryNode, sql: string): string {
  return node.kind === 'and' || node.kind === 'or' ? `(${sql})` : sql;
}

function fieldSql(field: 'tag' | 'path' | 'file', value: string, params: unknown[]): string {
  if (field === 'tag') return tagSql(value, params);
  params.push(value.toLowerCase());
  return field === 'path' ? 'instr(n.path_lower, ?) > 0' : 'instr(n.file_lower, ?) > 0';
}

/** The tag or a tag nested under it, whole `/` segments from the start (TAG-21). */
export function tagSql(raw: string, params: unknown[]): string {
  const tag = tagValue(raw.toLowerCase());
  params.push(tag, `${escapeLike(tag)}/%`);
  return "EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND (t.tag_lower = ? OR t.tag_lower LIKE ? ESCAPE '\\'))";
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

/**
 * True when SQL answers the node exactly; false when code must check it (search-check.ts): scopes
 * with an operand, regexes, text under match-case, properties with a value to compare or match, and
 * any group holding one of those.
 */
export function isExact(node: QueryNode): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return node.matchCase !== true;
    case 'field':
      return true;
    case 'regex':
      // On a path, a file name or a tag the index holds the text; elsewhere the note must be read.
      return node.in === 'file' || node.in === 'path' || node.in === 'tag';
    case 'scope':
      // A task's text is in the index; lines, blocks and sections are found by reading the note.
      return node.operand === null || node.scope.startsWith('task');
    case 'property':
      return true;
    case 'not':
      return isExact(node.operand);
    case 'and':
    case 'or':
      return node.operands.every(isExact);
  }
}

/**
 * A query with parts SQL cannot answer: `rankMatch` and `where` narrow it to candidates (conditions
 * every match meets: the words a scope looks for are in the body, a property query needs the
 * property…), and `check` says what each candidate must also pass.
 */
function compileCandidates(node: QueryNode, highlightTerms: string[]): CompiledSearch {
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

/**
 * An FTS5 expression every note matching `node` matches, or null when there is none. Inside a scope
 * (`body`) the words must be in the body column: lines, blocks, sections and tasks are its text.
 */
function necessaryFts(node: QueryNode, body: boolean): Fts | null {
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

/**
 * A note with a task (any, open, or done: TSK-02, any status but a space is done) whose text matches
 * the operand, tested by `noted_text` on the index's task rows; the words the operand needs narrow
 * the notes first through the full-text index.
 */
function taskSql(node: Extract<QueryNode, { kind: 'scope' }>, params: unknown[]): string {
  const scope = node.scope;
  const done = scope === 'task-todo' ? ' AND k.done = 0' : scope === 'task-done' ? ' AND k.done = 1' : '';
  if (node.operand === null) return `EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done})`;
  const words = necessaryFts(node.operand, true);
  let narrow = '';
  if (words) {
    params.push(words.expr);
    narrow = `${FTS_SUBQUERY} AND `;
  }
  params.push(JSON.stringify(node.operand));
  return `(${narrow}EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done} AND noted_text(?, k.text) = 1))`;
}

/**
 * `[name]`: the note has the property; `[name:null]`: with no value (null, `~` or nothing); with a
 * value to compare or match, `noted_value` tests each stored value. A regex name is tested by `noted_text`.
 */
function propertySql(node: Extract<QueryNode, { kind: 'property' }>, params: unknown[]): string {
  let name: string;
  if (node.nameRegex) {
    params.push(JSON.stringify({ kind: 'regex', source: node.name }));
    name = 'noted_text(?, p.key) = 1';
  } else {
    params.push(foldName(node.name));
    name = 'p.key_lower = ?';
  }
  let value = '';
  if (node.value?.kind === 'null') value = " AND p.value_json = 'null'";
  else if (node.value) {
    params.push(JSON.stringify(node.value));
    value = ' AND noted_value(?, p.value_json) = 1';
  }
  return `EXISTS (SELECT 1 FROM note_props p WHERE ${name} AND p.note_id = n.id${value})`;
}
