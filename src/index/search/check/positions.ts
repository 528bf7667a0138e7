/**
 * @module
 * `line:`, `block:` and `section:` answered from the index: FTS5 keeps where each word stands in each
 * note (`notes_positions`), and the note's layout (note-layout.ts) says which words each line, block
 * and section holds, so a match is placed without reading the note. This serves the scopes whose
 * operand is words and phrases joined by AND, OR and `-`, as the index compares them (whole words,
 * case and Latin accents ignored), and scopes nested in those: the same answer the text check
 * (search/check/scopes.ts) gives, which still serves regexes, `match-case:` and notes kept without a layout.
 * indexed-note.ts places the positions in one note's parts.
 *
 * What a search would do is counted before it is done, and bounded: the positions it reads (about a
 * third of a microsecond each, {@link MAX_POSITION_READS}), and the parts its `-` and nested scopes go
 * through in every candidate ({@link MAX_PART_WORK}).
 */
import Database from 'better-sqlite3';
import { NotedError } from '../../../common/errors.js';
import type { Db } from '../../db/database.js';
import { FTS_TOKENIZER } from '../../db/schema.js';
import { segmentCjk } from '../../words/cjk.js';
import { decodeLayout } from '../../words/note-layout.js';
import type { QueryNode, ScopeNode } from '../parse/nodes.js';
import { termTexts } from '../parse/terms.js';
import { wordStats } from '../plan/work.js';
import { IndexedNote } from './indexed-note.js';

/**
 * The most word occurrences one search may read from the index to answer its scopes: about a second
 * of one core on the bench machine (0.3 µs each, measured on the 100k bench vault).
 */
export const MAX_POSITION_READS = 3_000_000;

/**
 * The most parts (lines, blocks, sections) one search may go through for the `-` and the nested scopes
 * inside its scopes, counted as the candidates' layout bytes (about one a part) times those: each goes
 * through every part of every candidate note, whatever the words. About half a second of one core;
 * without it, 100 excluded words in one `line:` cost 100 passes over every line of the vault.
 */
export const MAX_PART_WORK = 20_000_000;

/**
 * Whether the index answers a scope: words and phrases (not under `match-case:`) joined by AND, OR and
 * `-`, and line, block and section scopes of those.
 */
export function indexAnswers(node: ScopeNode): boolean {
  return !node.scope.startsWith('task') && node.operand !== null && plain(node.operand);
}

function plain(node: QueryNode): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return node.matchCase !== true && (node.in === undefined || node.in === 'content');
    case 'scope':
      return indexAnswers(node);
    case 'not':
      return plain(node.operand);
    case 'and':
    case 'or':
      return node.operands.every(plain);
    default:
      return false;
  }
}

/** The scopes of `node` the index answers (not those inside them). */
function indexedScopes(node: QueryNode, out: ScopeNode[] = []): ScopeNode[] {
  switch (node.kind) {
    case 'scope':
      if (indexAnswers(node)) out.push(node);
      else if (node.operand !== null) indexedScopes(node.operand, out);
      break;
    case 'not':
      indexedScopes(node.operand, out);
      break;
    case 'and':
    case 'or':
      for (const op of node.operands) indexedScopes(op, out);
      break;
    default:
      break;
  }
  return out;
}

/** The `-` and nested scopes inside an answered scope's operand: each goes through all its parts. */
function passesOverParts(node: QueryNode): number {
  switch (node.kind) {
    case 'not':
      return 1 + passesOverParts(node.operand);
    case 'scope':
      return 1 + (node.operand === null ? 0 : passesOverParts(node.operand));
    case 'and':
    case 'or':
      return node.operands.reduce((n, op) => n + passesOverParts(op), 0);
    default:
      return 0;
  }
}

let tokenizer: { words: (text: string) => string[] } | undefined;
const wordsOfTerm = new Map<string, readonly string[]>();
const MAX_CACHED_TERMS = 10_000;

/**
 * A term's words exactly as the index stores them (folded, split, CJK spaced out), from SQLite's own
 * tokenizer on a table in memory: a folding done here that differed from SQLite's would look up words
 * the index does not hold.
 */
export function indexWords(term: string): readonly string[] {
  let words = wordsOfTerm.get(term);
  if (words !== undefined) return words;
  tokenizer ??= memoryTokenizer();
  words = tokenizer.words(segmentCjk(term));
  if (wordsOfTerm.size >= MAX_CACHED_TERMS) wordsOfTerm.clear();
  wordsOfTerm.set(term, words);
  return words;
}

function memoryTokenizer(): { words: (text: string) => string[] } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${FTS_TOKENIZER}');
    CREATE VIRTUAL TABLE t_words USING fts5vocab(t, 'instance');`);
  const insert = db.prepare('INSERT INTO t(rowid, x) VALUES (1, ?)');
  const select = db.prepare<[], { term: string }>('SELECT term FROM t_words ORDER BY offset');
  const clear = db.prepare('DELETE FROM t');
  return {
    words: (text) =>
      db.transaction(() => {
        insert.run(text);
        const out = select.all().map((r) => r.term);
        clear.run();
        return out;
      })(),
  };
}

/** Where each word stands in each candidate note, and the candidates' layouts, read in one transaction. */
export class IndexedScopes {
  private readonly layouts = new Map<number, Uint8Array>();
  /** word → note → its offsets, ascending. */
  private readonly positions = new Map<string, Map<number, number[]>>();

  private constructor(private readonly terms: ReadonlyMap<string, readonly string[]>) {}

  /**
   * Reads, inside the caller's read transaction, the layouts of the notes `ids` and the positions in
   * them of the words of the scopes of `query` the index answers. Throws `too_large`, having read no
   * position, past `limits` (by default {@link MAX_POSITION_READS} and {@link MAX_PART_WORK}).
   */
  static read(
    db: Db,
    query: QueryNode,
    ids: readonly number[],
    limits: { positions?: number; parts?: number } = {},
  ): IndexedScopes {
    const answered = indexedScopes(query);
    const terms = new Set(answered.flatMap((scope) => termTexts(scope.operand!)));
    const termWords = new Map([...terms].map((t) => [t, indexWords(t)] as const));
    const scopes = new IndexedScopes(termWords);
    if (ids.length === 0 || terms.size === 0) return scopes;
    const words = [...new Set([...termWords.values()].flat())];
    // Counted before anything is read, so that a refusal costs no more than the count.
    const notes = checkReads(db, words, ids.length, limits.positions ?? MAX_POSITION_READS);
    const idList = JSON.stringify(ids);
    // Prepared here, not shared (database.ts reusedStatement): these are iterated and set to raw rows.
    for (const row of db
      .prepare<[string], { note_id: number; data: Buffer }>(
        'SELECT note_id, data FROM note_layout WHERE note_id IN (SELECT value FROM json_each(?))',
      )
      .iterate(idList)) {
      scopes.layouts.set(row.note_id, row.data);
    }
    if (scopes.layouts.size === 0) return scopes;
    const passes = answered.reduce((n, scope) => n + passesOverParts(scope.operand!), 0);
    let layoutBytes = 0;
    for (const bytes of scopes.layouts.values()) layoutBytes += bytes.length;
    checkPartWork(layoutBytes * passes, scopes.layouts.size, limits.parts ?? MAX_PART_WORK);
    const withLayout = JSON.stringify([...scopes.layouts.keys()]);
    // One row per note, its offsets as a JSON array: a third of the time of a row per offset. The
    // candidates are named to SQLite only when they are few of the word's notes; else the rows of
    // other notes are passed over here, unparsed.
    const all = db
      .prepare<[string], [number, string]>(
        "SELECT doc, json_group_array(offset) FROM notes_positions WHERE term = ? AND col = 'body' GROUP BY doc",
      )
      .raw();
    const some = db
      .prepare<[string, string], [number, string]>(
        "SELECT doc, json_group_array(offset) FROM notes_positions WHERE term = ? AND col = 'body' AND doc IN (SELECT value FROM json_each(?)) GROUP BY doc",
      )
      .raw();
    for (const word of words) {
      const byNote = new Map<number, number[]>();
      const few = scopes.layouts.size * 2 < (notes.get(word) ?? 0);
      for (const [doc, offsets] of few ? some.iterate(word, withLayout) : all.iterate(word)) {
        if (!few && !scopes.layouts.has(doc)) continue;
        const list = JSON.parse(offsets) as number[];
        if (!ascending(list)) list.sort((a, b) => a - b);
        byNote.set(doc, list);
      }
      scopes.positions.set(word, byNote);
    }
    return scopes;
  }

  /** Whether the note has a layout here, so its answerable scopes are settled without its text. */
  has(id: number): boolean {
    return this.layouts.has(id);
  }

  /**
   * The note's view, or null when it has no (readable) layout: its scopes are then checked in its text.
   * Made anew on each call (the caller keeps it while it checks the note), so that the views of tens
   * of thousands of candidates are not all held at once.
   */
  note(id: number): IndexedNote | null {
    const bytes = this.layouts.get(id);
    const layout = bytes === undefined ? null : decodeLayout(bytes);
    return layout === null ? null : new IndexedNote(id, layout, this.terms, this.positions);
  }
}

function ascending(list: readonly number[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]! < list[i - 1]!) return false;
  return true;
}

/**
 * Refuses, before reading any, positions past `limit`: each word's occurrences in the share of its
 * notes that are candidates (the index's own counts, over the visible notes, search/plan/work.ts).
 */
function checkReads(
  db: Db,
  words: readonly string[],
  candidates: number,
  limit: number,
): Map<string, number> {
  const stats = wordStats(db, words);
  let reads = 0;
  for (const s of stats.values()) reads += s.occurrences * Math.min(1, candidates / Math.max(1, s.docs));
  if (reads <= limit) return new Map([...stats].map(([word, s]) => [word, s.docs]));
  const common = [...stats]
    .sort((a, b) => b[1].occurrences - a[1].occurrences)
    .slice(0, 5)
    .map(([word, s]) => `"${word}" (${s.occurrences.toLocaleString('en-US')})`)
    .join(', ');
  throw new NotedError(
    'too_large',
    `This search's line:, block: or section: parts would read about ${Math.round(reads).toLocaleString('en-US')} word positions from the index, and the limit is ${limit.toLocaleString('en-US')}. ` +
      `The most frequent words in them, with how often they occur in the notes: ${common}. ` +
      'Leave out very common words inside the scope, or narrow the search with rarer words outside it, a path: or tag:, or the folder argument.',
    { limit, actual: Math.round(reads) },
  );
}

/** Refuses a search whose `-` and nested scopes would go through more parts than `limit`. */
function checkPartWork(work: number, notes: number, limit: number): void {
  if (work <= limit) return;
  throw new NotedError(
    'too_large',
    `This search's line:, block: or section: parts hold exclusions or nested scopes that would each go through every line, block or section of ${notes.toLocaleString('en-US')} notes: about ${work.toLocaleString('en-US')} steps, and the limit is ${limit.toLocaleString('en-US')}. ` +
      'Use fewer exclusions inside the scope, or narrow the search with words the notes must contain outside it, a path: or tag:, or the folder argument.',
    { limit, actual: work },
  );
}
