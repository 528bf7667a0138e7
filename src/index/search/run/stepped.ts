/**
 * @module
 * A ranked search stepped row by row (issue 36.4, SPEC 3.3a). SQLite's FTS5 ranks every match before
 * it gives the first row of a statement ordered by BM25, so for a word in most of 100,000 notes one
 * statement held the thread (and every other client) for its whole time, and a cancel was read only
 * after it. Here the matches come unordered, each with its score, from one statement on a reader of
 * its own (index/db/reader.ts) in one read transaction; the page is kept as they come, and every few
 * hundred rows is a safe point: other requests are answered, and a cancel stops the search.
 *
 * The page and the total are the ordered statements' own: the same scores (bm25() of the same rows in
 * the same snapshot), the same order (best score, newest, path by its bytes, as SQLite sorts), the same
 * start after a cursor, and the total is the rows stepped through.
 */
import type { Work } from '../../../common/work.js';
import type { Db } from '../../db/database.js';
import { openReader } from '../../db/reader.js';
import type { SearchPosition, SearchSql } from '../plan/sql.js';
import { registerSearchFunctions } from './functions.js';
import { comparePosition, compareRows } from './order.js';
import { phraseRankingStepped, withRanking } from './phrase-scores.js';

export interface SteppedRow {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
  readonly score: number;
}

/**
 * Asks a pass from the start (no cursor) to hand its `rows` best matches by score, best first, with
 * the total, to `done` inside its read transaction (search/run/top-rows.ts keeps them).
 */
export interface StepKeep {
  readonly rows: number;
  done(reader: Db, best: { id: number; score: number }[], total: number): void;
}

/** Rows stepped between two safe points: a few hundred BM25 scores, well under a millisecond. */
const ROWS_PER_STEP = 256;

/**
 * The best `stepped.limit` matches after `stepped.after`, in result order, and how many match in all.
 * `open` runs first in the reader's transaction: false when the index does not follow the caller's
 * rules (the answer is then null). Undefined when the index has no file to open a reader on (one
 * held in memory): the caller runs the ordered statement. Throws Cancelled at a safe point.
 */
export async function steppedPage(
  db: Db,
  stepped: NonNullable<SearchSql['stepped']>,
  open: (reader: Db) => boolean,
  work: Work,
  keep?: StepKeep,
): Promise<{ rows: SteppedRow[]; total: number } | null | undefined> {
  const reader = openReader(db);
  if (reader === null) return undefined;
  try {
    registerSearchFunctions(reader);
    reader.exec('BEGIN');
    try {
      if (!open(reader)) return null;
      const pass = async () => {
        const kept = new TopScores(Math.max(stepped.limit, keep?.rows ?? 0), stepped.after);
        let total = 0;
        for (const row of reader
          .prepare<unknown[], { id: number; score: number }>(stepped.sql)
          .iterate(...stepped.params)) {
          total++;
          kept.offer(row.id, row.score);
          if (total % ROWS_PER_STEP === 0) await work.checkpoint();
        }
        // Still in the pass's snapshot, so what is kept is scored against the index it was read from.
        keep?.done(reader, kept.best(keep.rows), total);
        return { rows: kept.page(reader, stepped.limit), total };
      };
      // A text of several phrases: each phrase is scored first, stepped too, in the same snapshot.
      if (stepped.phraseRank === undefined) return await pass();
      const ranking = await phraseRankingStepped(reader, stepped.phraseRank, work);
      return await withRanking(reader, ranking, pass);
    } finally {
      reader.exec('COMMIT');
    }
  } finally {
    reader.close();
  }
}

/**
 * The matches that may still be in the page, by score: every one scoring at least the `limit`-th best
 * (ties at that score are kept, for the time and path to order) and after the page's start.
 */
export class TopScores {
  private kept: { id: number; score: number }[] = [];
  /** The `limit`-th best score seen of those surely after the start: a match scoring less cannot be in the page. */
  private floor = Number.NEGATIVE_INFINITY;
  /**
   * How many kept matches the next prune waits for. Matches tied at the floor (or at the start's
   * score) survive a prune, so after one it waits for twice what is left: with thousands of equal
   * scores (template notes) a prune at every offer sorted them all each time, quadratic in the matches.
   */
  private pruneAt: number;

  constructor(
    private readonly limit: number,
    private readonly after: SearchPosition | undefined,
  ) {
    this.pruneAt = 4 * limit + 256;
  }

  offer(id: number, score: number): void {
    // A better score than the start's sorts before the page; an equal one is settled by time and path.
    if (this.after !== undefined && score > this.after.s) return;
    if (score < this.floor) return;
    this.kept.push({ id, score });
    if (this.kept.length >= this.pruneAt) {
      this.prune();
      this.pruneAt = Math.max(4 * this.limit + 256, 2 * this.kept.length);
    }
  }

  private prune(): void {
    const sure = this.kept
      .filter((k) => this.after === undefined || k.score < this.after.s)
      .map((k) => k.score)
      .sort((a, b) => b - a);
    if (sure.length < this.limit) return;
    this.floor = sure[this.limit - 1]!;
    this.kept = this.kept.filter((k) => k.score >= this.floor);
  }

  /** The page: the kept matches with their names and times, ordered, from after the start. */
  page(reader: Db, limit = this.limit): SteppedRow[] {
    // Kept for a longer ranking (StepKeep) than the page: only the page's scores and their ties are named.
    let candidates = this.kept;
    if (this.after === undefined && candidates.length > limit) {
      const floor = candidates.map((k) => k.score).sort((a, b) => b - a)[limit - 1]!;
      candidates = candidates.filter((k) => k.score >= floor);
    }
    const score = new Map(candidates.map((k) => [k.id, k.score]));
    const rows = reader
      .prepare<[string], Omit<SteppedRow, 'score'>>(
        'SELECT id, path, title, mtime_ms FROM notes WHERE id IN (SELECT value FROM json_each(?))',
      )
      .all(JSON.stringify([...score.keys()]))
      .map((r) => ({ ...r, score: score.get(r.id)! }));
    const after = this.after;
    return rows
      .filter((r) => after === undefined || comparePosition(r, after) > 0)
      .sort(compareRows)
      .slice(0, limit);
  }

  /** The `n` best kept matches by score alone, best first (ties in no particular order). */
  best(n: number): { id: number; score: number }[] {
    return [...this.kept].sort((a, b) => b.score - a.score).slice(0, n);
  }
}
