/**
 * @module
 * A note body's top-level blocks, CommonMark-style and simplified to what a block id needs (LNK-42)
 * and the outline's tables: paragraphs, headings, fenced code, tables, quotes (callouts too), lists
 * with their items, thematic breaks. One pass over the lines; blank lines separate blocks. Indented
 * code and HTML blocks read as paragraphs, and a list's items end at a blank line.
 */
import type { Line } from './lines.js';
import { startsTable } from './tables.js';

export type BlockKind = 'paragraph' | 'heading' | 'code' | 'table' | 'quote' | 'list' | 'rule';

/** A block's lines, as 0-based indexes into the lines given, inclusive. */
export interface Block {
  readonly kind: BlockKind;
  readonly from: number;
  readonly to: number;
  /** Fenced code: whether its closing fence was found (else it runs to the end of the note). */
  readonly closed?: boolean;
}

const BLANK = /^\s*$/;
const ATX = /^ {0,3}#{1,6}(?:\s|$)/;
const SETEXT = /^ {0,3}(?:=+|-+)\s*$/;
const QUOTE = /^ {0,3}>/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
export const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;

/** Whether a line begins a block that ends a paragraph or a table before it. */
function interrupts(lines: readonly Line[], i: number): boolean {
  const line = lines[i] as Line;
  const t = line.text;
  return line.inCode || ATX.test(t) || QUOTE.test(t) || RULE.test(t) || LIST_ITEM.test(t);
}

/** The blocks of `lines` (splitLines' lines of a body), in order. */
export function blocksOf(lines: readonly Line[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as Line;
    const t = line.text;
    if (BLANK.test(t) && !line.inCode) {
      i++;
      continue;
    }
    const from = i;
    if (line.inCode) {
      const fence = fenceEnd(lines, i);
      i = fence.end;
      out.push({ kind: 'code', from, to: i - 1, closed: fence.closed });
    } else if (ATX.test(t)) {
      out.push({ kind: 'heading', from, to: i++ });
    } else if (RULE.test(t)) {
      // CommonMark: a line that could be a thematic break or a list item (`- - -`) is the break.
      out.push({ kind: 'rule', from, to: i++ });
    } else if (startsTable(t, lines[i + 1]?.text)) {
      i += 2;
      while (i < lines.length && !BLANK.test((lines[i] as Line).text) && !interrupts(lines, i)) i++;
      out.push({ kind: 'table', from, to: i - 1 });
    } else if (QUOTE.test(t)) {
      i++;
      // Quoted lines, and lines of text carried on lazily; a heading, list, rule or code ends it.
      while (
        i < lines.length &&
        !BLANK.test((lines[i] as Line).text) &&
        (QUOTE.test((lines[i] as Line).text) || !interrupts(lines, i))
      )
        i++;
      out.push({ kind: 'quote', from, to: i - 1 });
    } else if (LIST_ITEM.test(t)) {
      i = listEnd(lines, i);
      out.push({ kind: 'list', from, to: i - 1 });
    } else {
      i++;
      let heading = false;
      while (i < lines.length) {
        const next = lines[i] as Line;
        if (SETEXT.test(next.text) && !next.inCode) {
          heading = true;
          i++;
          break;
        }
        if (BLANK.test(next.text) || interrupts(lines, i) || startsTable(next.text, lines[i + 1]?.text))
          break;
        i++;
      }
      out.push({ kind: heading ? 'heading' : 'paragraph', from, to: i - 1 });
    }
  }
  return out;
}

/**
 * The line after the fenced code opening at `open`: after its closing fence (the opening's character,
 * at least as many, nothing else but spaces), or the end when it is never closed, as splitLines reads
 * it; and whether it was closed.
 */
function fenceEnd(lines: readonly Line[], open: number): { end: number; closed: boolean } {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec((lines[open] as Line).text)?.[1] ?? '```';
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
  for (let i = open + 1; i < lines.length; i++) {
    if (!(lines[i] as Line).inCode) return { end: i, closed: true };
    if (closing.test((lines[i] as Line).text)) return { end: i + 1, closed: true };
  }
  return { end: lines.length, closed: false };
}

/** The line after a list: it runs on through blank lines while indented text or another item follows. */
function listEnd(lines: readonly Line[], start: number): number {
  let i = start + 1;
  while (i < lines.length) {
    const line = lines[i] as Line;
    if (line.inCode && !/^\s/.test(line.text)) break;
    if (BLANK.test(line.text)) {
      let next = i;
      while (next < lines.length && BLANK.test((lines[next] as Line).text)) next++;
      const after = lines[next];
      if (after === undefined || !(LIST_ITEM.test(after.text) || /^\s{2,}\S/.test(after.text))) break;
      i = next;
      continue;
    }
    if (!LIST_ITEM.test(line.text) && (ATX.test(line.text) || QUOTE.test(line.text) || RULE.test(line.text)))
      break;
    i++;
  }
  // Blank lines at its end belong to no block.
  while (i - 1 > start && BLANK.test((lines[i - 1] as Line).text)) i--;
  return i;
}

/**
 * The list item of `list` holding line `at`: its marker line, and the last line of its own text (before
 * a nested item, the next item, a blank line or the list's end). LNK-42 puts an item's `^id` there.
 */
export function listItemAt(lines: readonly Line[], list: Block, at: number): { from: number; ownTo: number } {
  const indentOf = (i: number) => {
    const text = (lines[i] as Line).text;
    return text.length - text.trimStart().length;
  };
  let from = at;
  while (from > list.from && !(LIST_ITEM.test((lines[from] as Line).text) && indentOf(from) <= indentOf(at)))
    from--;
  let ownTo = from;
  while (ownTo < list.to) {
    const next = lines[ownTo + 1] as Line;
    if (BLANK.test(next.text) || LIST_ITEM.test(next.text)) break;
    ownTo++;
  }
  return { from, ownTo };
}
