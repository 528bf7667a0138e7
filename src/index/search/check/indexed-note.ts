/**
 * @module
 * One candidate note as the index knows it (search/check/positions.ts reads it): the words each of its
 * lines, blocks and sections holds, from its layout (note-layout.ts), and where the scope's words
 * stand in it, from FTS5's positions. Says which parts match a scope's operand without the note's text.
 */

import { lastAtOrBefore } from '../../../common/sorted.js';
import type { NoteLayout } from '../../words/note-layout.js';
import type { QueryNode } from '../parse/nodes.js';
import { partSets } from './part-sets.js';

/** The kinds of part a scope looks in. */
export type Part = 'line' | 'block' | 'section';

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
  const i = lastAtOrBefore(table.starts.length, table.first, line);
  return i !== -1 && line <= table.last(i) ? i : -1;
}

/** Whether an ascending list holds `n`. */
function holds(list: readonly number[], n: number): boolean {
  const i = lastAtOrBefore(list.length, (k) => list[k]!, n);
  return i !== -1 && list[i] === n;
}

/** The part holding word `p`: the last starting at or before it, if it ends after it; else -1. */
function partAt(table: PartTable, p: number): number {
  const i = lastAtOrBefore(table.starts.length, (k) => table.starts[k]!, p);
  return i !== -1 && p < table.ends[i]! ? i : -1;
}
