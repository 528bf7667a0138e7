/**
 * @module
 * The syntax of one link, without the text around it: the inside of a `[[wikilink]]` (OBSIDIAN.md
 * LNK-08/09), a Markdown link `[text](dest)` found at a given offset, and the cleaning both kinds of
 * target get before resolution (LNK-03). Shared by the body scanner and the frontmatter link walk.
 */

/** A link target split into the file part and the subpath (LNK-09). */
export interface LinkTarget {
  /** The file part, before the first `#`; empty for `[[#Heading]]`. */
  readonly linkpath: string;
  /** Heading path after `#`, levels joined by `#` (`H1#H2`), or null. */
  readonly heading: string | null;
  /** Block id after `#^`, or null. */
  readonly block: string | null;
}

/** A parsed wikilink or Markdown link target plus its display text. */
export interface ParsedLink extends LinkTarget {
  readonly alias: string | null;
}

const NBSP = /\u00a0/g;

/** NBSP → space, trim, NFC: Obsidian's `cleanString` for link targets (LNK-03, LNK-08). */
export function cleanLinkTarget(text: string): string {
  const spaced = text.includes('\u00a0') ? text.replace(NBSP, ' ') : text;
  const trimmed = spaced.trim();
  return isAsciiOnly(trimmed) ? trimmed : trimmed.normalize('NFC');
}

function isAsciiOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * Splits a cleaned target at the first `#` (LNK-09). Empty heading levels are dropped and each level
 * is trimmed, so `Note# H1 #H2` gives heading `H1#H2`; `#^id` gives a block.
 *
 * @example
 * splitSubpath('Note#^abc') // { linkpath: 'Note', heading: null, block: 'abc' }
 */
export function splitSubpath(target: string): LinkTarget {
  const hash = target.indexOf('#');
  if (hash === -1) return { linkpath: target, heading: null, block: null };
  const linkpath = target.slice(0, hash).trim();
  const sub = target.slice(hash + 1);
  if (sub.startsWith('^')) {
    const block = sub.slice(1).trim();
    return { linkpath, heading: null, block: block === '' ? null : block };
  }
  if (!sub.includes('#')) {
    const heading = sub.trim();
    return { linkpath, heading: heading === '' ? null : heading, block: null };
  }
  const levels = sub
    .split('#')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return { linkpath, heading: levels.length === 0 ? null : levels.join('#'), block: null };
}

/**
 * Parses the text between `[[` and `]]` (LNK-08): trim; split target and alias at the first `|` at
 * index > 0; drop one trailing `\` from the target (the table escape `[[Note\|alias]]`); clean the
 * target; split the subpath. For an embed of a file that is not Markdown, the part after `|` is a
 * size (`![[img.png|100]]`, LNK-07), so the alias is null. Returns null when nothing is left.
 *
 * @example
 * parseWikilinkInner('Note#Part|Shown', false) // { linkpath: 'Note', heading: 'Part', block: null, alias: 'Shown' }
 */
export function parseWikilinkInner(inner: string, embed: boolean): ParsedLink | null {
  const text = inner.trim();
  if (text === '') return null;
  const bar = text.indexOf('|');
  let target = bar > 0 ? text.slice(0, bar).trim() : text;
  let alias: string | null = bar > 0 ? text.slice(bar + 1).trim() : null;
  if (target.endsWith('\\')) target = target.slice(0, -1);
  const parts = splitSubpath(cleanLinkTarget(target));
  if (alias === '' || (embed && alias !== null && isNonMarkdownFile(parts.linkpath))) alias = null;
  // Fields copied by name: an object spread here cost more than all the rest of the scan.
  return { linkpath: parts.linkpath, heading: parts.heading, block: parts.block, alias };
}

/** True when the last path segment has an extension other than `.md` (`img.png`, `Doc.pdf`). */
export function isNonMarkdownFile(linkpath: string): boolean {
  const name = linkpath.slice(linkpath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 && name.slice(dot + 1).toLowerCase() !== 'md';
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * True for a destination that leaves the vault: one with a URI scheme (`https:`, `mailto:`,
 * `obsidian:`, also a Windows drive `C:`) or a protocol-relative `//host`.
 */
export function isExternalDestination(dest: string): boolean {
  return SCHEME.test(dest) || dest.startsWith('//');
}

/**
 * Turns a Markdown link destination into a link target (LNK-03): `decodeURI` (which leaves `%23`,
 * `%2F`, `%3F` encoded), keeping the text as written when an escape is malformed, then cleaned.
 */
export function decodeMarkdownDestination(dest: string): string {
  let decoded = dest;
  if (dest.includes('%')) {
    try {
      decoded = decodeURI(dest);
    } catch {
      // A malformed escape (`50%.md`) is most likely a literal `%` in a file name.
      decoded = dest;
    }
  }
  return cleanLinkTarget(decoded);
}

/** A Markdown link or image found in a line: offsets into the line, its text and destination. */
export interface MarkdownLinkMatch {
  /** Offset of the `[` (the `!` of an image is before it). */
  readonly start: number;
  /** Offset just past the closing `)`. */
  readonly end: number;
  readonly text: string;
  /** The destination as written, without `<…>`. */
  readonly dest: string;
}

/**
 * Matches an inline Markdown link whose `[` is at `open` (CommonMark): link text with balanced
 * brackets and backslash escapes, then `(`, a destination (`<…>` or a run without spaces or
 * control characters and with balanced parentheses, at most 32 deep), an optional title in `"…"`,
 * `'…'` or `(…)`, and `)`. Returns null when the text there is not such a link. `textEnd` is the
 * offset of the `]` that balances `open` (see `matchBrackets`), or -1.
 *
 * A bare destination or a title longer than 2,048 characters is not looked for, so a line full of
 * `](` stays linear; such a link is then read as plain text.
 */
export function matchMarkdownLink(
  line: string,
  open: number,
  textEnd = matchBrackets(line).get(open) ?? -1,
): MarkdownLinkMatch | null {
  const close = textEnd;
  if (close === -1 || line.charCodeAt(close + 1) !== 0x28 /* ( */) return null;
  let i = skipSpaces(line, close + 2);
  let dest: string;
  if (line.charCodeAt(i) === 0x3c /* < */) {
    const gt = findAngleEnd(line, i + 1);
    if (gt === -1) return null;
    dest = line.slice(i + 1, gt);
    i = gt + 1;
  } else {
    const end = findBareDestinationEnd(line, i);
    if (end === -1) return null;
    dest = line.slice(i, end);
    i = end;
  }
  const afterDest = i;
  i = skipSpaces(line, i);
  if (i > afterDest) i = skipTitle(line, i);
  if (i === -1) return null;
  i = skipSpaces(line, i);
  if (line.charCodeAt(i) !== 0x29 /* ) */) return null;
  return { start: open, end: i + 1, text: line.slice(open + 1, close), dest };
}

const MAX_SCAN = 2048;
const MAX_PAREN_DEPTH = 32;

/**
 * Pairs every `[` of a line with the `]` that balances it (backslash escapes skipped), in one pass:
 * the key is the offset of a `[`, the value the offset of its `]`. Unbalanced `[` are absent.
 */
export function matchBrackets(line: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x5b /* [ */) stack.push(i);
    else if (c === 0x5d /* ] */) {
      const open = stack.pop();
      if (open !== undefined) pairs.set(open, i);
    }
  }
  return pairs;
}

function findAngleEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x3e /* > */) return i;
    else if (c === 0x3c) return -1;
  }
  return -1;
}

function findBareDestinationEnd(line: string, from: number): number {
  let depth = 0;
  let i = from;
  const limit = Math.min(line.length, from + MAX_SCAN);
  for (; i < limit; i++) {
    const c = line.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) break;
    if (c === 0x5c) i++;
    else if (c === 0x28) {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (c === 0x29) {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i === limit && limit < line.length) return -1;
  return depth === 0 && i > from ? i : -1;
}

function skipTitle(line: string, from: number): number {
  const q = line.charCodeAt(from);
  const closer = q === 0x22 || q === 0x27 ? q : q === 0x28 ? 0x29 : -1;
  if (closer === -1) return from;
  const limit = Math.min(line.length, from + MAX_SCAN);
  for (let i = from + 1; i < limit; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === closer) return i + 1;
  }
  return -1;
}

function skipSpaces(line: string, from: number): number {
  let i = from;
  while (i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0x09)) i++;
  return i;
}
