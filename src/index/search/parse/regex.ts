/**
 * @module
 * Regular expressions of a search, run by RE2 (the `re2js` port): linear in the text whatever the
 * pattern, so no pattern backtracks the way `(a|aa)*b` does in JavaScript's engine. Linear is not
 * cheap, though: RE2 steps every live state of the compiled program over each character, so the cost
 * per character grows with the program, and counted repetition expands into states (`.{0,1000}` is
 * 2,000 instructions; `/.{0,1000}.{0,1000}z/` over one 200 KB line took 22 s, issue 35). So a pattern
 * whose program is over {@link MAX_REGEX_PROGRAM} instructions is refused, and the text a search reads
 * is weighed by {@link regexWeight} (search/run/run.ts). Obsidian
 * uses JavaScript's own flavour; RE2 reads the same syntax except backreferences and lookaround, which
 * the parser refuses with a message. Like Obsidian's, a search regex ignores case unless under
 * `match-case:`, and `^`/`$` match at line ends.
 */
import { RE2JS } from 're2js';

/**
 * The largest compiled program a search regex may have. Measured in-process on a 2-core machine under
 * load, a 1,000-instruction program (`.{0,500}z`) stepped over a long line at 2–4 µs a character, and
 * larger ones grow faster than their size (`.{0,1000}z`: 15–50 µs).
 */
export const MAX_REGEX_PROGRAM = 1_000;

/**
 * What checking one character of text against the pattern costs, in the units of MAX_SCAN_WORK (one
 * unit: reading and checking a character for a word, about 16 ns): half a unit per instruction, the
 * worst measured over long lines of one letter, base64 and prose (2–12 ns a character and instruction,
 * the most for the smallest programs); never under 1.
 */
export function regexWeight(source: string, matchCase: boolean): number {
  return Math.max(1, Math.ceil(compileRegex(source, matchCase).programSize() / 2));
}

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
