/**
 * @module
 * How much work a search is, counted before it runs, and the bound past which it is refused (SPEC
 * 3.3a). FTS5 reads every occurrence of each word a query names, and BM25, to rank a note, lines up the
 * occurrences of all the query's terms in it by comparing each with every term (SQLite's
 * fts5CacheInstArray): a note's ranking costs its matches times the number of terms. So the work of a
 * query with `P` word or phrase terms is counted as
 *
 *   P × (occurrences of each term, summed) + (occurrences of each word of each term, summed)
 *
 * with a term's occurrences taken as those of its rarest word, and each word's from the index's own
 * statistics (`notes_vocab`, over the notes agents may see: hidden notes have no full-text row, so
 * they neither count here nor can be the reason for a refusal). This over-counts (an AND ranks only the
 * notes holding every term), never under-counts. A query of one single word is never refused: reading
 * that word once is the least any search for it costs.
 *
 * Without the bound, 100 common words OR-ed over four 5 MB notes took 86 s and 1.25 GB (issue 25).
 */
import { NotedError } from '../common/errors.js';
import { type Db, reusedStatement } from './database.js';
import type { QueryNode } from './search-query.js';
import { termTexts, termWords } from './search-terms.js';

/**
 * The most work (counted as in the module comment) one search may take. Measured in-process on the
 * 10k bench vault on the shared 2-core machine under load, large queries ran at 5–15 ns a unit: a few
 * hundred milliseconds at most, about three times what `the` alone costs at 100k notes (16 million).
 */
export const MAX_SEARCH_WORK = 50_000_000;

export interface SearchWork {
  /** The count of the module comment. */
  readonly work: number;
  /** Word and phrase terms, as FTS5 counts them (each place one stands in the query). */
  readonly terms: number;
  /** The query's words, most frequent first, with their occurrences among visible notes. */
  readonly words: readonly { readonly word: string; readonly occurrences: number }[];
}

/** Counts a query's work (see the module comment). */
export function searchWork(db: Db, node: QueryNode): SearchWork {
  const split = termWords(termTexts(node));
  const occurrences = wordOccurrences(db, [...new Set(split.flat())]);
  let hits = 0;
  let reads = 0;
  for (const words of split) {
    const counts = words.map((w) => occurrences.get(w) ?? 0);
    hits += counts.length === 0 ? 0 : Math.min(...counts);
    for (const n of counts) reads += n;
  }
  const words = [...occurrences]
    .map(([word, n]) => ({ word, occurrences: n }))
    .sort((a, b) => b.occurrences - a.occurrences);
  return { work: split.length * hits + reads, terms: split.length, words };
}

/** True for the one query shape that is never refused, and needs no counting: a single one-word term. */
function singleWord(node: QueryNode): boolean {
  if (node.kind !== 'word' && node.kind !== 'phrase') return false;
  return termWords([node.text])[0]?.length === 1;
}

/**
 * Refuses, with `too_large`, a query whose work passes `limit` ({@link MAX_SEARCH_WORK}), naming its
 * most frequent words. Call inside the read transaction that runs the search, so that the count is of the
 * rows it will read.
 */
export function checkSearchWork(db: Db, node: QueryNode, limit = MAX_SEARCH_WORK): void {
  if (singleWord(node)) return;
  const counted = searchWork(db, node);
  if (counted.work <= limit) return;
  const common = counted.words
    .slice(0, 5)
    .map((w) => `"${w.word}" (${w.occurrences.toLocaleString('en-US')})`)
    .join(', ');
  throw new NotedError(
    'too_large',
    `This search is too much work to run: its ${counted.terms} terms would have the server rank about ` +
      `${counted.work.toLocaleString('en-US')} word occurrences, and the limit is ${limit.toLocaleString('en-US')}. ` +
      `The most frequent words in it, with how often they occur in the notes: ${common}. ` +
      'Leave out very common words and repeated terms, or split the search into smaller ones.',
    { limit, actual: counted.work, terms: counted.terms },
  );
}

/** How many cached counts one connection keeps before starting afresh. */
const MAX_CACHED_WORDS = 10_000;

interface WordCache {
  /** `data_version` and `total_changes()` when the counts were read: any commit since makes them old. */
  state: string;
  readonly counts: Map<string, number>;
}

const caches = new WeakMap<Db, WordCache>();

/**
 * Each word's occurrences among the visible notes. Read from `notes_vocab`, which walks the word's
 * whole list of occurrences, so they are kept until the index changes: a common word took about a
 * tenth of what searching for it takes.
 */
function wordOccurrences(db: Db, words: readonly string[]): Map<string, number> {
  const state = indexState(db);
  let cache = caches.get(db);
  if (cache === undefined || cache.state !== state || cache.counts.size > MAX_CACHED_WORDS) {
    cache = { state, counts: new Map() };
    caches.set(db, cache);
  }
  const out = new Map<string, number>();
  const select = reusedStatement<[string], { cnt: number }>(db, 'SELECT cnt FROM notes_vocab WHERE term = ?');
  for (const word of words) {
    let n = cache.counts.get(word);
    if (n === undefined) {
      n = select.get(word)?.cnt ?? 0;
      cache.counts.set(word, n);
    }
    out.set(word, n);
  }
  return out;
}

function indexState(db: Db): string {
  const version = db.pragma('data_version', { simple: true }) as number;
  const own = reusedStatement<[], { n: number }>(db, 'SELECT total_changes() AS n').get()!.n;
  return `${version}/${own}`;
}
