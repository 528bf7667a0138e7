/**
 * @module
 * The best rows of a ranking, kept between searches (issue 34). FTS5's bm25() runs for every row that
 * matches, so a word in every note cost 124 ms of CPU per search at 100k notes, ten times that at a
 * million, for a page of ten. A text ranked alone (no condition but the page cursor) keeps its
 * {@link KEPT_ROWS} best rows with their scores, its total, and the best score it left out; later pages
 * and later searches for it are cut from them without scoring anything.
 *
 * Exact, not an approximation. The kept rows hold while the full-text index is byte for byte what it
 * was: bm25() reads nothing else (the matching rows, their token counts, and the row and token totals
 * of the averages record), and every write to FTS5, an insert, a delete or a merge, rewrites its
 * structure record or its averages ({@link ftsStamp}; the test checks that each kind of write does).
 * A row is served only when its score is strictly above every score left out, so ties at the edge of
 * what was kept never decide a page; a page that needs rows past that edge is ranked by SQL again.
 * What a page orders by besides the score (time, path) is read from `notes` at each search.
 */
import { type Db, reusedStatement } from '../../db/database.js';
import type { SearchPosition } from '../plan/sql.js';
import { BM25 } from '../plan/sql.js';
import { comparePosition, compareRows } from './order.js';

/** How many of its best rows a ranking keeps: ten pages of 50. */
export const KEPT_ROWS = 500;
/** Texts matching fewer notes than this are ranked by SQL each time: scoring them costs little. */
export const KEPT_FROM = 2_000;
/** How many texts each connection keeps (the least recently used goes first): about 8 KB each. */
const KEPT_TEXTS = 64;

/** The averages record (FTS5_AVERAGES_ROWID) and the structure record (FTS5_STRUCTURE_ROWID). */
const STAMP_SQL = 'SELECT block FROM notes_fts_data WHERE id IN (1, 10) ORDER BY id';

interface Kept {
  readonly stamp: Buffer;
  readonly total: number;
  /** Best first, as bm25() scored them (larger is better). */
  readonly ids: readonly number[];
  readonly scores: readonly number[];
  /** The best score left out; -Infinity when every matching row is kept. */
  readonly bound: number;
}

export interface TopRow {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
  readonly score: number;
}

const keptBy = new WeakMap<Db, Map<string, Kept>>();

/** What bm25() reads, as bytes: equal bytes, equal scores for every row. */
export function ftsStamp(db: Db): Buffer {
  const rows = reusedStatement<[], { block: Buffer }>(db, STAMP_SQL).all();
  return Buffer.concat(rows.map((r) => r.block));
}

/**
 * The page of `top` (up to `limit` rows after `after`) and the text's total, inside the caller's
 * read transaction. `rows` is null when the kept rows cannot settle the page, or the text is rare
 * enough not to keep: the caller ranks with SQL and uses `total` as counted here. `writing`: the
 * connection was inside a write of its own, whose rows FTS5 may not have flushed yet (its records
 * unchanged): nothing is kept or used then.
 */
export function topRows(
  db: Db,
  top: { rankMatch: string; limit: number; after?: SearchPosition },
  count: () => number,
  writing: boolean,
): { rows: TopRow[] | null; total: number } {
  if (writing) return { rows: null, total: count() };
  const texts = keptBy.get(db) ?? new Map<string, Kept>();
  keptBy.set(db, texts);
  const stamp = ftsStamp(db);
  let kept = texts.get(top.rankMatch);
  texts.delete(top.rankMatch);
  if (kept === undefined || !kept.stamp.equals(stamp)) {
    const total = count();
    if (total < KEPT_FROM) return { rows: null, total };
    kept = rank(db, top.rankMatch, total, stamp);
  }
  texts.set(top.rankMatch, kept);
  if (texts.size > KEPT_TEXTS) texts.delete(texts.keys().next().value as string);
  return { rows: pageOf(db, kept, top.limit, top.after), total: kept.total };
}

function rank(db: Db, rankMatch: string, total: number, stamp: Buffer): Kept {
  const rows = reusedStatement<[string, number], { id: number; score: number }>(
    db,
    `SELECT rowid AS id, -${BM25} AS score FROM notes_fts WHERE notes_fts MATCH ? ORDER BY ${BM25} LIMIT ?`,
  ).all(rankMatch, KEPT_ROWS + 1);
  const left = rows[KEPT_ROWS];
  const best = rows.slice(0, KEPT_ROWS);
  return {
    stamp,
    total,
    ids: best.map((r) => r.id),
    scores: best.map((r) => r.score),
    bound: left === undefined ? Number.NEGATIVE_INFINITY : left.score,
  };
}

/**
 * The page from the kept rows, or null when it may hold a row that was left out. Rows are taken in
 * score order from the cursor's score on, as many as the page and the cursor's ties need, and then
 * to the end of the run of equal scores they stop in; times and paths order them within a score.
 */
function pageOf(db: Db, kept: Kept, limit: number, after: SearchPosition | undefined): TopRow[] | null {
  const { scores, bound } = kept;
  let servable = scores.length;
  while (servable > 0 && (scores[servable - 1] as number) <= bound) servable--;
  let start = 0;
  if (after) while (start < servable && (scores[start] as number) > after.s) start++;
  let ties = 0;
  if (after) while (start + ties < servable && scores[start + ties] === after.s) ties++;
  let end = Math.min(servable, start + ties + limit);
  while (end > start && end < servable && scores[end] === scores[end - 1]) end++;
  const ids = kept.ids.slice(start, end);
  const found = reusedStatement<[string], Omit<TopRow, 'score'>>(
    db,
    'SELECT id, path, title, mtime_ms FROM notes WHERE id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(ids));
  if (found.length !== ids.length) return null;
  const score = new Map(ids.map((id, i) => [id, scores[start + i] as number]));
  const rows = found
    .map((r) => ({
      id: r.id,
      path: r.path,
      title: r.title,
      mtime_ms: r.mtime_ms,
      score: score.get(r.id) as number,
    }))
    .sort(compareRows)
    .filter((r) => after === undefined || comparePosition(r, after) > 0)
    .slice(0, limit);
  // Fewer than asked: the page ends only if nothing was left out.
  if (rows.length < limit && bound !== Number.NEGATIVE_INFINITY) return null;
  return rows;
}

/** Forgets every kept ranking of this connection (tests compare with SQL's own ranking). */
export function forgetKeptRows(db: Db): void {
  keptBy.delete(db);
}
