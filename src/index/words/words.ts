/**
 * @module
 * Counts words as the full-text index counts them: SQLite's unicode61 tokenizer over the text the
 * indexer stores, where every CJK character stands alone (cjk.ts). A note's line and block boundaries
 * are kept as word offsets (note-layout.ts), so that a search can place the positions FTS5 keeps for
 * each word (search/check/positions.ts) in lines, blocks and sections without reading the note; a count
 * that disagreed with the index's would place them wrongly, so the store compares the two
 * (store.ts) and keeps no layout for a note where they differ.
 */
import { CJK_CLASS } from './cjk.js';
import { WORD_CARRIES, WORD_STARTS } from './token-chars.js';

/** What a character of the Basic Multilingual Plane is to the tokenizer (the {@link BMP} table). */
const SEPARATOR = 0;
const STARTS = 1;
const CARRIES = 2;
const CJK = 3;
const SURROGATE = 4;

/**
 * Every BMP character's kind, looked up instead of searched: 64 KB, built once. Most notes are mostly
 * BMP text, accented letters included; a character past it is rare enough to search the ranges for.
 */
const CJK_ONE = new RegExp(`^[${CJK_CLASS}]$`, 'u');
const BMP = buildBmp();

function buildBmp(): Uint8Array {
  const table = new Uint8Array(0x10000);
  fill(table, WORD_STARTS, STARTS);
  fill(table, WORD_CARRIES, CARRIES);
  for (let c = 0x2e80; c < 0x10000; c++) {
    if (table[c] === STARTS && isCjk(c)) table[c] = CJK;
  }
  table.fill(SURROGATE, 0xd800, 0xe000);
  return table;
}

function fill(table: Uint8Array, ranges: readonly number[], kind: number): void {
  for (let i = 0; i < ranges.length; i += 2) {
    table.fill(kind, ranges[i]!, Math.min(ranges[i + 1]!, 0xffff) + 1);
  }
}

function inRanges(ranges: readonly number[], c: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < ranges[mid * 2]!) hi = mid - 1;
    else if (c > ranges[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether a code point is one cjk.ts spaces out: first the cheap range test it uses. */
function isCjk(c: number): boolean {
  if (!((c >= 0x2e80 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xffef) || (c >= 0x20000 && c <= 0x3ffff))) {
    return false;
  }
  return CJK_ONE.test(String.fromCodePoint(c));
}

/** The kind of a code point past the BMP. */
function astralKind(c: number): number {
  if (!inRanges(WORD_STARTS, c)) return inRanges(WORD_CARRIES, c) ? CARRIES : SEPARATOR;
  return isCjk(c) ? CJK : STARTS;
}

/** The words in `text.slice(start, end)`, as the index counts them. */
export function countWords(text: string, start = 0, end = text.length): number {
  let words = 0;
  // 1 inside a word, 0 between words: numbers, so the common path needs no branch.
  let inWord = 0;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    let kind = BMP[unit]!;
    if (kind <= STARTS) {
      words += kind & ~inWord;
      inWord = kind;
      continue;
    }
    if (kind === SURROGATE) {
      const low = i + 1 < end ? text.charCodeAt(i + 1) : 0;
      if (unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        kind = astralKind((unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000);
        i++;
      } else {
        // A lone surrogate reaches SQLite as U+FFFD, a separator.
        kind = SEPARATOR;
      }
      if (kind <= STARTS) {
        words += kind & ~inWord;
        inWord = kind;
        continue;
      }
    }
    if (kind === CJK) {
      // Spaced out on both sides: a word of its own.
      words++;
      inWord = 0;
    }
    // CARRIES: a word goes on through it, and nothing starts with it.
  }
  return words;
}
