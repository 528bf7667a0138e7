/**
 * @module
 * Search-result excerpts. The FTS5 table is contentless, so `snippet()` cannot work; instead we find
 * the search terms in the note's text the way the index tokenizes (case-insensitive, Latin accents
 * ignored, whole words, CJK character by character) and cut a window around the densest cluster.
 * Linear in the text: one folding pass and one regex scan, so a 5 MB body is fine.
 */

import { CJK_CLASS } from './cjk.js';

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
/** Characters whose folded form differs from `toLowerCase()`: accented Latin and combining marks. */
const SPECIAL = /[\u00C0-\u024F\u1E00-\u1EFF\p{M}]/gu;
const MARK = /^\p{M}$/u;
const NOT_ASCII = /[^\x00-\x7F]/;

/**
 * A window of `text` of at most `maxChars` characters (after collapsing whitespace; `**` markers and
 * `…` come on top) around the densest cluster of `terms`, each match wrapped in `**`. Without a match,
 * the start of the text. `text` is the body: skipping frontmatter is the caller's job.
 *
 * @example
 * buildExcerpt('Notes from the Café meeting.\n\nNext steps…', ['cafe']) // 'Notes from the **Café** meeting. Next steps…'
 */
export function buildExcerpt(text: string, terms: readonly string[], maxChars = 240): string {
  if (text === '' || maxChars <= 0) return '';
  const pattern = termPattern(terms);
  const matches = pattern ? findMatches(text, pattern) : [];
  let start: number;
  let end: number;
  if (matches.length === 0) {
    start = 0;
    end = Math.min(text.length, maxChars);
  } else {
    const best = densestCluster(matches, maxChars);
    const cs = matches[best.first]!.start;
    const ce = matches[best.last]!.end;
    if (ce - cs >= maxChars) {
      start = cs;
      end = cs + maxChars;
    } else {
      const slack = maxChars - (ce - cs);
      start = Math.max(0, cs - Math.floor(slack / 2));
      end = Math.min(text.length, start + maxChars);
      start = Math.max(0, end - maxChars);
    }
    [start, end] = snap(text, start, end, cs, Math.min(ce, end));
  }
  if (matches.length === 0) [start, end] = snap(text, start, end, start, start);
  return render(text, start, end, matches);
}

interface Match {
  start: number;
  end: number;
  term: number;
}

/** One alternation over all terms, longest first so a phrase wins over its own first word. */
function termPattern(terms: readonly string[]): RegExp | null {
  const sources = [...new Set(terms.map(termSource).filter((s): s is string => s !== null))];
  if (sources.length === 0) return null;
  sources.sort((a, b) => b.length - a.length);
  return new RegExp(sources.map((s) => `(${s})`).join('|'), 'gu');
}

/**
 * A term as a regex over folded text: its tokens in order with only separators between them (none
 * needed next to a CJK character), and no letter glued on at either end, as whole tokens match in FTS5.
 */
function termSource(term: string): string | null {
  const tokens: string[] = [];
  for (const run of fold(term).folded.match(TOKEN_RUN) ?? []) {
    for (const piece of run.split(CJK_SPLIT)) if (piece !== '') tokens.push(piece);
  }
  if (tokens.length === 0) return null;
  const isCjk = (t: string): boolean => CJK_ONE.test(t);
  let source = isCjk(tokens[0]!) ? '' : `(?<!${WORD_CHAR})`;
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
    const term = m.findIndex((g, i) => i > 0 && g !== undefined) - 1;
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
function fold(text: string): { folded: string; toOriginal: (i: number) => number } {
  const identity = (i: number): number => i;
  if (!NOT_ASCII.test(text)) return { folded: text.toLowerCase(), toOriginal: identity };
  const lower = text.toLowerCase();
  // Rare letters (İ) grow when lower-cased whole; then fold letter by letter so offsets stay exact.
  const base = lower.length === text.length ? lower : text;
  const special = lower.length === text.length ? SPECIAL : /[A-Z\u0080-\u{10FFFF}]/gu;
  const parts: string[] = [];
  // Offsets where the folded text stops running parallel to the original: [foldedAt, originalAt].
  const breaks: number[] = [0, 0];
  let from = 0;
  let shift = 0;
  for (const m of base.matchAll(special)) {
    const at = m.index;
    const replacement = foldChar(m[0]);
    if (replacement === m[0]) continue;
    parts.push(base.slice(from, at), replacement);
    from = at + m[0].length;
    if (replacement.length !== m[0].length) {
      shift += replacement.length - m[0].length;
      breaks.push(from + shift, from);
    }
  }
  parts.push(base.slice(from));
  const folded = parts.join('');
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

const foldCache = new Map<string, string>();

function foldChar(ch: string): string {
  const cached = foldCache.get(ch);
  if (cached !== undefined) return cached;
  let out: string;
  if (MARK.test(ch)) out = '';
  else {
    const cp = ch.codePointAt(0)!;
    const latin = cp < 0x250 || (cp >= 0x1e00 && cp < 0x1f00);
    out = (latin ? ch.normalize('NFD').replace(/\p{M}/gu, '') : ch).toLowerCase();
  }
  if (foldCache.size < 4096) foldCache.set(ch, out);
  return out;
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
  let e = end;
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
