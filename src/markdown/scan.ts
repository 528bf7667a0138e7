/**
 * @module
 * The single-pass body scanner: one walk over a note body's lines, and one left-to-right walk over
 * each line, collecting inline tags, links, tasks and block ids as OBSIDIAN.md §1, §2 and §4 read
 * them. Fenced code comes from `splitLines`; inline code spans and `%%…%%` / `<!-- … -->` comments
 * (which may span lines) are skipped here, so nothing inside them counts.
 */

import { splitFrontmatter } from './frontmatter/frontmatter.js';
import {
  backtickRuns,
  isAsciiPunctuation,
  isTagChar,
  isWhitespace,
  nextRunOf,
  skipQuotePrefix,
  tagBody,
  trailingBlockId,
} from './inline-tokens.js';
import { splitLines } from './lines.js';
import {
  decodeMarkdownDestination,
  isExternalDestination,
  matchBrackets,
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

/** Mutable state of one scan, reused across lines so the hot loop allocates nothing of its own. */
interface Cursor {
  /** Which comment the current line starts in. */
  comment: number;
  readonly out: BodyScan;
  text: string;
  lineNo: number;
  /** Offset of the current line in the body. */
  base: number;
  /** Offset just past the last code span, comment or link on the line. */
  opaqueEnd: number;
  // Next `]]`, `[[` and `](` on the line, remembered between look-ups so the walk stays linear.
  wikiClose: number;
  wikiOpen: number;
  mdCandidate: number;
  /** `[` → balancing `]` on the line, computed on the first Markdown link candidate. */
  brackets: Map<number, number> | null;
  /** Offsets of the line's backtick runs by run length, computed at the first backtick. */
  codeRuns: Map<number, number[]> | null;
  /** The characters the line walk stops at; global, so `lastIndex` tells where a match ended. */
  readonly special: RegExp;
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
  const cur: Cursor = {
    comment: NO_COMMENT,
    out: { tags: [], links: [], tasks: [], blockIds: [] },
    text: '',
    lineNo: 0,
    base: 0,
    opaqueEnd: 0,
    wikiClose: -1,
    wikiOpen: -1,
    mdCandidate: -1,
    brackets: null,
    codeRuns: null,
    special: /[\\`%<![#]/g,
  };
  for (const line of splitLines(body)) {
    // A fence line inside a comment neither opens nor closes the comment: the state carries over.
    if (line.inCode) continue;
    const lineNo = line.index + 1 + offset;
    const startsInComment = cur.comment !== NO_COMMENT;
    const endsInComment = !scanLine(cur, line.text, lineNo, line.start);
    if (!startsInComment) {
      const task = parseTaskLine(line.text);
      if (task) {
        cur.out.tasks.push({
          line: lineNo,
          status: task.status,
          text: task.text,
          due: parseDueDate(task.text),
          indent: task.indent,
        });
      }
    }
    if (!endsInComment) {
      const id = trailingBlockId(line.text, cur.opaqueEnd);
      if (id !== null) cur.out.blockIds.push({ id, line: lineNo });
    }
  }
  return cur.out;
}

/** Scans the body of a whole note, its lines numbered from the note's first line (frontmatter included). */
export function scanNote(text: string): BodyScan {
  const { raw, body } = splitFrontmatter(text);
  return scanBody(body, { lineOffset: raw === '' ? 0 : raw.split('\n').length - 1 });
}

/**
 * Walks one line, collecting tags and links. Returns false when the line ends inside a comment;
 * otherwise `cur.opaqueEnd` tells where a trailing block id may start.
 */
function scanLine(cur: Cursor, text: string, lineNo: number, base: number): boolean {
  cur.text = text;
  cur.lineNo = lineNo;
  cur.base = base;
  cur.opaqueEnd = 0;
  cur.wikiClose = -1;
  cur.wikiOpen = -1;
  cur.mdCandidate = -1;
  cur.brackets = null;
  cur.codeRuns = null;
  if (cur.comment !== NO_COMMENT) {
    const percent = cur.comment === PERCENT_COMMENT;
    const close = text.indexOf(percent ? '%%' : '-->');
    if (close === -1) return false;
    cur.opaqueEnd = close + (percent ? 2 : 3);
    cur.comment = NO_COMMENT;
  }
  const n = text.length;
  const contentStart = skipQuotePrefix(text);
  let i = cur.opaqueEnd;
  while (i < n) {
    // Most characters start nothing: let the regex engine skip them (`test` allocates no match).
    const special = cur.special;
    special.lastIndex = i;
    if (!special.test(text)) return true;
    i = special.lastIndex - 1;
    switch (text.charCodeAt(i)) {
      case 0x5c /* \ */:
        i += isAsciiPunctuation(text.charCodeAt(i + 1)) ? 2 : 1;
        break;
      case 0x60 /* ` */:
        {
          let run = 1;
          while (text.charCodeAt(i + run) === 0x60) run++;
          cur.codeRuns ??= backtickRuns(text);
          const close = nextRunOf(cur.codeRuns.get(run), i + run);
          if (close === -1) i += run;
          else i = cur.opaqueEnd = close + run;
          break;
        }
      case 0x25 /* % */:
        if (text.charCodeAt(i + 1) !== 0x25) i++;
        else {
          i = skipComment(cur, '%%', i + 2, PERCENT_COMMENT);
          if (i === -1) return false;
        }
        break;
      case 0x3c /* < */:
        if (!text.startsWith('<!--', i)) i++;
        else {
          i = skipComment(cur, '-->', i + 4, HTML_COMMENT);
          if (i === -1) return false;
        }
        break;
      case 0x21 /* ! */:
        {
          if (text.charCodeAt(i + 1) !== 0x5b) {
            i++;
            break;
          }
          const wiki = text.charCodeAt(i + 2) === 0x5b;
          const end = wiki ? tryWikilink(cur, i + 1, true) : tryMarkdownLink(cur, i + 1, true);
          i = end !== -1 ? end : wiki ? i + 1 : i + 2;
          break;
        }
      case 0x5b /* [ */:
        {
          const end =
            text.charCodeAt(i + 1) === 0x5b ? tryWikilink(cur, i, false) : tryMarkdownLink(cur, i, false);
          i = end !== -1 ? end : i + 1;
          break;
        }
      case 0x23 /* # */:
        {
          if (i !== contentStart && (i === 0 || !isWhitespace(text.charCodeAt(i - 1)))) {
            i++;
            break;
          }
          let j = i + 1;
          while (j < n && isTagChar(text.charCodeAt(j))) j++;
          const tag = tagBody(text, i + 1, j);
          if (tag !== null) cur.out.tags.push({ tag, line: lineNo });
          i = Math.max(j, i + 1);
          break;
        }
      default:
        i++;
    }
  }
  return true;
}

/** The offset past a comment that opened before `from`, or -1 (the comment stays open) if it runs on. */
function skipComment(cur: Cursor, closer: string, from: number, kind: number): number {
  const close = cur.text.indexOf(closer, from);
  if (close === -1) {
    cur.comment = kind;
    return -1;
  }
  cur.opaqueEnd = close + closer.length;
  return cur.opaqueEnd;
}

/** Records the wikilink whose `[[` is at `open`; returns the offset past it, or -1. */
function tryWikilink(cur: Cursor, open: number, embed: boolean): number {
  const text = cur.text;
  const n = text.length;
  if (cur.wikiClose !== n && cur.wikiClose < open + 2) cur.wikiClose = indexOrEnd(text, ']]', open + 2);
  const close = cur.wikiClose;
  if (close === n || close === open + 2) return -1;
  if (cur.wikiOpen !== n && cur.wikiOpen < open + 2) cur.wikiOpen = indexOrEnd(text, '[[', open + 2);
  if (cur.wikiOpen < close) return -1;
  const parsed = parseWikilinkInner(text.slice(open + 2, close), embed);
  if (!parsed) return -1;
  const start = embed ? open - 1 : open;
  const end = close + 2;
  cur.out.links.push({
    raw: text.slice(start, end),
    linkpath: parsed.linkpath,
    heading: parsed.heading,
    block: parsed.block,
    alias: parsed.alias,
    embed,
    kind: 'wikilink',
    line: cur.lineNo,
    start: cur.base + start,
    end: cur.base + end,
  });
  cur.opaqueEnd = end;
  return end;
}

/** Records the Markdown link or image whose `[` is at `open`; returns the offset past it, or -1. */
function tryMarkdownLink(cur: Cursor, open: number, image: boolean): number {
  const text = cur.text;
  const n = text.length;
  if (cur.mdCandidate !== n && cur.mdCandidate < open) cur.mdCandidate = indexOrEnd(text, '](', open);
  if (cur.mdCandidate === n) return -1;
  let textEnd = cur.brackets ? (cur.brackets.get(open) ?? -1) : nearTextEnd(text, open);
  if (textEnd === -2) {
    cur.brackets ??= matchBrackets(text);
    textEnd = cur.brackets.get(open) ?? -1;
  }
  const m = matchMarkdownLink(text, open, textEnd);
  if (!m) return -1;
  cur.opaqueEnd = m.end;
  if (isExternalDestination(m.dest)) return m.end;
  const target = decodeMarkdownDestination(m.dest);
  if (target === '') return m.end;
  const sub = splitSubpath(target);
  const start = image ? open - 1 : open;
  const alias = m.text.trim();
  cur.out.links.push({
    raw: text.slice(start, m.end),
    linkpath: sub.linkpath,
    heading: sub.heading,
    block: sub.block,
    alias: alias === '' ? null : alias,
    embed: image,
    kind: 'markdown',
    line: cur.lineNo,
    start: cur.base + start,
    end: cur.base + m.end,
  });
  return m.end;
}

/**
 * The `]` balancing the `[` at `open` when it is near (the common case), -1 when the line ends first,
 * -2 when it is too far to look for here: then the whole line's bracket pairs are worked out once.
 */
function nearTextEnd(text: string, open: number): number {
  const limit = Math.min(text.length, open + 128);
  let depth = 0;
  for (let i = open + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x5b /* [ */) depth++;
    else if (c === 0x5d /* ] */) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return limit === text.length ? -1 : -2;
}

function indexOrEnd(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  return at === -1 ? text.length : at;
}
