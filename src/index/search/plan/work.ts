/**
 * @module
 * How much work a search is, counted before it runs, and the bound past which it is refused (SPEC
 * 3.3a). FTS5 reads every occurrence of each word a query names, and BM25, to rank a note, lines up the
 * occurrences of all the query's terms in it by comparing each with every term (SQLite's
 * fts5CacheInstArray): a note's ranking costs its matches times the number of terms. So the work of a
 * query with `P` word or phrase terms is counted as
 *
 *   P × (occurrences in the notes it ranks) + (occurrences of each word of each term, summed)
 *
 * with each word's occurrences and notes from the index's own statistics (`notes_vocab`, over the
 * notes agents may see: hidden notes have no full-text row, so they neither count here nor can be the
 * reason for a refusal). The notes a query ranks are estimated from its structure: a term ranks the
 * notes holding it (a phrase: those of its rarest word); an OR ranks its sides' notes; an AND only
 * those holding every side, so each side's occurrences count in the share of its notes the rarest
 * side leaves (`budget the` ranks the ~8,000 occurrences of budget and about a hundredth of the's, not
 * all 794,000; an AND with a word found nowhere ranks nothing); excluded terms rank nothing. Measured
 * in-process on the 10k bench vault (2 shared cores under load), both parts ran at 2–6 ns a unit for
 * ANDs and ORs of common words alike.
 *
 * The bound grows with the vault, so that a query costs at most a few passes over the visible text:
 * {@link WORK_PER_TOKEN} units per word in the visible notes, never under {@link MAX_SEARCH_WORK} (small
 * vaults) nor over {@link MAX_SEARCH_WORK_CEILING}. `the of and` at 100k notes (about 106 million
 * units, roughly 0.2 s) is answered; 100 different words OR-ed over four 1 MB notes (81 million units,
 * 100 times the text of that vault) is refused. A query of one single word is never refused: reading
 * that word once is the least any search for it costs.
 *
 * Without the bound, 100 common words OR-ed over four 5 MB notes took 86 s and 1.25 GB (issue 25).
 */
import { NotedError } from '../../../common/errors.js';
import { type Db, reusedStatement } from '../../db/database.js';
import { readAverages } from '../../store/fts-totals.js';
import type { QueryNode } from '../parse/query.js';
import { termTexts, termWords } from '../parse/terms.js';

/** The least work bound, whatever the vault's size (units of the module comment). */
export const MAX_SEARCH_WORK = 50_000_000;
/** The most, whatever the vault's size: about a second of one core on the bench machine. */
export const MAX_SEARCH_WORK_CEILING = 500_000_000;
/** Units of work allowed per word of visible text: a query may cost a few passes over the vault. */
export const WORK_PER_TOKEN = 8;

export interface SearchWork {
  /** The count of the module comment. */
  readonly work: number;
  /** Word and phrase terms, as FTS5 counts them (each place one stands in the query). */
  readonly terms: number;
  /** The query's words, most frequent first, with their occurrences among visible notes. */
  readonly words: readonly { readonly word: string; readonly occurrences: number }[];
}

export interface Stats {
  readonly docs: number;
  readonly occurrences: number;
}

/** Counts a query's work (see the module comment). */
export function searchWork(db: Db, node: QueryNode): SearchWork {
  const texts = termTexts(node);
  const split = termWords(texts);
  const stats = wordStats(db, [...new Set(split.flat())]);
  const notes = readAverages(db)?.rows ?? 0;
  const termOf = new Map<string, Stats>();
  let reads = 0;
  texts.forEach((text, i) => {
    const counts = (split[i] as readonly string[]).map((w) => stats.get(w) ?? { docs: 0, occurrences: 0 });
    for (const c of counts) reads += c.occurrences;
    termOf.set(
      text,
      counts.length === 0
        ? { docs: 0, occurrences: 0 }
        : {
            docs: Math.min(...counts.map((c) => c.docs)),
            occurrences: Math.min(...counts.map((c) => c.occurrences)),
          },
    );
  });
  const ranked = rankedOf(node, termOf, notes);
  const words = [...stats]
    .map(([word, s]) => ({ word, occurrences: s.occurrences }))
    .sort((a, b) => b.occurrences - a.occurrences);
  return { work: Math.round(split.length * ranked.occurrences) + reads, terms: split.length, words };
}

/** The notes a (sub)query ranks and the occurrences of its terms in them (see the module comment). */
function rankedOf(node: QueryNode, terms: ReadonlyMap<string, Stats>, notes: number): Stats {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return terms.get(node.text) ?? { docs: 0, occurrences: 0 };
    case 'scope':
      return node.operand === null ? { docs: notes, occurrences: 0 } : rankedOf(node.operand, terms, notes);
    case 'or': {
      const parts = node.operands.map((op) => rankedOf(op, terms, notes));
      return {
        docs: Math.min(
          notes,
          parts.reduce((n, p) => n + p.docs, 0),
        ),
        occurrences: parts.reduce((n, p) => n + p.occurrences, 0),
      };
    }
    case 'and': {
      // Excluded parts and parts the full-text index does not rank narrow nothing here.
      const parts = node.operands
        .map((op) => rankedOf(op, terms, notes))
        .filter((p) => p.occurrences > 0 || p.docs < notes);
      if (parts.length === 0) return { docs: notes, occurrences: 0 };
      const docs = Math.min(...parts.map((p) => p.docs));
      return {
        docs,
        occurrences: parts.reduce(
          (n, p) => n + (p.docs === 0 ? 0 : p.occurrences * Math.min(1, docs / p.docs)),
          0,
        ),
      };
    }
    default:
      return { docs: notes, occurrences: 0 };
  }
}

/** The bound for this index: {@link WORK_PER_TOKEN} per word of visible text, within the floor and ceiling. */
export function workLimit(db: Db): number {
  const averages = readAverages(db);
  const tokens = averages ? averages.sizes.reduce((n, s) => n + s, 0) : 0;
  return Math.min(MAX_SEARCH_WORK_CEILING, Math.max(MAX_SEARCH_WORK, WORK_PER_TOKEN * tokens));
}

/** True for the one query shape that is never refused, and needs no counting: a single one-word term. */
function singleWord(node: QueryNode): boolean {
  if (node.kind !== 'word' && node.kind !== 'phrase') return false;
  return termWords([node.text])[0]?.length === 1;
}

/**
 * Refuses, with `too_large`, a query whose work passes `limit` ({@link workLimit} by default), naming
 * its most frequent words. Call inside the read transaction that runs the search, so that the count is
 * of the rows it will read.
 */
export function checkSearchWork(db: Db, node: QueryNode, limit = workLimit(db)): void {
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
  readonly counts: Map<string, Stats>;
}

const caches = new WeakMap<Db, WordCache>();

/**
 * Each word's notes and occurrences among the visible notes. Read from `notes_vocab`, which walks the
 * word's whole list of occurrences, so they are kept until the index changes: a common word took about
 * a tenth of what searching for it takes.
 */
export function wordStats(db: Db, words: readonly string[]): Map<string, Stats> {
  const state = indexState(db);
  let cache = caches.get(db);
  if (cache === undefined || cache.state !== state || cache.counts.size > MAX_CACHED_WORDS) {
    cache = { state, counts: new Map() };
    caches.set(db, cache);
  }
  const out = new Map<string, Stats>();
  const select = reusedStatement<[string], { doc: number; cnt: number }>(
    db,
    'SELECT doc, cnt FROM notes_vocab WHERE term = ?',
  );
  for (const word of words) {
    let n = cache.counts.get(word);
    if (n === undefined) {
      const row = select.get(word);
      n = { docs: row?.doc ?? 0, occurrences: row?.cnt ?? 0 };
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
