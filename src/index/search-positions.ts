/**
 * @module
 * `line:`, `block:` and `section:` answered from the index: FTS5 keeps where each word stands in each
 * note (`notes_positions`), and the note's layout (note-layout.ts) says which words each line, block
 * and section holds, so a match is placed without reading the note. This serves the scopes whose
 * operand is words and phrases joined by AND, OR and `-`, as the index compares them (whole words,
 * case and Latin accents ignored): the same answer the text check (search-scopes.ts) gives, which still
 * serves regexes, `match-case:`, nested scopes, and notes kept without a layout.
 *
 * Reading positions costs about half a microsecond for each occurrence a statement hands back, so what
 * a search would read is counted first and bounded ({@link MAX_POSITION_READS}).
 */
import Database from 'better-sqlite3';
import { NotedError } from '../common/errors.js';
import { segmentCjk } from './cjk.js';
import { type Db, reusedStatement } from './database.js';
import { decodeLayout, type NoteLayout } from './note-layout.js';
import { partSets } from './part-sets.js';
import { FTS_TOKENIZER } from './schema.js';
import type { QueryNode, ScopeNode } from './search-nodes.js';

/**
 * The most word occurrences one search may read from the index to answer its scopes: about a second
 * of one core on the bench machine (0.3 µs each, measured on the 100k bench vault).
 */
export const MAX_POSITION_READS = 3_000_000;

type Part = 'line' | 'block' | 'section';

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

/** The texts of the words and phrases in the scopes of `node` the index answers. */
export function indexedScopeTerms(node: QueryNode, out = new Set<string>()): Set<string> {
  switch (node.kind) {
    case 'scope':
      if (indexAnswers(node)) collectTerms(node.operand!, out);
      else if (node.operand !== null) indexedScopeTerms(node.operand, out);
      break;
    case 'not':
      indexedScopeTerms(node.operand, out);
      break;
    case 'and':
    case 'or':
      for (const op of node.operands) indexedScopeTerms(op, out);
      break;
    default:
      break;
  }
  return out;
}

function collectTerms(node: QueryNode, out: Set<string>): void {
  if (node.kind === 'word' || node.kind === 'phrase') out.add(node.text);
  else if (node.kind === 'scope' && node.operand !== null) collectTerms(node.operand, out);
  else if (node.kind === 'not') collectTerms(node.operand, out);
  else if (node.kind === 'and' || node.kind === 'or') for (const op of node.operands) collectTerms(op, out);
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
   * them of the words of `terms`. Throws `too_large`, having read no position, when that would be more
   * than `limit` occurrences.
   */
  static read(
    db: Db,
    terms: ReadonlySet<string>,
    ids: readonly number[],
    limit = MAX_POSITION_READS,
  ): IndexedScopes {
    const termWords = new Map([...terms].map((t) => [t, indexWords(t)] as const));
    const scopes = new IndexedScopes(termWords);
    if (ids.length === 0 || terms.size === 0) return scopes;
    const words = [...new Set([...termWords.values()].flat())];
    // Counted before anything is read, so that a refusal costs no more than the count.
    const notes = checkReads(db, words, ids.length, limit);
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
 * Refuses, before reading any, positions past {@link MAX_POSITION_READS}: each word's occurrences in the
 * share of its notes that are candidates (the index's own counts, over the visible notes).
 */
function checkReads(
  db: Db,
  words: readonly string[],
  candidates: number,
  limit: number,
): Map<string, number> {
  const counts = reusedStatement<[string], { doc: number; cnt: number }>(
    db,
    'SELECT doc, cnt FROM notes_vocab WHERE term = ?',
  );
  let reads = 0;
  const per: { word: string; occurrences: number }[] = [];
  const notes = new Map<string, number>();
  for (const word of words) {
    const row = counts.get(word);
    if (row === undefined) continue;
    reads += row.cnt * Math.min(1, candidates / Math.max(1, row.doc));
    per.push({ word, occurrences: row.cnt });
    notes.set(word, row.doc);
  }
  if (reads <= limit) return notes;
  const common = per
    .sort((a, b) => b.occurrences - a.occurrences)
    .slice(0, 5)
    .map((w) => `"${w.word}" (${w.occurrences.toLocaleString('en-US')})`)
    .join(', ');
  throw new NotedError(
    'too_large',
    `This search's line:, block: or section: parts would read about ${Math.round(reads).toLocaleString('en-US')} word positions from the index, and the limit is ${limit.toLocaleString('en-US')}. ` +
      `The most frequent words in them, with how often they occur in the notes: ${common}. ` +
      'Leave out very common words inside the scope, or narrow the search with rarer words outside it, a path: or tag:, or the folder argument.',
    { limit, actual: Math.round(reads) },
  );
}

/** Where a part matched: its lines in the file (1-based, inclusive). */
export interface IndexedPart {
  readonly from: number;
  readonly to: number;
}

/** The parts of one kind: part i holds words [starts[i], ends[i]) and body lines first[i]..last[i]. */
interface PartTable {
  readonly kind: Part;
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly first: (i: number) => number;
  readonly last: (i: number) => number;
}

/** One candidate note as the index knows it: its parts, and where the scopes' words stand in it. */
export class IndexedNote {
  private readonly tables = new Map<Part, PartTable>();

  constructor(
    private readonly id: number,
    private readonly layout: NoteLayout,
    private readonly terms: ReadonlyMap<string, readonly string[]>,
    private readonly positions: ReadonlyMap<string, ReadonlyMap<number, readonly number[]>>,
  ) {}

  /**
   * The parts of kind `scope` whose words match `operand` (a scope {@link indexAnswers}), in order; null
   * when a term's positions were not read (then the caller checks the text).
   */
  matching(scope: Part, operand: QueryNode): IndexedPart[] | null {
    const table = this.tableOf(scope);
    const set = this.partsMatching(operand, table);
    if (set === null) return null;
    const offset = this.layout.lineOffset + 1;
    return [...set]
      .sort((a, b) => a - b)
      .map((i) => ({ from: table.first(i) + offset, to: table.last(i) + offset }));
  }

  private tableOf(scope: Part): PartTable {
    let table = this.tables.get(scope);
    if (table !== undefined) return table;
    const { wordStart } = this.layout;
    const lines = wordStart.length - 1;
    if (scope === 'line') {
      const at = (i: number) => i;
      table = {
        kind: scope,
        starts: wordStart.subarray(0, lines),
        ends: wordStart.subarray(1),
        first: at,
        last: at,
      };
    } else {
      const spans = scope === 'block' ? this.layout.blocks : this.layout.sections;
      const count = spans.length / 2;
      const starts = new Uint32Array(count);
      const ends = new Uint32Array(count);
      for (let i = 0; i < count; i++) {
        starts[i] = wordStart[spans[i * 2]!]!;
        ends[i] = wordStart[spans[i * 2 + 1]! + 1]!;
      }
      table = { kind: scope, starts, ends, first: (i) => spans[i * 2]!, last: (i) => spans[i * 2 + 1]! };
    }
    this.tables.set(scope, table);
    return table;
  }

  private partsMatching(node: QueryNode, table: PartTable): Set<number> | null {
    return partSets(node, table.starts.length, (leaf) => {
      switch (leaf.kind) {
        case 'word':
        case 'phrase':
          return this.partsHolding(leaf.text, table);
        case 'scope':
          return leaf.operand === null || leaf.scope.startsWith('task')
            ? null
            : this.partsWithin(leaf.scope as Part, leaf.operand, table);
        default:
          return null;
      }
    });
  }

  /**
   * The parts of `table` inside which a part of kind `inner` matches `operand`. Lines lie inside blocks
   * and blocks inside sections (a heading is a block of its own), so a finer part lies wholly in one
   * part of `table`; a part of the same or a coarser kind, cut to a part of `table`, is that part.
   */
  private partsWithin(inner: Part, operand: QueryNode, table: PartTable): Set<number> | null {
    if (FINENESS[inner] >= FINENESS[table.kind]) return this.partsMatching(operand, table);
    const innerTable = this.tableOf(inner);
    const holder = new Int32Array(innerTable.starts.length);
    for (let j = 0; j < holder.length; j++) {
      const i = partHoldingLine(table, innerTable.first(j));
      // A part across two of `table`'s (a paragraph ending in a setext heading) is cut in two by the
      // text check: that note's text answers.
      if (i !== -1 && innerTable.last(j) > table.last(i)) return null;
      holder[j] = i;
    }
    const matched = this.partsMatching(operand, innerTable);
    if (matched === null) return null;
    const out = new Set<number>();
    for (const j of matched) if (holder[j]! !== -1) out.add(holder[j]!);
    return out;
  }

  /** The parts wholly holding the term's words one after the other (a phrase's words, or one word's). */
  private partsHolding(term: string, table: PartTable): Set<number> | null {
    const words = this.terms.get(term);
    if (words === undefined) return null;
    const out = new Set<number>();
    if (words.length === 0 || table.starts.length === 0) return out;
    const lists: (readonly number[])[] = [];
    for (const word of words) {
      const byNote = this.positions.get(word);
      if (byNote === undefined) return null;
      const list = byNote.get(this.id);
      if (list === undefined) return out;
      lists.push(list);
    }
    for (const p of lists[0]!) {
      if (!lists.every((list, k) => k === 0 || holds(list, p + k))) continue;
      const i = partAt(table, p);
      if (i !== -1 && p + words.length <= table.ends[i]!) out.add(i);
    }
    return out;
  }
}

/** Coarser kinds of parts hold finer ones whole. */
const FINENESS: Record<Part, number> = { line: 0, block: 1, section: 2 };

/** The part whose lines hold body line `line`, or -1. */
function partHoldingLine(table: PartTable, line: number): number {
  let lo = 0;
  let hi = table.starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (table.first(mid) <= line) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found !== -1 && line <= table.last(found) ? found : -1;
}

/** Whether an ascending list holds `n`. */
function holds(list: readonly number[], n: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === n) return true;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The part holding word `p`: the last starting at or before it, if it ends after it; else -1. */
function partAt(table: PartTable, p: number): number {
  const { starts, ends } = table;
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= p) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found !== -1 && p < ends[found]! ? found : -1;
}
