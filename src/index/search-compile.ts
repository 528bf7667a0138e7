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
 * query is text only). {@link searchSql} applies this contract; use it rather than assembling SQL.
 */

import { NotedError } from '../common/errors.js';
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
}

export interface SearchSqlOptions {
  /** Page size: a positive integer. */
  limit: number;
  /** Only notes in this folder or its sub-folders: lower-cased, vault-relative, `''` for the whole vault. */
  folderLower?: string;
  /** Only notes carrying this tag or one nested under it: lower-cased, with or without `#`. */
  tagLower?: string;
  /** One more condition over `n` the caller needs (policy exclusions), with its own parameters. */
  extra?: { where: string; params: unknown[] };
}

export interface SearchSql {
  /** Rows `{ id, path, title, mtime_ms, score }`, best first. */
  sql: string;
  params: unknown[];
  /** One row `{ total }`: how many notes match in all (ignoring `limit`). */
  countSql: string;
  countParams: unknown[];
  /**
   * Set when `sql` ranks by score alone before it orders ties (its rows then also carry `edge`, the
   * worst score it looked at, and `fetched`, how many it looked at): if `fetched` is `looked` and the
   * page's last score equals `edge`, notes with that score may have been left out arbitrarily, and
   * this statement gives the page instead. search-run.ts does this.
   */
  exact?: { sql: string; params: unknown[]; looked: number };
}

/**
 * BM25 with the column weights title ×3, tags ×2, body ×1, called directly: ordering by the table's
 * configured `rank` column runs the same function through a slower path (40 ms against 22 ms for a
 * word in half of 100k notes).
 */
const BM25 = 'bm25(notes_fts, 3.0, 2.0, 1.0)';

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
 * The full search statement and its count. Ranked queries drive from `notes_fts MATCH ?` joined to
 * `notes`, best BM25 first (`score` = -rank, larger is better), ties newest first; unranked queries
 * return newest first with `score` 0. Path is the last tie-break so pages are stable, and equal
 * whatever order the notes were indexed in.
 *
 * Only visible notes have a full-text row (visibility.ts), so ranked statements need no visibility
 * condition; unranked ones walk the visible notes alone (`n.visible = 1`, served by its own index).
 */
export function searchSql(compiled: CompiledSearch, opts: SearchSqlOptions): SearchSql {
  if (!Number.isInteger(opts.limit) || opts.limit < 1) {
    throw new Error(`searchSql: limit must be a positive integer, got ${opts.limit}`);
  }
  const filters: string[] = [];
  const filterParams: unknown[] = [];
  if (compiled.where !== '1') {
    filters.push(`(${compiled.where})`);
    filterParams.push(...compiled.params);
  }
  const folder = (opts.folderLower ?? '').replace(/^\/+|\/+$/g, '');
  if (folder !== '') {
    filters.push("(n.folder_lower = ? OR n.folder_lower LIKE ? ESCAPE '\\')");
    filterParams.push(folder, `${escapeLike(folder)}/%`);
  }
  if (opts.tagLower !== undefined) {
    if (tagValue(opts.tagLower) === '') {
      throw new NotedError(
        'validation_error',
        `The tag filter ${JSON.stringify(opts.tagLower)} names no tag: give one such as project or #project/sub, or leave tag out.`,
      );
    }
    filters.push(tagSql(opts.tagLower, filterParams));
  }
  if (opts.extra) {
    filters.push(`(${opts.extra.where})`);
    filterParams.push(...opts.extra.params);
  }

  if (compiled.rankMatch !== null) {
    // With filters the page must be cut after filtering, so every match is joined and ranked.
    const from = 'FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid';
    const cond = ['notes_fts MATCH ?', ...filters].join(' AND ');
    const joined = {
      sql:
        `SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, -${BM25} AS score ` +
        `${from} WHERE ${cond} ORDER BY ${BM25}, n.mtime_ms DESC, n.path LIMIT ?`,
      params: [compiled.rankMatch, ...filterParams, opts.limit],
    };
    if (filters.length > 0) {
      return {
        ...joined,
        countSql: `SELECT COUNT(*) AS total ${from} WHERE ${cond}`,
        countParams: [compiled.rankMatch, ...filterParams],
      };
    }
    // Nothing to filter: FTS5 ranks and cuts on its own, and only those rows are joined. Measured on
    // 100k notes: 23 ms against 57 ms for the join above for a word in half the notes. The cut looks
    // further than the page so that equal scores at its edge still go newest first; when they run on
    // past what it looked at, the join above gives the page (`exact`).
    const looked = opts.limit * 2 + 20;
    return {
      sql:
        'SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, -f.r AS score, ' +
        '-f.edge AS edge, f.fetched AS fetched FROM (SELECT rowid, r, max(r) OVER () AS edge, ' +
        `count(*) OVER () AS fetched FROM (SELECT rowid, ${BM25} AS r FROM notes_fts WHERE notes_fts MATCH ? ` +
        'ORDER BY r LIMIT ?)) f JOIN notes n ON n.id = f.rowid ORDER BY f.r, n.mtime_ms DESC, n.path LIMIT ?',
      params: [compiled.rankMatch, looked, opts.limit],
      countSql: 'SELECT COUNT(*) AS total FROM notes_fts WHERE notes_fts MATCH ?',
      countParams: [compiled.rankMatch],
      exact: { ...joined, looked },
    };
  }
  filters.push('n.visible = 1');
  const cond = filters.join(' AND ');
  return {
    sql:
      'SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, 0 AS score ' +
      `FROM notes n WHERE ${cond} ORDER BY n.mtime_ms DESC, n.path LIMIT ?`,
    params: [...filterParams, opts.limit],
    countSql: `SELECT COUNT(*) AS total FROM notes n WHERE ${cond}`,
    countParams: [...filterParams],
  };
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
      return { expr: ftsString(node.text), atomic: true };
    case 'field':
    case 'not':
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
      return fieldSql(node.field, node.value, params);
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
      // Words and phrases always have an FTS form, so they never get here.
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
function tagSql(raw: string, params: unknown[]): string {
  const tag = tagValue(raw.toLowerCase());
  params.push(tag, `${escapeLike(tag)}/%`);
  return "EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND (t.tag_lower = ? OR t.tag_lower LIKE ? ESCAPE '\\'))";
}

/** The words and phrases a result was found by: everything not under an exclusion and not a field value. */
function positiveTexts(node: QueryNode): string[] {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return [node.text];
    case 'and':
    case 'or':
      return node.operands.flatMap(positiveTexts);
    default:
      return [];
  }
}
