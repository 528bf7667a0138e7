/**
 * @module
 * Search-result excerpts. The FTS5 table is contentless, so `snippet()` cannot work; instead we find
 * the search terms in the note's text the way the index tokenizes (case-insensitive, Latin accents
 * ignored, whole words, CJK character by character) and cut a window around the densest cluster.
 * Linear in the text: one folding pass and one regex scan, so a 5 MB body is fine.
 */

import { CJK_CLASS } from '../../words/cjk.js';

/** How far a cut may move to land on a space rather than inside a word. */
const SNAP = 30;
/** Matches looked at when choosing the window; later ones cannot make the excerpt better enough to pay. */
const MAX_MATCHES = 2000;

const TOKEN_CHAR = '\\p{L}\\p{N}\\p{Co}';
const TOKEN_RUN = new RegExp(`[${TOKEN_CHAR}]+`, 'gu');
const CJK_SPLIT = new RegExp(`([${CJK_CLASS}])`, 'u');
const CJK_ONE = new RegExp(`^[${CJK_CLASS}]$`, 'u');
/** A letter or digit that is not CJK: the only kind that can glue onto a word and make it another word. */
const WORD_CHAR = `(?:(?![${CJK_CLASS}])[${TOKEN_CHAR}])`;
const GAP = `[^${TOKEN_CHAR}]`;
const MARK = /^\p{M}$/u;
const NOT_ASCII = /[^\x00-\x7F]/;

/**
 * A window of `text` of at most `maxChars` characters (after collapsing whitespace; `**` markers and
 * `…` come on top) around the densest cluster of `terms`, each match wrapped in `**`. Without a match,
 * the start of the text. `text` is the body: skipping frontmatter is the caller's job.
 *
 * @example
 * buildExcerpt('Notes from the Café meeting.\n\nNext steps: budget.', ['cafe'])
 * // 'Notes from the **Café** meeting. Next steps: budget.'
 */
export function buildExcerpt(text: string, terms: readonly string[], maxChars = 240): string {
  if (text === '' || maxChars <= 0) return '';
  const pattern = patternFor(terms);
  const matches = pattern ? findMatches(text, pattern) : [];
  const [start, end] =
    matches.length > 0 ? windowAround(text, matches, maxChars) : snap(text, 0, maxChars, 0, 0);
  return render(text, start, end, matches);
}

/** `[start, end)` of at most `maxChars` around the best cluster, with as much context before as after. */
function windowAround(text: string, matches: readonly Match[], maxChars: number): [number, number] {
  const best = densestCluster(matches, maxChars);
  const from = matches[best.first]!.start;
  const to = matches[best.last]!.end;
  if (to - from >= maxChars) return snap(text, from, from + maxChars, from, from + maxChars);
  const before = Math.floor((maxChars - (to - from)) / 2);
  const end = Math.min(text.length, Math.max(0, from - before) + maxChars);
  return snap(text, Math.max(0, end - maxChars), end, from, to);
}

interface Match {
  start: number;
  end: number;
  term: number;
}

/**
 * A search builds the excerpts of all its results from one terms array: the pattern (a large Unicode
 * regex, compiled anew each time) is made once per array.
 */
const patterns = new WeakMap<readonly string[], RegExp | null>();

function patternFor(terms: readonly string[]): RegExp | null {
  let pattern = patterns.get(terms);
  if (pattern === undefined) {
    pattern = termPattern(terms);
    patterns.set(terms, pattern);
  }
  return pattern;
}

/**
 * One alternation over all terms, longest first so a phrase wins over its own first word. The
 * "no letter before" check is written once for all terms that start with a letter: repeated in each
 * branch it made a 100-term scan of 5 MB take over a second instead of a few milliseconds.
 */
function termPattern(terms: readonly string[]): RegExp | null {
  const wordLed = new Set<string>();
  const cjkLed = new Set<string>();
  for (const term of terms) {
    const tokens = termTokens(term);
    if (tokens.length > 0) (CJK_ONE.test(tokens[0]!) ? cjkLed : wordLed).add(termSource(tokens));
  }
  const branches = (set: Set<string>): string =>
    [...set]
      .sort((a, b) => b.length - a.length)
      .map((src) => `(${src})`)
      .join('|');
  const alternatives: string[] = [];
  if (wordLed.size > 0) alternatives.push(`(?<!${WORD_CHAR})(?:${branches(wordLed)})`);
  if (cjkLed.size > 0) alternatives.push(branches(cjkLed));
  return alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'gu') : null;
}

/**
 * A regex finding `term` as the index would, in text folded by {@link foldText}: whole tokens,
 * case- and accent-insensitively; with `exact`, in the text as it is, character for character (what
 * `match-case:` asks). Null when the term has no letter or digit.
 */
export function termRegex(term: string, exact = false): RegExp | null {
  const tokens = exact ? rawTokens(term) : termTokens(term);
  if (tokens.length === 0) return null;
  const lead = CJK_ONE.test(tokens[0]!) ? '' : `(?<!${WORD_CHAR})`;
  return new RegExp(`${lead}(?:${termSource(tokens)})`, 'u');
}

/** The text as {@link termRegex} reads it without `exact`: lower case, Latin accents folded. */
export function foldText(text: string): string {
  return fold(text).folded;
}

function rawTokens(term: string): string[] {
  const tokens: string[] = [];
  for (const run of term.match(TOKEN_RUN) ?? []) {
    for (const piece of run.split(CJK_SPLIT)) if (piece !== '') tokens.push(piece);
  }
  return tokens;
}

/** A term's tokens as the index sees them: runs of letters and digits, each CJK character alone. */
function termTokens(term: string): string[] {
  const tokens: string[] = [];
  for (const run of fold(term).folded.match(TOKEN_RUN) ?? []) {
    for (const piece of run.split(CJK_SPLIT)) if (piece !== '') tokens.push(piece);
  }
  return tokens;
}

/**
 * A term as a regex over folded text: its tokens in order with only separators between them (none
 * needed next to a CJK character), and no letter glued on at the end, as whole tokens match in FTS5.
 * (The check at the start is {@link termPattern}'s.)
 */
function termSource(tokens: readonly string[]): string {
  const isCjk = (t: string): boolean => CJK_ONE.test(t);
  let source = '';
  tokens.forEach((tok, i) => {
    if (i > 0) source += isCjk(tokens[i - 1]!) || isCjk(tok) ? `${GAP}*` : `${GAP}+`;
    // Tokens are letters and digits only: nothing in them is regex syntax.
    source += tok;
  });
  if (!isCjk(tokens[tokens.length - 1]!)) source += `(?!${WORD_CHAR})`;
  return source;
}

function findMatches(text: string, pattern: RegExp): Match[] {
  const { folded, toOriginal } = fold(text);
  const out: Match[] = [];
  for (const m of folded.matchAll(pattern)) {
    // The capturing group that matched tells the terms apart (one group per term).
    const term = m.findIndex((g, i) => i > 0 && g !== undefined);
    out.push({ start: toOriginal(m.index), end: toOriginal(m.index + m[0].length), term });
    if (out.length >= MAX_MATCHES) break;
  }
  return out;
}

/**
 * Case-folds like the index: lower case, accents stripped from Latin letters (what unicode61's
 * remove_diacritics does; Japanese voiced kana, Cyrillic й and Greek tonos keep theirs), combining
 * marks dropped. `toOriginal` maps an offset in `folded` back to one in `text`.
 */
export function fold(text: string): Folded {
  if (text.length < FOLD_CACHE_MIN_CHARS) return foldNow(text);
  for (const entry of recentFolds) if (entry.text === text) return entry.folded;
  const folded = foldNow(text);
  recentFolds.unshift({ text, folded });
  recentFolds.length = Math.min(recentFolds.length, FOLD_CACHE_SIZE);
  return folded;
}

type Folded = { folded: string; toOriginal: (i: number) => number };

/**
 * Why remembered: a search folds each hit's body once per term to say where it matched, then again
 * for its excerpt; the last few long texts folded are kept, so each body is folded once.
 */
const FOLD_CACHE_SIZE = 2;
const FOLD_CACHE_MIN_CHARS = 256;
const recentFolds: { text: string; folded: Folded }[] = [];

function foldNow(text: string): Folded {
  const identity = (i: number): number => i;
  if (!NOT_ASCII.test(text)) return { folded: text.toLowerCase(), toOriginal: identity };
  const lower = text.toLowerCase();
  // A few letters (İ) grow when lower-cased; then lower only ASCII here and fold the rest one by one,
  // so every offset still lines up with the original.
  const base = lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const inPlace = foldInPlace(base);
  if (inPlace !== null) return { folded: inPlace, toOriginal: identity };
  // Built as code units: joining a million small slices took several times longer on accented text.
  let out: Uint16Array<ArrayBuffer> = new Uint16Array(base.length + 16);
  let j = 0;
  // Offsets where the folded text stops running parallel to the original: [foldedAt, originalAt].
  const breaks: number[] = [0, 0];
  for (let i = 0; i < base.length; i++) {
    const c = base.charCodeAt(i);
    if (c < 0xc0) {
      out[j++] = c;
      continue;
    }
    const pair = c >= 0xd800 && c < 0xdc00 && isLowSurrogate(base, i + 1);
    const width = pair ? 2 : 1;
    const replacement = pair ? foldPair(base.slice(i, i + 2)) : foldBmp(c);
    if (replacement === null) {
      out[j++] = c;
      if (pair) out[j++] = base.charCodeAt(i + 1);
    } else {
      if (j + replacement.length > out.length) out = grow(out, j + replacement.length + base.length - i);
      for (let k = 0; k < replacement.length; k++) out[j++] = replacement.charCodeAt(k);
      if (replacement.length !== width) breaks.push(j, i + width);
    }
    i += width - 1;
  }
  const folded = fromCodeUnits(out, j);
  if (breaks.length === 2) return { folded, toOriginal: identity };
  const toOriginal = (i: number): number => {
    let lo = 0;
    let hi = breaks.length / 2 - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (breaks[mid * 2]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return breaks[lo * 2 + 1]! + (i - breaks[lo * 2]!);
  };
  return { folded, toOriginal };
}

/** Runs of the code units {@link fold} may change: everything below U+00C0 folds to itself. */
const FOLDABLE_RUN = /[\u00c0-\uffff]+/g;

/**
 * The usual case of {@link fold}: text mostly in ASCII whose every change keeps its length (é to e).
 * The whole text is copied into code units at once and only the runs that may change are looked at,
 * instead of every code unit (a search's ten excerpts: about 0.1 ms less). Null when a change would
 * alter the length (a dropped combining mark); the caller then takes the general way.
 */
function foldInPlace(base: string): string | null {
  const bytes = Buffer.allocUnsafeSlow(base.length * 2);
  bytes.write(base, 0, 'utf16le');
  for (const run of base.matchAll(FOLDABLE_RUN)) {
    const end = run.index + run[0].length;
    for (let i = run.index; i < end; i++) {
      const c = base.charCodeAt(i);
      const pair = c >= 0xd800 && c < 0xdc00 && isLowSurrogate(base, i + 1);
      const width = pair ? 2 : 1;
      const replacement = pair ? foldPair(base.slice(i, i + 2)) : foldBmp(c);
      if (replacement !== null) {
        if (replacement.length !== width) return null;
        for (let k = 0; k < width; k++) bytes.writeUInt16LE(replacement.charCodeAt(k), (i + k) * 2);
      }
      i += width - 1;
    }
  }
  return bytes.toString('utf16le');
}

function grow(buf: Uint16Array, size: number): Uint16Array<ArrayBuffer> {
  const bigger = new Uint16Array(size);
  bigger.set(buf);
  return bigger;
}

/** UTF-16 code units to a string. TextDecoder is many times faster than String.fromCharCode here. */
function fromCodeUnits(units: Uint16Array<ArrayBuffer>, length: number): string {
  const view = units.subarray(0, length);
  // The decoder reads bytes as little-endian; typed arrays use the machine's order.
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) return new TextDecoder('utf-16le').decode(view);
  let out = '';
  for (let at = 0; at < length; at += 4096) out += String.fromCharCode(...view.subarray(at, at + 4096));
  return out;
}

/**
 * Folding a BMP character, remembered per code unit (filled as characters are met, never at import):
 * a 5 MB note of accented or CJK text would otherwise normalize millions of characters one by one.
 * State: 0 not seen yet, 1 folds to itself, 2 folds to its entry in `bmpReplacements`.
 */
let bmpState: Uint8Array | undefined;
const bmpReplacements = new Map<number, string>();

/** The folded form of BMP code unit `c`, or null when it folds to itself. */
function foldBmp(c: number): string | null {
  bmpState ??= new Uint8Array(0x10000);
  const state = bmpState[c];
  if (state === 1) return null;
  if (state === 2) return bmpReplacements.get(c)!;
  const ch = String.fromCharCode(c);
  const folded = foldChar(ch);
  if (folded === ch) {
    bmpState[c] = 1;
    return null;
  }
  bmpReplacements.set(c, folded);
  bmpState[c] = 2;
  return folded;
}

/** The folded form of a surrogate pair, or null when it folds to itself. */
function foldPair(pair: string): string | null {
  const folded = foldChar(pair);
  return folded === pair ? null : folded;
}

function foldChar(ch: string): string {
  if (MARK.test(ch)) return '';
  const cp = ch.codePointAt(0)!;
  const latin = cp < 0x250 || (cp >= 0x1e00 && cp < 0x1f00);
  return (latin ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch).toLowerCase();
}

/**
 * The run of matches fitting in `maxChars` with the most distinct terms, then the most matches; the
 * earliest wins a tie. Two pointers over the matches, so linear in their number.
 */
function densestCluster(matches: readonly Match[], maxChars: number): { first: number; last: number } {
  const counts = new Map<number, number>();
  let best = { first: 0, last: 0, distinct: 0, total: 0 };
  let left = 0;
  for (let right = 0; right < matches.length; right++) {
    const r = matches[right]!;
    counts.set(r.term, (counts.get(r.term) ?? 0) + 1);
    while (r.end - matches[left]!.start > maxChars && left < right) {
      const t = matches[left]!.term;
      const c = counts.get(t)! - 1;
      if (c === 0) counts.delete(t);
      else counts.set(t, c);
      left++;
    }
    const distinct = counts.size;
    const total = right - left + 1;
    if (distinct > best.distinct || (distinct === best.distinct && total > best.total)) {
      best = { first: left, last: right, distinct, total };
    }
  }
  return best;
}

/**
 * Moves the cut points onto spaces (at most {@link SNAP} characters, never into the cluster
 * `[keepFrom, keepTo)`), then off any surrogate pair or combining mark they would split.
 */
function snap(text: string, start: number, end: number, keepFrom: number, keepTo: number): [number, number] {
  let s = start;
  let e = Math.min(end, text.length);
  if (s > 0 && !/\s/.test(text[s - 1]!)) {
    const limit = Math.min(keepFrom, s + SNAP);
    for (let i = s; i < limit; i++) {
      if (/\s/.test(text[i]!)) {
        s = i + 1;
        break;
      }
    }
  }
  if (e < text.length && !/\s/.test(text[e]!)) {
    const limit = Math.max(keepTo, e - SNAP);
    for (let i = e - 1; i >= limit; i--) {
      if (/\s/.test(text[i]!)) {
        e = i;
        break;
      }
    }
  }
  while (s > 0 && s < e && (isLowSurrogate(text, s) || MARK.test(text[s]!))) s++;
  if (e < text.length && e > s && isLowSurrogate(text, e)) e--;
  // A letter cut off from its accent would show as a different letter: leave both out.
  while (e < text.length && e > s && MARK.test(text[e]!)) e--;
  return [s, e];
}

function isLowSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The window with its matches in `**`, whitespace collapsed, `…` where the text goes on. */
function render(text: string, start: number, end: number, matches: readonly Match[]): string {
  let out = '';
  let at = start;
  for (const m of matches) {
    if (m.start < at || m.end > end) continue;
    out += `${text.slice(at, m.start)}**${text.slice(m.start, m.end)}**`;
    at = m.end;
  }
  out += text.slice(at, end);
  out = out.replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${out}${end < text.length ? '…' : ''}`;
}
