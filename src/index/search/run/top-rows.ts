/**
 * @module
 * The best rows of a ranking, kept between searches (issue 34). FTS5's bm25() runs for every row that
 * matches, so a word in every note cost 124 ms of CPU per search at 100k notes, ten times that at a
 * million, for a page of ten. A text ranked alone (no condition but the page cursor) keeps its
 * {@link KEPT_ROWS} best rows with their scores, its total, and the best score it left out; later pages
 * and later searches for it are cut from them.
 *
 * Exact, not an approximation. While the full-text index is byte for byte what it was, nothing is
 * scored again: bm25() reads nothing else (the matching rows, their token counts, and the row and
 * token totals of the averages record), and every write to FTS5, an insert, a delete or a merge,
 * rewrites its structure record or its averages ({@link ftsStamp}; the test checks that each kind of
 * write does). After writes, a text of one phrase scores again only its kept rows and the rows written
 * since, and bounds every other row from below its first ranking's edge ({@link rescored}); other texts
 * are ranked anew. A row is served only when its score is strictly above that bound, so ties at the
 * edge of what was kept never decide a page; a page that needs rows past it is ranked by SQL. What a
 * page orders by besides the score (time, path) is read from `notes` at each search.
 */
import { type Db, reusedStatement } from '../../db/database.js';
import { ftsAddedHigh, ftsAddedSince } from '../../store/fts-added.js';
import { readAverages } from '../../store/fts-totals.js';
import { singlePhrase } from '../plan/phrases.js';
import type { SearchPosition } from '../plan/sql.js';
import { BM25, rankBy } from '../plan/sql.js';
import { comparePosition, compareRows } from './order.js';
import { fts5Idf } from './score.js';

/** How many of its best rows a ranking keeps: ten pages of 50. */
export const KEPT_ROWS = 500;
/** Texts matching fewer notes than this are ranked by SQL each time: scoring them costs little. */
export const KEPT_FROM = 2_000;
/**
 * How many texts each connection keeps (the least recently used goes first): about 8 KB each, up to
 * 320 KB for one that writes have grown to {@link MAX_RESCORED} rows.
 */
const KEPT_TEXTS = 64;

/** The averages record (FTS5_AVERAGES_ROWID) and the structure record (FTS5_STRUCTURE_ROWID). */
const STAMP_SQL = 'SELECT block FROM notes_fts_data WHERE id IN (1, 10) ORDER BY id';

interface Kept {
  readonly stamp: Buffer;
  readonly total: number;
  /** Best first, as bm25() scored them (larger is better). */
  readonly ids: readonly number[];
  readonly scores: readonly number[];
  /** No row left out scores above this; -Infinity when every matching row is kept. */
  readonly bound: number;
  /** The last row of the log of full-text rows written (store/fts-added.ts) when these were scored. */
  readonly added: number;
  /** For a text of one phrase, what its first ranking saw: it bounds the rows left out after writes. */
  readonly base: { readonly bound: number; readonly idf: number; readonly avgdl: number } | null;
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
 * enough not to keep: the caller ranks with SQL and uses `total` when it was counted here. `writing`: the
 * connection was inside a write of its own, whose rows FTS5 may not have flushed yet (its records
 * unchanged): nothing is kept or used then.
 */
export function topRows(
  db: Db,
  top: { rankMatch: string; limit: number; after?: SearchPosition },
  count: () => number,
  writing: boolean,
  rankNow = true,
): { rows: TopRow[] | null; total?: number } {
  if (writing) return { rows: null, total: count() };
  const texts = keptBy.get(db) ?? new Map<string, Kept>();
  keptBy.set(db, texts);
  const stamp = ftsStamp(db);
  let kept = texts.get(top.rankMatch);
  texts.delete(top.rankMatch);
  if (kept !== undefined && !kept.stamp.equals(stamp)) kept = rescored(db, top.rankMatch, kept, stamp);
  if (kept === undefined) {
    // Not ranked (nor counted) here when the caller steps through the matches instead
    // (search/run/stepped.ts), which counts them and hands its best rows to keepRanking.
    if (!rankNow) return { rows: null };
    const total = count();
    if (total < KEPT_FROM) return { rows: null, total };
    kept = rank(db, top.rankMatch, total, stamp);
  }
  texts.set(top.rankMatch, kept);
  if (texts.size > KEPT_TEXTS) texts.delete(texts.keys().next().value as string);
  return { rows: pageOf(db, kept, top.limit, top.after), total: kept.total };
}

let rankings = 0;

/** How many texts this process ranked in full for keeping: tests tell a page rescored from one ranked. */
export function keptRankings(): number {
  return rankings;
}

/** Ranks the text in full, in SQL; a text of several phrases reads the scores its caller set up (rankBy). */
function rank(db: Db, rankMatch: string, total: number, stamp: Buffer): Kept {
  const by = rankBy(rankMatch).expr;
  const rows = reusedStatement<[string, number], { id: number; score: number }>(
    db,
    `SELECT rowid AS id, -${by} AS score FROM notes_fts WHERE notes_fts MATCH ? ORDER BY ${by} LIMIT ?`,
  ).all(rankMatch, KEPT_ROWS + 1);
  return keptOf(db, rankMatch, total, stamp, rows);
}

/**
 * Keeps the ranking a stepped pass made (`best`: its best rows by score, best first, at least
 * KEPT_ROWS + 1 of them when there are that many), read on `reader` in that pass's snapshot, for the
 * searches `db` answers next.
 */
export function keepRanking(
  db: Db,
  reader: Db,
  rankMatch: string,
  best: readonly { id: number; score: number }[],
  total: number,
): void {
  if (total < KEPT_FROM) return;
  const texts = keptBy.get(db) ?? new Map<string, Kept>();
  keptBy.set(db, texts);
  texts.delete(rankMatch);
  texts.set(rankMatch, keptOf(reader, rankMatch, total, ftsStamp(reader), best));
  if (texts.size > KEPT_TEXTS) texts.delete(texts.keys().next().value as string);
}

/** A ranking kept: `rows` are the best by score, best first (KEPT_ROWS + 1 asked for). */
function keptOf(
  db: Db,
  rankMatch: string,
  total: number,
  stamp: Buffer,
  rows: readonly { id: number; score: number }[],
): Kept {
  rankings++;
  const left = rows[KEPT_ROWS];
  const best = rows.slice(0, KEPT_ROWS);
  const bound = left === undefined ? Number.NEGATIVE_INFINITY : left.score;
  const stats = ftsStats(db);
  return {
    stamp,
    total,
    ids: best.map((r) => r.id),
    scores: best.map((r) => r.score),
    bound,
    added: ftsAddedHigh(db),
    base:
      singlePhrase(rankMatch) && stats
        ? { bound, idf: fts5Idf(stats.rows, total), avgdl: stats.avgdl }
        : null,
  };
}

/** The most rows a ranking kept from before may score again; past it, the text is ranked anew. */
const MAX_RESCORED = 20_000;
/** Room for the last bits of difference between this idf and bm25()'s, both from the same counts. */
const ROUNDING = 1 + 1e-9;

function ftsStats(db: Db): { rows: number; avgdl: number } | null {
  const averages = readAverages(db);
  if (averages === null || averages.rows === 0) return null;
  return { rows: averages.rows, avgdl: averages.sizes.reduce((n, x) => n + x, 0) / averages.rows };
}

/**
 * The kept rows of a text of one phrase brought up to date after writes, in one pass over its matches
 * that counts them all and scores only the rows kept and the rows written since (the log of
 * store/fts-added.ts); undefined when that cannot be done (several phrases, a log trimmed past them,
 * too many rows). Every other row is as it was when the text was first ranked, and bm25() gives it
 * idf × f, where f grows with its weighted count of the phrase (unchanged) and shrinks as its length
 * over the average length grows: so the average length growing from L to L′ raises f by at most
 * L′/L, and shrinking it raises nothing. The best of those rows scores at most the best score left
 * out then × (idf now / idf then) × max(1, L′/L).
 */
function rescored(db: Db, rankMatch: string, kept: Kept, stamp: Buffer): Kept | undefined {
  const base = kept.base;
  const stats = ftsStats(db);
  if (base === null || stats === null) return undefined;
  const high = ftsAddedHigh(db);
  const added = ftsAddedSince(db, kept.added, high);
  if (added === null) return undefined;
  const ids = [...new Set([...kept.ids, ...added])];
  if (ids.length > MAX_RESCORED) return undefined;
  const found = reusedStatement<[string, string], { total: number; scored: string | null }>(
    db,
    // bm25() may only be called over the full-text table itself, not inside an aggregate: the inner
    // query scores, and its LIMIT keeps SQLite from merging it into the outer one (it streams, as a
    // co-routine, without being stored).
    'SELECT count(*) AS total, noted_scores(id, score) FILTER (WHERE score IS NOT NULL) AS scored FROM (' +
      `SELECT rowid AS id, CASE WHEN rowid IN (SELECT value FROM json_each(?)) THEN -${BM25} END AS score ` +
      'FROM notes_fts WHERE notes_fts MATCH ? LIMIT -1)',
  ).get(JSON.stringify(ids), rankMatch)!;
  const flat = JSON.parse(found.scored ?? '[]') as number[];
  const rows: { id: number; score: number }[] = [];
  for (let i = 0; i < flat.length; i += 2) rows.push({ id: flat[i] as number, score: flat[i + 1] as number });
  rows.sort((a, b) => b.score - a.score);
  const growth = (fts5Idf(stats.rows, found.total) / base.idf) * Math.max(1, stats.avgdl / base.avgdl);
  return {
    stamp,
    total: found.total,
    ids: rows.map((r) => r.id),
    scores: rows.map((r) => r.score),
    bound: base.bound * growth * ROUNDING,
    added: high,
    base,
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
