/**
 * @module
 * Lucene's BM25 for a text of several phrases (SPEC 17.7). bm25() gives a phrase in half the notes or
 * more an idf of 1e-6, so in `budget meeting`, with `budget` in most notes, only `meeting` ranked: how
 * often and how densely a note spoke of the budget counted for nothing. Lucene's idf,
 * log(1 + (N − n + 0.5)/(n + 0.5)), stays positive.
 *
 * bm25() of a text is the sum of what each of its phrases scores alone where it counts
 * (search/plan/phrases.ts), and a phrase alone scores its idf × a part that depends only on the note.
 * So each phrase but one is scored alone, over the notes where it counts, and Lucene's BM25 is put
 * together from those parts and bm25() of the whole text ({@link scoreSteps}), in the snapshot the
 * search reads. The statements of the search read it per row as `noted_rank(rowid, bm25)`
 * (search/plan/sql.ts).
 *
 * It costs a pass over the matches of every phrase but one besides the text's own
 * (docs/performance.md).
 */
import type { Work } from '../../../common/work.js';
import { type Db, reusedStatement } from '../../db/database.js';
import { readAverages } from '../../store/fts-totals.js';
import { phrasesOf } from '../plan/phrases.js';
import { BM25 } from '../plan/sql.js';
import { fts5Idf, luceneIdf } from './score.js';

/** Rows scored between two safe points when the scoring is stepped. */
const ROWS_PER_STEP = 256;

/** Each phrase's matches with its bm25() alone, narrowed to the notes where it counts (phrases.ts). */
const NARROWED = `SELECT rowid, -${BM25} FROM notes_fts WHERE notes_fts MATCH ? AND +rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)`;
const ALONE = `SELECT rowid, -${BM25} FROM notes_fts WHERE notes_fts MATCH ?`;
const COUNT = 'SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?';

/**
 * Lucene's BM25 of a row of the text, from bm25() of the whole text there (`whole`, larger is
 * better) and the parts scored phrase by phrase: see {@link PhraseRanking}.
 */
export interface PhraseRanking {
  /**
   * Lucene's idf over bm25()'s for the phrase not scored apart (the one where that ratio is least);
   * 0 when every phrase is scored apart.
   */
  readonly factor: number;
  /** By row id, what the phrases scored apart add: their score alone × (their ratio − `factor`). */
  readonly rest: Float64Array;
}

/** Lucene's BM25 of row `id`, whose bm25() for the whole text is `whole` (larger is better). */
export function lucene(ranking: PhraseRanking, id: number, whole: number): number {
  return ranking.factor * whole + (ranking.rest[id] ?? 0);
}

/**
 * The scoring as steps: yields every few hundred rows so a caller may pause between them.
 *
 * bm25() of the text is Σ tᵢ·sᵢ (sᵢ: phrase i alone where it counts, tᵢ: how often the text names
 * it) and Lucene's BM25 is Σ tᵢ·ρᵢ·sᵢ (ρᵢ: Lucene's idf over bm25()'s). With d the phrase of least
 * ρ, that is ρ_d·bm25() + Σ_{i≠d} tᵢ·(ρᵢ − ρ_d)·sᵢ: the statement that steps through the text computes
 * bm25() anyway, so phrase d needs no pass of its own. Taking the least ρ keeps the rounding of
 * bm25() from being magnified: ρ_d·bm25() is at most Lucene's BM25 itself. That holds for a flat
 * text, the usual one (phrases.ts); any other has every phrase scored apart, and bm25() unused.
 */
function* scoreSteps(db: Db, rankMatch: string, rest: Float64Array): Generator<void, number> {
  const total = readAverages(db)?.rows ?? 0;
  if (total === 0) return 1;
  const { phrases: named, flat } = phrasesOf(rankMatch);
  const phrases = named.flatMap((phrase) => {
    const n = reusedStatement<[string], { n: number }>(db, COUNT).get(phrase.expr)!.n;
    return n === 0 ? [] : [{ ...phrase, ratio: luceneIdf(total, n) / fts5Idf(total, n) }];
  });
  if (phrases.length === 0) return 1;
  const least = flat ? phrases.reduce((a, b) => (b.ratio < a.ratio ? b : a)) : null;
  const factor = least?.ratio ?? 0;
  for (const phrase of phrases) {
    if (phrase === least) continue;
    const weight = phrase.times * (phrase.ratio - factor);
    if (weight === 0) continue;
    const within = phrase.within;
    const statement = db.prepare<unknown[], [number, number]>(within === null ? ALONE : NARROWED).raw();
    let rows = 0;
    for (const [id, score] of statement.iterate(
      ...(within === null ? [phrase.expr] : [phrase.expr, within]),
    )) {
      rest[id] = (rest[id] ?? 0) + weight * score;
      if (++rows % ROWS_PER_STEP === 0) yield;
    }
  }
  return factor;
}

/**
 * A value for each row id of the full-text index, 0 to start with: by id rather than in a Map, since
 * the passes add to one for each of tens of thousands of rows (8 bytes a note, 8 MB at a million).
 */
function rowValues(db: Db): Float64Array {
  const high = reusedStatement<[], { high: number | null }>(
    db,
    'SELECT max(id) AS high FROM notes_fts_docsize',
  ).get()!.high;
  return new Float64Array((high ?? 0) + 1);
}

/** The ranking of `rankMatch` in one piece (in the caller's transaction). */
export function phraseRanking(db: Db, rankMatch: string): PhraseRanking {
  const rest = rowValues(db);
  const steps = scoreSteps(db, rankMatch, rest);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return { factor: step.value, rest };
}

/** The same with a safe point every few hundred rows (the caller's read transaction stays open). */
export async function phraseRankingStepped(db: Db, rankMatch: string, work: Work): Promise<PhraseRanking> {
  const rest = rowValues(db);
  const steps = scoreSteps(db, rankMatch, rest);
  let step = steps.next();
  while (!step.done) {
    await work.checkpoint();
    step = steps.next();
  }
  return { factor: step.value, rest };
}

const current = new WeakMap<Db, PhraseRanking>();

/** What `noted_rank(rowid, whole)` answers on this connection, while a ranking is set. */
export function rankScore(db: Db, id: number, whole: number): number {
  const ranking = current.get(db);
  if (ranking === undefined)
    throw new Error('noted_rank() was called with no ranking set on this connection');
  return lucene(ranking, id, whole);
}

/** Runs `fn` (which may await) with `ranking` answering `noted_rank` on `db`. */
export async function withRanking<T>(db: Db, ranking: PhraseRanking, fn: () => Promise<T>): Promise<T> {
  const before = current.get(db);
  current.set(db, ranking);
  try {
    return await fn();
  } finally {
    restore(db, before);
  }
}

function restore(db: Db, before: PhraseRanking | undefined): void {
  if (before === undefined) current.delete(db);
  else current.set(db, before);
}

/**
 * Runs `fn` in one piece with the ranking of `rankMatch` answering `noted_rank`, scored first when
 * `rankMatch` is set (the statements `fn` runs rank by phrases); otherwise just runs `fn`.
 */
export function rankedNow<T>(db: Db, rankMatch: string | undefined, fn: () => T): T {
  if (rankMatch === undefined) return fn();
  const before = current.get(db);
  current.set(db, phraseRanking(db, rankMatch));
  try {
    return fn();
  } finally {
    restore(db, before);
  }
}
