/**
 * @module
 * Characters a reader cannot see but that change what a text says (SPEC 9.4): bidi controls
 * (U+202A–202E, U+2066–2069, U+200E/200F), zero-width characters (U+200B–200D, U+2060, U+FEFF), the
 * soft hyphen and every other format character (Unicode Cf), and the line and paragraph separators.
 * `Invoice\u202Efdp.md` reads as `Invoice dm.pdf` unless they are shown; the page draws each as a
 * visible mark and the card warns when a change holds any.
 */

/** One hidden character, for the regular expression the page uses too (kept in step by a test). */
export const HIDDEN_CHAR = /[\p{Cf}\u2028\u2029]/gu;

/** The distinct hidden characters of the texts, as `U+202E`, in order of first appearance. */
export function hiddenCharsIn(texts: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(HIDDEN_CHAR)) found.add(codeOf(m[0]));
  }
  return [...found];
}

/** `U+202E` for a character. */
export function codeOf(char: string): string {
  return `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
}
