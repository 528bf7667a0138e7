/**
 * @module
 * Lucene's BM25 for a text of several phrases (SPEC 17.7). bm25() gives a phrase in half the notes or
 * more an idf of 1e-6, so in `budget meeting`, with `budget` in most notes, only `meeting` ranked: how
 * often and how densely a note spoke of the budget counted for nothing. Lucene's idf,
 * log(1 + (N − n + 0.5)/(n + 0.5)), stays positive.
 *
 * bm25() of a text is the sum of what each of its phrases scores alone (search/plan/phrases.ts), and a
 * phrase alone scores its idf × a part that depends only on the note. So each phrase is scored alone,
 * over the notes the whole text matches, and its score multiplied by Lucene's idf over bm25()'s (both
 * from the same counts): the sum is Lucene's BM25, exactly, in the snapshot the search reads. The
 * statements of the search then read it per row as `noted_rank(rowid)` (search/plan/sql.ts).
 *
 * It costs a pass over each phrase's matches besides the text's own: measured on 100k notes, a text of
 * two words found in 18k notes ranked in 41 ms where bm25() alone took 12 (docs/performance.md).
 */
import type { Work } from '../../../common/work.js';
import { type Db, reusedStatement } from '../../db/database.js';
import { readAverages } from '../../store/fts-totals.js';
import { rankPhrases } from '../plan/phrases.js';
import { BM25 } from '../plan/sql.js';
import { fts5Idf, luceneIdf } from './score.js';

/** Rows scored between two safe points when the scoring is stepped. */
const ROWS_PER_STEP = 256;

/** Each phrase's matches with its bm25() alone, narrowed to the notes where it counts (phrases.ts). */
const NARROWED = `SELECT rowid, -${BM25} FROM notes_fts WHERE notes_fts MATCH ? AND +rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)`;
const ALONE = `SELECT rowid, -${BM25} FROM notes_fts WHERE notes_fts MATCH ?`;
const COUNT = 'SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?';

/**
 * The scoring as steps: yields every few hundred rows so a caller may pause between them. `idf`
 * chooses the idf each phrase's score is given (Lucene's; bm25()'s own for the tests that check the
 * sum is bm25() of the text).
 */
function* scoreSteps(
  db: Db,
  rankMatch: string,
  scores: Map<number, number>,
  idf: (total: number, n: number) => number,
): Generator<void> {
  const total = readAverages(db)?.rows ?? 0;
  if (total === 0) return;
  for (const phrase of rankPhrases(rankMatch)) {
    const n = reusedStatement<[string], { n: number }>(db, COUNT).get(phrase.expr)!.n;
    if (n === 0) continue;
    const weight = (phrase.times * idf(total, n)) / fts5Idf(total, n);
    const within = phrase.within;
    const statement = db.prepare<unknown[], [number, number]>(within === null ? ALONE : NARROWED).raw();
    let rows = 0;
    for (const [id, score] of statement.iterate(
      ...(within === null ? [phrase.expr] : [phrase.expr, within]),
    )) {
      scores.set(id, (scores.get(id) ?? 0) + weight * score);
      if (++rows % ROWS_PER_STEP === 0) yield;
    }
  }
}

/** Lucene's BM25 of every note `rankMatch` matches, by row id, in one piece (in the caller's transaction). */
export function phraseScores(db: Db, rankMatch: string): Map<number, number> {
  const scores = new Map<number, number>();
  for (const _ of scoreSteps(db, rankMatch, scores, luceneIdf)) {
    // Nothing waits between steps here.
  }
  return scores;
}

/** The same with a safe point every few hundred rows (the caller's read transaction stays open). */
export async function phraseScoresStepped(
  db: Db,
  rankMatch: string,
  work: Work,
): Promise<Map<number, number>> {
  const scores = new Map<number, number>();
  for (const _ of scoreSteps(db, rankMatch, scores, luceneIdf)) await work.checkpoint();
  return scores;
}

/** The sum scored with bm25()'s own idf: equal to bm25() of the whole text (for the tests). */
export function bm25BySum(db: Db, rankMatch: string): Map<number, number> {
  const scores = new Map<number, number>();
  for (const _ of scoreSteps(db, rankMatch, scores, fts5Idf)) {
    // As above.
  }
  return scores;
}

const current = new WeakMap<Db, Map<number, number>>();

/** The scores `noted_rank(rowid)` answers on this connection, while set. */
export function rankScore(db: Db, id: number): number {
  const scores = current.get(db);
  if (scores === undefined) throw new Error('noted_rank() was called with no scores set on this connection');
  return scores.get(id) ?? 0;
}

/** Runs `fn` (which may await) with `scores` answering `noted_rank(rowid)` on `db`. */
export async function withRankScores<T>(
  db: Db,
  scores: Map<number, number>,
  fn: () => Promise<T>,
): Promise<T> {
  const before = current.get(db);
  current.set(db, scores);
  try {
    return await fn();
  } finally {
    restore(db, before);
  }
}

function restore(db: Db, before: Map<number, number> | undefined): void {
  if (before === undefined) current.delete(db);
  else current.set(db, before);
}

/**
 * Runs `fn` in one piece with the scores of `rankMatch` answering `noted_rank(rowid)`, scored first
 * when `rankMatch` is set (the statements `fn` runs rank by phrases); otherwise just runs `fn`.
 */
export function rankedNow<T>(db: Db, rankMatch: string | undefined, fn: () => T): T {
  if (rankMatch === undefined) return fn();
  const before = current.get(db);
  current.set(db, phraseScores(db, rankMatch));
  try {
    return fn();
  } finally {
    restore(db, before);
  }
}
