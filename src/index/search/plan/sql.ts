/**
 * @module
 * The statements of a search (search/plan/compile.ts says what `where`, `rankMatch` and `check` mean): the
 * page and the count of a query SQL answers exactly, ranked by BM25 or newest first, with keyset
 * paging; and every candidate of a query code must check, with the exact columns the check reads.
 */
import { NotedError } from '../../../common/errors.js';
import { escapeLike } from '../../db/like.js';
import { tagValue } from '../parse/tokens.js';
import type { CompiledSearch, SqlPart } from './compiled.js';
import { tagSql } from './conditions.js';
import { singlePhrase } from './phrases.js';

export interface SearchSqlOptions {
  /** Page size: a positive integer. */
  limit: number;
  /** Only notes in this folder or its sub-folders: lower-cased, vault-relative, `''` for the whole vault. */
  folderLower?: string;
  /** Only notes carrying this tag or one nested under it: lower-cased, with or without `#`. */
  tagLower?: string;
  /** One more condition over `n` the caller needs (policy exclusions), with its own parameters. */
  extra?: { where: string; params: unknown[] };
  /** Only rows sorting after this one (the last of the previous page): keyset paging. */
  after?: SearchPosition;
}

/** Where a row sorts: best score first, then newest, then by path. */
export interface SearchPosition {
  /** The score (0 for an unranked query). */
  readonly s: number;
  readonly m: number;
  readonly p: string;
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
   * this statement gives the page instead. search/run/run.ts does this.
   */
  exact?: { sql: string; params: unknown[]; looked: number };
  /**
   * Ranked queries: every match `{ id, score }` in no order, for a caller that steps through them
   * and keeps the page itself (search/run/stepped.ts), with the page's size and start.
   */
  stepped?: { sql: string; params: unknown[]; limit: number; after?: SearchPosition; phraseRank?: string };
  /**
   * Set when the page is the ranking of `rankMatch` alone (no condition but the cursor): the page may
   * then come from the best rows kept of an earlier ranking of the same text (search/run/top-rows.ts),
   * with `countSql` and `sql` as the fallback.
   */
  top?: { rankMatch: string; limit: number; after?: SearchPosition };
  /**
   * Set when the statements rank by phrases (`noted_rank`, {@link rankBy}): the text whose phrase
   * scores the runner sets up first, on the connection that runs them.
   */
  phraseRank?: string;
}

/**
 * BM25 with the column weights title ×3, tags ×2, body ×1, called directly: ordering by the table's
 * configured `rank` column runs the same function through a slower path (40 ms against 22 ms for a
 * word in half of 100k notes).
 */
export const BM25 = 'bm25(notes_fts, 3.0, 2.0, 1.0)';

/**
 * The same order for a text of several phrases: minus Lucene's BM25 of the row, put together from
 * the row's bm25() and the parts the runner scored phrase by phrase first (search/run/phrase-scores.ts).
 */
const PHRASE_RANK = `(-noted_rank(notes_fts.rowid, -${BM25}))`;

/** What ranks `rankMatch` (smaller first), and the text the runner must score first when it is by phrases. */
export function rankBy(rankMatch: string): { expr: string; phraseRank?: string } {
  return singlePhrase(rankMatch) ? { expr: BM25 } : { expr: PHRASE_RANK, phraseRank: rankMatch };
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
  const { filters, params: filterParams } = conditions(compiled, opts);
  const rank = compiled.rankMatch === null ? null : rankBy(compiled.rankMatch);
  const phraseRank = rank?.phraseRank === undefined ? {} : { phraseRank: rank.phraseRank };
  // The page starts after the previous one's last row; the count is of the whole list.
  const pageFilters = [...filters];
  const pageParams = [...filterParams];
  if (opts.after) {
    const a = opts.after;
    const later = '(n.mtime_ms < ? OR (n.mtime_ms = ? AND n.path > ?))';
    if (rank !== null) {
      // score = -bm25, so a lower score is a larger bm25.
      pageFilters.push(`(${rank.expr} > ? OR (${rank.expr} = ? AND ${later}))`);
      pageParams.push(-a.s, -a.s, a.m, a.m, a.p);
    } else {
      pageFilters.push(later);
      pageParams.push(a.m, a.m, a.p);
    }
  }

  if (rank !== null && compiled.rankMatch !== null) {
    // With filters the page must be cut after filtering, so every match is joined and ranked.
    const from = 'FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid';
    const cond = ['notes_fts MATCH ?', ...filters].join(' AND ');
    const pageCond = ['notes_fts MATCH ?', ...pageFilters].join(' AND ');
    const stepped = {
      sql:
        `SELECT notes_fts.rowid AS id, -${rank.expr} AS score ` +
        (filters.length > 0 ? `${from} WHERE ${cond}` : 'FROM notes_fts WHERE notes_fts MATCH ?'),
      params: [compiled.rankMatch, ...filterParams],
      limit: opts.limit,
      ...(opts.after ? { after: opts.after } : {}),
      ...phraseRank,
    };
    const joined = {
      sql:
        `SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, -${rank.expr} AS score ` +
        `${from} WHERE ${pageCond} ORDER BY ${rank.expr}, n.mtime_ms DESC, n.path LIMIT ?`,
      params: [compiled.rankMatch, ...pageParams, opts.limit],
    };
    const top =
      filters.length === 0
        ? {
            top: {
              rankMatch: compiled.rankMatch,
              limit: opts.limit,
              ...(opts.after ? { after: opts.after } : {}),
            },
          }
        : {};
    if (pageFilters.length > 0) {
      return {
        ...joined,
        ...top,
        countSql:
          filters.length > 0
            ? `SELECT COUNT(*) AS total ${from} WHERE ${cond}`
            : 'SELECT COUNT(*) AS total FROM notes_fts WHERE notes_fts MATCH ?',
        countParams: [compiled.rankMatch, ...filterParams],
        stepped,
        ...phraseRank,
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
        `count(*) OVER () AS fetched FROM (SELECT rowid, ${rank.expr} AS r FROM notes_fts WHERE notes_fts MATCH ? ` +
        'ORDER BY r LIMIT ?)) f JOIN notes n ON n.id = f.rowid ORDER BY f.r, n.mtime_ms DESC, n.path LIMIT ?',
      params: [compiled.rankMatch, looked, opts.limit],
      countSql: 'SELECT COUNT(*) AS total FROM notes_fts WHERE notes_fts MATCH ?',
      countParams: [compiled.rankMatch],
      exact: { ...joined, looked },
      stepped,
      ...top,
      ...phraseRank,
    };
  }
  const cond = [...filters, 'n.visible = 1'].join(' AND ');
  const pageCond = [...pageFilters, 'n.visible = 1'].join(' AND ');
  return {
    sql:
      'SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, 0 AS score ' +
      `FROM notes n WHERE ${pageCond} ORDER BY n.mtime_ms DESC, n.path LIMIT ?`,
    params: [...pageParams, opts.limit],
    countSql: `SELECT COUNT(*) AS total FROM notes n WHERE ${cond}`,
    countParams: [...filterParams],
  };
}

/** The conditions of a search beyond its MATCH: the compiled `where`, the folder, the tag, the caller's own. */
function conditions(
  compiled: CompiledSearch,
  opts: Omit<SearchSqlOptions, 'limit' | 'after'>,
): SqlPart & { filters: string[] } {
  const filters: string[] = [];
  const params: unknown[] = [];
  if (compiled.where !== '1') {
    filters.push(`(${compiled.where})`);
    params.push(...compiled.params);
  }
  const folder = (opts.folderLower ?? '').replace(/^\/+|\/+$/g, '');
  if (folder !== '') {
    filters.push("(n.folder_lower = ? OR n.folder_lower LIKE ? ESCAPE '\\')");
    params.push(folder, `${escapeLike(folder)}/%`);
  }
  if (opts.tagLower !== undefined) {
    if (tagValue(opts.tagLower) === '') {
      throw new NotedError(
        'validation_error',
        `The tag filter ${JSON.stringify(opts.tagLower)} names no tag: give one such as project or #project/sub, or leave tag out.`,
      );
    }
    filters.push(tagSql(opts.tagLower, params));
  }
  if (opts.extra) {
    filters.push(`(${opts.extra.where})`);
    params.push(...opts.extra.params);
  }
  return { filters, sql: filters.join(' AND '), params };
}

/**
 * Every candidate of a query with a check (compiled.check), in result order, without a limit: the
 * caller checks each and pages what passes. Rows are those of {@link searchSql} plus `size` and the
 * exact columns `c0`, `c1`… the check reads.
 */
export function candidateSql(
  compiled: CompiledSearch,
  opts: Omit<SearchSqlOptions, 'limit' | 'after'>,
): SqlPart & { phraseRank?: string } {
  const { filters, params } = conditions(compiled, opts);
  const columns = compiled.columns ?? [];
  const cols = columns.map((c, i) => `, (${c.sql}) AS c${i}`).join('');
  const colParams = columns.flatMap((c) => c.params);
  const select =
    'SELECT n.id AS id, n.path AS path, n.title AS title, n.mtime_ms AS mtime_ms, n.size AS size';
  if (compiled.rankMatch !== null) {
    const cond = ['notes_fts MATCH ?', ...filters].join(' AND ');
    const rank = rankBy(compiled.rankMatch);
    return {
      sql: `${select}, -${rank.expr} AS score${cols} FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid WHERE ${cond} ORDER BY ${rank.expr}, n.mtime_ms DESC, n.path`,
      params: [...colParams, compiled.rankMatch, ...params],
      ...(rank.phraseRank === undefined ? {} : { phraseRank: rank.phraseRank }),
    };
  }
  const cond = [...filters, 'n.visible = 1'].join(' AND ');
  return {
    sql: `${select}, 0 AS score${cols} FROM notes n WHERE ${cond} ORDER BY n.mtime_ms DESC, n.path`,
    params: [...colParams, ...params],
  };
}
