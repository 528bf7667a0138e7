/**
 * @module
 * Words and characters as Obsidian's core Word count plugin counts them (docs/obsidian.md, "Word
 * count"). It counts the note's source text after the frontmatter: link targets, URLs and code count
 * like any other text. A word is one of:
 * - a run of letters of a script written with spaces between words (Latin, Cyrillic, Greek, Arabic,
 *   Hebrew, Indic, Thai, Hangul, …), hyphens, apostrophes (`'` and `’`) and numbers, where a number may
 *   carry `,` or `.` between digits (`don't`, `e-mail`, `3.14`, `1,000` and `476x559` are one word each);
 * - one character of a script written without spaces: Chinese ideographs (U+4E00–U+9FD5), Hiragana,
 *   Katakana and Tibetan letters count one word each.
 * Everything else (punctuation, symbols, emoji, combining marks) separates words and counts nothing.
 * Like Obsidian, only the Basic Multilingual Plane is read (a character beyond U+FFFF counts nothing),
 * and letters come from the Unicode letter category, which Obsidian lists range by range.
 */

/** One word each: what Obsidian counts per character rather than per run. */
const SINGLE =
  '\\u0F00\\u0F40-\\u0F47\\u0F49-\\u0F6C\\u0F88-\\u0F8C\\u3041-\\u3096\\u309D-\\u309F\\u30A1-\\u30FA\\u30FC-\\u30FF\\u4E00-\\u9FD5';
/** Letters no run takes: the characters above, ideographs past U+9FD5, and the planes beyond U+FFFF. */
const NOT_IN_RUN = `[${SINGLE}\\u9FD6-\\u9FFF\\u{10000}-\\u{10FFFF}]`;
/** Tamil (marks included) and Hangul syllables and jamo run together as words. */
const EXTRA_RUN = '\\u0B80-\\u0BFF\\uAC00-\\uD7A3\\uA960-\\uA97C\\uD7B0-\\uD7C6';

const WORD = new RegExp(
  `(?:[0-9]+(?:[,.][0-9]+)*|[-'\u2019${EXTRA_RUN}]|(?!${NOT_IN_RUN})\\p{L})+|[${SINGLE}]`,
  'gu',
);

/**
 * The words of `body` (the text after the frontmatter) as Obsidian's word count gives them.
 *
 * @example
 * countWords('Hello, world') // 2
 * countWords('你好 world') // 3
 * countWords("don't stop 3.14") // 3
 */
export function countWords(body: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(body) !== null) n++;
  return n;
}

/**
 * The characters of `body` as Obsidian's status bar counts them: every UTF-16 code unit, spaces and
 * line breaks included (an emoji beyond U+FFFF counts two).
 */
export function countCharacters(body: string): number {
  return body.length;
}
