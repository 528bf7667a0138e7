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
/**
 * Every CJK character lies in U+2E80–U+D7FF, U+F900–U+FFEF, or outside the BMP in the Han planes
 * (high surrogates U+D840–U+D8BF; emoji use others). A plain range test is several times cheaper than
 * the script-property class, and most notes fail it.
 */
const MAYBE_CJK = /[\u2E80-\uD7FF\uD840-\uD8BF\uF900-\uFFEF]/;
const CJK_EACH = new RegExp(`[${CJK_CLASS}]`, 'gu');

/** True when `text` holds at least one character that {@link segmentCjk} would space out. */
export function hasCjk(text: string): boolean {
  return MAYBE_CJK.test(text) && CJK_TEST.test(text);
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
  if (!hasCjk(text)) return text;
  return text.replace(CJK_EACH, ' $& ');
}
