/**
 * @module
 * Regular expressions of a search, run by RE2 (the `re2js` port): linear in the text whatever the
 * pattern, so no query can stall the server the way a backtracking engine can (`(a|aa)*b`). Obsidian
 * uses JavaScript's own flavour; RE2 reads the same syntax except backreferences and lookaround, which
 * the parser refuses with a message. Like Obsidian's, a search regex ignores case unless under
 * `match-case:`, and `^`/`$` match at line ends.
 */
import { RE2JS } from 're2js';

/** Compiled patterns, by case and source: a search tests one pattern against many notes. */
const cache = new Map<string, RE2JS>();
const MAX_CACHED = 200;

/** Throws the engine's error (its message says what is wrong) when `source` is not a valid pattern. */
export function compileRegex(source: string, matchCase: boolean): RE2JS {
  const key = `${matchCase ? 'c' : 'i'}${source}`;
  let re = cache.get(key);
  if (re === undefined) {
    const flags = RE2JS.MULTILINE | (matchCase ? 0 : RE2JS.CASE_INSENSITIVE);
    re = RE2JS.compile(RE2JS.translateRegExp(source), flags);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/** Whether `re` matches anywhere in `text`. */
export function regexTest(re: RE2JS, text: string): boolean {
  return text !== '' && re.test(text);
}

/** `[start, end)` of each match in `text`, at most `max` of them (for highlighting). */
export function regexRanges(re: RE2JS, text: string, max: number): [number, number][] {
  const out: [number, number][] = [];
  const m = re.matcher(text);
  while (out.length < max && m.find()) {
    const start = m.start();
    const end = m.end();
    if (end > start) out.push([start, end]);
  }
  return out;
}
