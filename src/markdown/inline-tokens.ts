/**
 * @module
 * The small readers the body scanner is built from: character classes (TAG-02's tag characters,
 * JavaScript's whitespace, ASCII punctuation), a tag's extent (TAG-01), a trailing block id (LNK-42)
 * and backtick runs for code spans (CommonMark). Pure functions over one line of text.
 */

/**
 * TAG-01/02: a non-empty run that is not all ASCII digits, with one trailing `/` removed (TAG-22).
 * The digits test runs after the `/` is removed, so `#1984/` is no tag either.
 */
export function tagBody(text: string, from: number, to: number): string | null {
  const end = to > from && text.charCodeAt(to - 1) === 0x2f ? to - 1 : to;
  if (end === from) return null;
  for (let k = from; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x30 || c > 0x39) return text.slice(from, end);
  }
  return null;
}

/** Offset of the first character after leading whitespace and `>` quote markers. */
export function skipQuotePrefix(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x3e) break;
    i++;
  }
  return i;
}

/** Every maximal run of backticks in the line, as offsets grouped by run length. */
export function backtickRuns(text: string): Map<number, number[]> {
  const runs = new Map<number, number[]>();
  for (let i = text.indexOf('`'); i !== -1; ) {
    let len = 1;
    while (text.charCodeAt(i + len) === 0x60) len++;
    const list = runs.get(len);
    if (list) list.push(i);
    else runs.set(len, [i]);
    i = text.indexOf('`', i + len);
  }
  return runs;
}

/**
 * CommonMark code span: it closes at the next run of exactly as many backticks, here the first
 * offset in `offsets` at or after `from` (binary search, so many unmatched runs stay cheap), or -1.
 */
export function nextRunOf(offsets: readonly number[] | undefined, from: number): number {
  if (!offsets) return -1;
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return offsets[lo] ?? -1;
}

/** LNK-42: `^id` ending the line (trailing whitespace allowed) after whitespace, or alone on it. */
export function trailingBlockId(text: string, notBefore: number): string | null {
  let end = text.length;
  while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > 0 && isBlockIdChar(text.charCodeAt(start - 1))) start--;
  const caret = start - 1;
  if (start === end || caret < notBefore || text.charCodeAt(caret) !== 0x5e /* ^ */) return null;
  const before = caret === 0 ? 0x20 : text.charCodeAt(caret - 1);
  if (!isWhitespace(before) && caret !== skipQuotePrefix(text)) return null;
  return text.slice(start, end);
}

/** LNK-42: `[a-zA-Z0-9-]`; `_` is not allowed. */
function isBlockIdChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d;
}

// TAG-02 excludes whitespace and ASCII punctuation except `-`, `_` and `/`; indexed by char code.
const ASCII_TAG_CHAR = (() => {
  const table = new Uint8Array(128);
  for (let c = 0x21; c < 0x7f; c++) table[c] = 1;
  for (const ch of `'!"#$%&()*+,.:;<=>?@^\`{|}~[]\\`) table[ch.charCodeAt(0)] = 0;
  return table;
})();

/** TAG-02's character class: not whitespace, not the listed punctuation, not U+2000–U+206F or U+2E00–U+2E7F. */
export function isTagChar(c: number): boolean {
  if (c < 0x80) return ASCII_TAG_CHAR[c] === 1;
  if (c >= 0x2000 && c <= 0x206f) return false;
  if (c >= 0x2e00 && c <= 0x2e7f) return false;
  return !isWhitespace(c);
}

/** The characters JavaScript's `\s` matches. */
export function isWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

export function isAsciiPunctuation(c: number): boolean {
  return (
    (c >= 0x21 && c <= 0x2f) ||
    (c >= 0x3a && c <= 0x40) ||
    (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e)
  );
}
