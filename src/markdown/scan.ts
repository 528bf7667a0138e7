/**
 * @module
 * The single-pass body scanner: one walk over a note body's lines, and one left-to-right walk over
 * each line, collecting inline tags, links, tasks and block ids as OBSIDIAN.md §1, §2 and §4 read
 * them. Fenced code comes from `splitLines`; inline code spans and `%%…%%` / `<!-- … -->` comments
 * (which may span lines) are skipped here, so nothing inside them counts.
 */

import { splitLines } from './lines.js';
import {
  decodeMarkdownDestination,
  isExternalDestination,
  matchMarkdownLink,
  parseWikilinkInner,
  splitSubpath,
} from './link-syntax.js';
import { parseDueDate, parseTaskLine } from './task-syntax.js';

/** An inline tag, without `#`, as written (one trailing `/` removed). */
export interface ScannedTag {
  readonly tag: string;
  readonly line: number;
}

/** A wikilink, embed, Markdown link or Markdown image that points into the vault. */
export interface ScannedLink {
  /** The link as written, `!` of an embed or image included. */
  readonly raw: string;
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
  readonly embed: boolean;
  readonly kind: 'wikilink' | 'markdown';
  readonly line: number;
  /** UTF-16 offset of `raw` in the scanned body (not shifted by `lineOffset`). */
  readonly start: number;
  /** UTF-16 offset just past `raw` in the scanned body. */
  readonly end: number;
}

/** A checkbox list item. `status` is the character between the brackets. */
export interface ScannedTask {
  readonly line: number;
  readonly status: string;
  readonly text: string;
  readonly due: string | null;
  readonly indent: number;
}

/** A block id `^id` (LNK-42). */
export interface ScannedBlockId {
  readonly id: string;
  readonly line: number;
}

export interface BodyScan {
  readonly tags: ScannedTag[];
  readonly links: ScannedLink[];
  readonly tasks: ScannedTask[];
  readonly blockIds: ScannedBlockId[];
}

export interface ScanOptions {
  /** Added to every 1-based line number: the number of frontmatter lines before the body. */
  readonly lineOffset?: number;
}

const NO_COMMENT = 0;
const PERCENT_COMMENT = 1;
const HTML_COMMENT = 2;

interface ScanState {
  comment: number;
  readonly out: BodyScan;
}

/**
 * Scans a note body (the text after the frontmatter) in linear time.
 *
 * @example
 * scanBody('See [[Plans#Q3|plans]] #work\n- [ ] call Bo 📅 2024-05-01\n', { lineOffset: 3 })
 * // tags [{tag: 'work', line: 4}], links [{linkpath: 'Plans', heading: 'Q3', alias: 'plans', …}],
 * // tasks [{line: 5, status: ' ', text: 'call Bo 📅 2024-05-01', due: '2024-05-01', indent: 0}]
 */
export function scanBody(body: string, opts: ScanOptions = {}): BodyScan {
  const offset = opts.lineOffset ?? 0;
  const state: ScanState = { comment: NO_COMMENT, out: { tags: [], links: [], tasks: [], blockIds: [] } };
  for (const line of splitLines(body)) {
    // A fence line inside a comment neither opens nor closes the comment: the state carries over.
    if (line.inCode) continue;
    const lineNo = line.index + 1 + offset;
    const startsInComment = state.comment !== NO_COMMENT;
    const opaqueEnd = scanLine(line.text, lineNo, line.start, state);
    if (!startsInComment) {
      const task = parseTaskLine(line.text);
      if (task) state.out.tasks.push({ line: lineNo, ...task, due: parseDueDate(task.text) });
    }
    if (opaqueEnd !== -1) {
      const id = trailingBlockId(line.text, opaqueEnd);
      if (id !== null) state.out.blockIds.push({ id, line: lineNo });
    }
  }
  return state.out;
}

/**
 * Walks one line, collecting tags and links into `state.out`. Returns the offset just past the last
 * code span, comment or link on the line (nothing before it can be a trailing block id), or -1 when
 * the line ends inside a comment.
 */
function scanLine(text: string, lineNo: number, base: number, state: ScanState): number {
  const n = text.length;
  let i = 0;
  let opaqueEnd = 0;
  if (state.comment !== NO_COMMENT) {
    const percent = state.comment === PERCENT_COMMENT;
    const close = text.indexOf(percent ? '%%' : '-->');
    if (close === -1) return -1;
    i = close + (percent ? 2 : 3);
    opaqueEnd = i;
    state.comment = NO_COMMENT;
  }
  const contentStart = skipQuotePrefix(text);
  const { tags, links } = state.out;
  // Positions of the next `]]`, `[[` and `](`, kept between look-ups so the walk stays linear.
  let wikiClose = -1;
  let wikiOpen = -1;
  let mdCandidate = -1;
  const codeMisses: number[] = [];

  const tryWikilink = (open: number, embed: boolean): boolean => {
    if (wikiClose !== n && wikiClose < open + 2) wikiClose = indexOrEnd(text, ']]', open + 2);
    if (wikiClose === n || wikiClose === open + 2) return false;
    if (wikiOpen !== n && wikiOpen < open + 2) wikiOpen = indexOrEnd(text, '[[', open + 2);
    if (wikiOpen < wikiClose) return false;
    const parsed = parseWikilinkInner(text.slice(open + 2, wikiClose), embed);
    if (!parsed) return false;
    const start = embed ? open - 1 : open;
    const end = wikiClose + 2;
    links.push({
      raw: text.slice(start, end),
      ...parsed,
      embed,
      kind: 'wikilink',
      line: lineNo,
      start: base + start,
      end: base + end,
    });
    i = end;
    opaqueEnd = end;
    return true;
  };

  const tryMarkdownLink = (open: number, image: boolean): boolean => {
    if (mdCandidate !== n && mdCandidate < open) mdCandidate = indexOrEnd(text, '](', open);
    if (mdCandidate === n) return false;
    const m = matchMarkdownLink(text, open);
    if (!m) return false;
    i = m.end;
    opaqueEnd = m.end;
    if (isExternalDestination(m.dest)) return true;
    const target = decodeMarkdownDestination(m.dest);
    if (target === '') return true;
    const start = image ? open - 1 : open;
    const alias = m.text.trim();
    links.push({
      raw: text.slice(start, m.end),
      ...splitSubpath(target),
      alias: alias === '' ? null : alias,
      embed: image,
      kind: 'markdown',
      line: lineNo,
      start: base + start,
      end: base + m.end,
    });
    return true;
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x5c /* \ */:
        i += isAsciiPunctuation(text.charCodeAt(i + 1)) ? 2 : 1;
        break;
      case 0x60 /* ` */:
        {
          let run = 1;
          while (text.charCodeAt(i + run) === 0x60) run++;
          const close = findCodeSpanClose(text, i + run, run, codeMisses);
          i = close === -1 ? i + run : close + run;
          if (close !== -1) opaqueEnd = i;
          break;
        }
      case 0x25 /* % */:
        {
          if (text.charCodeAt(i + 1) !== 0x25) {
            i++;
            break;
          }
          const close = text.indexOf('%%', i + 2);
          if (close === -1) {
            state.comment = PERCENT_COMMENT;
            return -1;
          }
          i = close + 2;
          opaqueEnd = i;
          break;
        }
      case 0x3c /* < */:
        {
          if (!text.startsWith('<!--', i)) {
            i++;
            break;
          }
          const close = text.indexOf('-->', i + 4);
          if (close === -1) {
            state.comment = HTML_COMMENT;
            return -1;
          }
          i = close + 3;
          opaqueEnd = i;
          break;
        }
      case 0x21 /* ! */:
        {
          const open = i + 1;
          if (text.charCodeAt(open) !== 0x5b) i++;
          else if (text.charCodeAt(open + 1) === 0x5b) {
            if (!tryWikilink(open, true)) i = open;
          } else if (!tryMarkdownLink(open, true)) i = open + 1;
          break;
        }
      case 0x5b /* [ */:
        {
          const handled = text.charCodeAt(i + 1) === 0x5b ? tryWikilink(i, false) : tryMarkdownLink(i, false);
          if (!handled) i++;
          break;
        }
      case 0x23 /* # */:
        {
          if (i === contentStart || (i > 0 && isWhitespace(text.charCodeAt(i - 1)))) {
            let j = i + 1;
            while (j < n && isTagChar(text.charCodeAt(j))) j++;
            const tag = tagBody(text, i + 1, j);
            if (tag !== null) tags.push({ tag, line: lineNo });
            i = Math.max(j, i + 1);
          } else i++;
          break;
        }
      default:
        i++;
    }
  }
  return opaqueEnd;
}

/**
 * TAG-01/02: a non-empty run that is not all ASCII digits, with one trailing `/` removed (TAG-22).
 * The digits test runs after the `/` is removed, so `#1984/` is no tag either.
 */
function tagBody(text: string, from: number, to: number): string | null {
  const end = to > from && text.charCodeAt(to - 1) === 0x2f ? to - 1 : to;
  if (end === from) return null;
  for (let k = from; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x30 || c > 0x39) return text.slice(from, end);
  }
  return null;
}

/** Offset of the first character after leading whitespace and `>` quote markers. */
function skipQuotePrefix(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x3e) break;
    i++;
  }
  return i;
}

function indexOrEnd(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at === -1 ? text.length : at;
}

/**
 * CommonMark code span: the closing run has exactly `run` backticks. `misses[run]` remembers the
 * earliest offset from which no such run exists, so repeated failed searches stay linear.
 */
function findCodeSpanClose(text: string, from: number, run: number, misses: number[]): number {
  const missFrom = misses[run];
  if (missFrom !== undefined && from >= missFrom) return -1;
  let i = text.indexOf('`', from);
  while (i !== -1) {
    let len = 1;
    while (text.charCodeAt(i + len) === 0x60) len++;
    if (len === run) return i;
    i = text.indexOf('`', i + len);
  }
  misses[run] = from;
  return -1;
}

/** LNK-42: `^id` ending the line (trailing whitespace allowed) after whitespace, or alone on it. */
function trailingBlockId(text: string, notBefore: number): string | null {
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
function isTagChar(c: number): boolean {
  if (c < 0x80) return ASCII_TAG_CHAR[c] === 1;
  if (c >= 0x2000 && c <= 0x206f) return false;
  if (c >= 0x2e00 && c <= 0x2e7f) return false;
  return !isWhitespace(c);
}

/** The characters JavaScript's `\s` matches. */
function isWhitespace(c: number): boolean {
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

function isAsciiPunctuation(c: number): boolean {
  return (
    (c >= 0x21 && c <= 0x2f) ||
    (c >= 0x3a && c <= 0x40) ||
    (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e)
  );
}
