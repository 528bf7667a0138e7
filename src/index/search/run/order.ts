/**
 * @module
 * The order of search results, as the ranking statements of search/plan/sql.ts write it in SQL
 * (`ORDER BY bm25, n.mtime_ms DESC, n.path`), for the places that order rows in code.
 */
import type { SearchPosition } from '../plan/sql.js';

/** What a row's place in the order is made of: score (larger first), time (newer first), path. */
export interface Ordered {
  readonly score: number;
  readonly mtime_ms: number;
  readonly path: string;
}

/**
 * Where `row` sorts against `position`: negative before, positive after. Scores descending, times
 * descending, paths by their UTF-8 bytes, as SQLite orders them.
 */
export function comparePosition(row: Ordered, position: SearchPosition): number {
  if (row.score !== position.s) return row.score > position.s ? -1 : 1;
  if (row.mtime_ms !== position.m) return row.mtime_ms > position.m ? -1 : 1;
  return Buffer.compare(Buffer.from(row.path), Buffer.from(position.p));
}

/** Two rows in result order (for `Array.prototype.sort`). */
export function compareRows(a: Ordered, b: Ordered): number {
  return comparePosition(a, { s: b.score, m: b.mtime_ms, p: b.path });
}
