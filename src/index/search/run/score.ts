/**
 * @module
 * The score search_notes shows (SPEC 17.7). FTS5's bm25() clamps a word's idf to 1e-6 once the word
 * is in half the notes or more, so a common word scores 0.000001-ish: the order among its notes is
 * still by term frequency and length, but the figure reads as noise. The score is Lucene's BM25
 * instead: the same per-note part times Lucene's idf, log(1 + (N − n + 0.5)/(n + 0.5)), which never
 * degenerates. For a text of one word or phrase that is bm25() times one factor, so the order is
 * bm25()'s and only the figure shown changes; a text of several is ranked by Lucene's BM25 itself
 * (phrase-scores.ts). A hit matched only by operators (no text to rank) scores by recency:
 * 1/(1 + its age in days), so newer notes score higher.
 */
import type { Db } from '../../db/database.js';
import { readAverages } from '../../store/fts-totals.js';
import { singlePhrase } from '../plan/phrases.js';

/** FTS5's idf for a phrase in `n` of `total` rows, clamped as bm25() clamps it. */
export function fts5Idf(total: number, n: number): number {
  const idf = Math.log((total - n + 0.5) / (n + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** Lucene's idf (BM25 in Lucene 6+): positive for any word, highest for the rarest. */
export function luceneIdf(total: number, n: number): number {
  return Math.log(1 + (total - n + 0.5) / (n + 0.5));
}

/**
 * What to multiply the index's score by to show Lucene's BM25, for a ranked query of one phrase
 * (`matching`: how many notes match it, when the caller knows); 1 for any other, whose rows already
 * carry Lucene's BM25 (phrase-scores.ts).
 */
export function scoreScale(db: Db, rankMatch: string, matching?: number): number {
  if (!singlePhrase(rankMatch)) return 1;
  // N as bm25() counts it: the rows of the full-text index (only visible notes have one, visibility.ts),
  // from its averages record, which fts-totals.ts keeps equal to them. Counting the visible notes
  // instead walked an index of every note at each search (1.1 ms at 100k notes, 11 at a million).
  const total = readAverages(db)?.rows ?? 0;
  // `matching`: the search already counted the phrase's notes (no other condition): not counted twice.
  const n =
    matching ??
    db
      .prepare<[string], { n: number }>('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?')
      .get(rankMatch)!.n;
  if (total === 0 || n === 0) return 1;
  return luceneIdf(total, n) / fts5Idf(total, n);
}

/** The shown score of an unranked hit: 1 today, ½ a day old, about 0.0027 a year old. */
export function recencyScore(mtimeMs: number, nowMs: number): number {
  return 1 / (1 + Math.max(0, nowMs - mtimeMs) / 86_400_000);
}
