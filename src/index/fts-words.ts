/**
 * @module
 * Counts words as the full-text index counts them: SQLite's unicode61 tokenizer over the text the
 * indexer stores, where every CJK character stands alone (cjk.ts). A note's line and block boundaries
 * are kept as word offsets (note-layout.ts), so that a search can place the positions FTS5 keeps for
 * each word (search-positions.ts) in lines, blocks and sections without reading the note; a count
 * that disagreed with the index's would place them wrongly, so the store compares the two
 * (store.ts) and keeps no layout for a note where they differ.
 */
import { CJK_CLASS } from './cjk.js';
import { WORD_CARRIES, WORD_STARTS } from './fts-token-chars.js';

/** ASCII word characters: letters and digits (unicode61 reads `_` and all punctuation as separators). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_WORD[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 0;
}

const CJK_ONE = new RegExp(`^[${CJK_CLASS}]$`, 'u');

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

/** Whether a code point (not ASCII) is one cjk.ts spaces out: first the cheap range test it uses. */
function isCjk(c: number): boolean {
  if (!((c >= 0x2e80 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xffef) || (c >= 0x20000 && c <= 0x3ffff))) {
    return false;
  }
  return CJK_ONE.test(String.fromCodePoint(c));
}

/** The words in `text.slice(start, end)`, as the index counts them. */
export function countWords(text: string, start = 0, end = text.length): number {
  let words = 0;
  // 1 inside a word, 0 between words: numbers, so the ASCII path needs no branch.
  let inWord = 0;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c < 128) {
      const k = ASCII_WORD[c]!;
      words += k & ~inWord;
      inWord = k;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate reaches SQLite as U+FFFD, a separator.
      inWord = 0;
    } else if (isCjk(c)) {
      // Spaced out on both sides: a word of its own when it is a word character at all.
      if (inRanges(WORD_STARTS, c)) words++;
      inWord = 0;
    } else if (inRanges(WORD_STARTS, c)) {
      words += 1 & ~inWord;
      inWord = 1;
    } else if (!(inWord === 1 && inRanges(WORD_CARRIES, c))) {
      inWord = 0;
    }
  }
  return words;
}
