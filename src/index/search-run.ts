/**
 * @module
 * Runs a compiled search (search-compile.ts) in one read transaction, so that its page, its total and
 * the checks before them all see the same rows: that the index follows the rules of the request
 * (visibility.ts), and that the query's work is within its bound (search-work.ts).
 */
import { type Db, reusedStatement } from './database.js';
import type { SearchSql } from './search-compile.js';
import type { QueryNode } from './search-query.js';
import { checkSearchWork } from './search-work.js';
import { storedVisibility } from './visibility.js';

export interface SearchRow {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
  /** BM25, larger is better; 0 for a query without words. */
  readonly score: number;
}

export interface SearchPage {
  readonly rows: SearchRow[];
  /** Every matching note, not only the page. */
  readonly total: number;
}

interface FastRow extends SearchRow {
  readonly edge?: number;
  readonly fetched?: number;
}

/**
 * The page and total of a search. Null, with nothing read, when the index does not follow the rules
 * named `visibilityKey` (another process changed it since the caller brought it in line): the caller
 * brings it in line again and retries. Throws `too_large` for a query over its work bound.
 */
export function runSearch(
  db: Db,
  query: QueryNode,
  sql: SearchSql,
  visibilityKey: string,
): SearchPage | null {
  return db.transaction((): SearchPage | null => {
    if (storedVisibility(db) !== visibilityKey) return null;
    checkSearchWork(db, query);
    let rows = reusedStatement<unknown[], FastRow>(db, sql.sql).all(...sql.params);
    const last = rows[rows.length - 1];
    if (sql.exact && last !== undefined && last.fetched === sql.exact.looked && last.score === last.edge) {
      // The page ends inside a run of equal scores that went on past what the fast statement looked at.
      rows = reusedStatement<unknown[], FastRow>(db, sql.exact.sql).all(...sql.exact.params);
    }
    const total = reusedStatement<unknown[], { total: number }>(db, sql.countSql).get(
      ...sql.countParams,
    )!.total;
    return {
      rows: rows.map((r) => ({
        id: r.id,
        path: r.path,
        title: r.title,
        mtime_ms: r.mtime_ms,
        score: r.score,
      })),
      total,
    };
  })();
}
