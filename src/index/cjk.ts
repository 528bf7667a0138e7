/**
 * @module
 * CJK text for the full-text index. SQLite's unicode61 tokenizer splits on spaces and punctuation only,
 * so a run of Chinese, Japanese or Korean characters would be one long token and `東京` could never be
 * found inside `東京都`. Spacing every such character out makes each one a token of its own: the indexer
 * does this to what it stores and the query side to what it looks for, so a CJK word becomes a phrase
 * of consecutive characters and matches anywhere inside a longer run.
 */

/**
 * The characters indexed one per token, as the body of a regex character class (for the `u` flag):
 * Han ideographs (all planes), Hiragana, Katakana (with the prolonged sound mark `ー` and the
 * iteration mark `々`, which Unicode files under other scripts), Hangul syllables and compatibility jamo.
 * Exported so the excerpt matcher draws word boundaries exactly where the index does.
 */
export const CJK_CLASS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3005\\u30FC\\uFF70\\uAC00-\\uD7A3\\u3131-\\u318E';

const CJK_TEST = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_EACH = new RegExp(`[${CJK_CLASS}]`, 'gu');

/** True when `text` holds at least one character that {@link segmentCjk} would space out. */
export function hasCjk(text: string): boolean {
  return CJK_TEST.test(text);
}

/**
 * Puts a space on both sides of every CJK character so the unicode61 tokenizer indexes it alone.
 * Text without such characters is returned as is (the common case costs one regex test).
 * Neighbouring characters end up two spaces apart; the tokenizer does not care.
 *
 * @example
 * segmentCjk('東京都 trip') // ' 東  京  都  trip'
 */
export function segmentCjk(text: string): string {
  if (!CJK_TEST.test(text)) return text;
  return text.replace(CJK_EACH, ' $& ');
}
