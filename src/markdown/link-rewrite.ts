/**
 * @module
 * Rewriting where links point, and nothing else: every wikilink, embed, Markdown link and frontmatter
 * link of a note is offered to a callback, which answers the new linkpath (or null to keep the link).
 * The subpath (`#Heading`, `#^block`), the display text, the `!`, a Markdown link's title, its
 * `<…>` or percent-encoded form and every byte around the link stay as they were. Pure: used by the
 * move tools to keep links pointing at a note that moves (OBSIDIAN.md §1.1, LNK-28).
 *
 * A new linkpath that the link's syntax cannot carry (a `|` or `]]` in a wikilink, a `#` anywhere)
 * is not written: the link is reported in `unwritable`, and the caller decides.
 */
import { isScalar, type Scalar, visit } from 'yaml';
import {
  frontmatterDocumentError,
  parseFrontmatterYaml,
  splitFrontmatter,
} from './frontmatter/frontmatter.js';
import {
  cleanLinkTarget,
  decodeMarkdownDestination,
  matchBrackets,
  matchMarkdownLink,
  parseWikilinkInner,
  splitSubpath,
} from './link-syntax.js';
import { scanBody } from './scan.js';

/** One link as the callback sees it. */
export interface LinkInNote {
  /** `html`: an `<a href>` or `<img src>` of an HTML note (format/html-links.ts). */
  readonly kind: 'wikilink' | 'markdown' | 'frontmatter' | 'html';
  /** The link as written (for a frontmatter link: the value, `[[…]]` included). */
  readonly raw: string;
  /** The cleaned file part the resolver reads; `''` for a link into the note itself. */
  readonly linkpath: string;
  readonly embed: boolean;
  /** 1-based line in the note. */
  readonly line: number;
}

/** A link whose text changes. */
export interface LinkEdit {
  readonly kind: LinkInNote['kind'];
  readonly line: number;
  readonly before: string;
  readonly after: string;
}

export interface LinksRewritten {
  /** The note's new text (the same string when nothing changed). */
  readonly text: string;
  /** In document order: frontmatter links first, then the body's. */
  readonly edits: LinkEdit[];
  /** Links the callback asked to change whose syntax cannot hold the new linkpath; left as they were. */
  readonly unwritable: (LinkInNote & { readonly wanted: string })[];
}

/** Decides a link's new linkpath (as a resolver reads it: `a/Plan`, `Plan.md`, `../x.png`), or null. */
export type NewLinkpath = (link: LinkInNote) => string | null;

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Offers every link of `text` to `newLinkpath` and writes the answers in.
 *
 * @example
 * rewriteLinks('See [[Old#Part|it]] and [x](Old%20Note.md).', (l) => (l.linkpath === 'Old' ? 'New' : null))
 * // text 'See [[New#Part|it]] and [x](Old%20Note.md).'
 */
export function rewriteLinks(text: string, newLinkpath: NewLinkpath): LinksRewritten {
  const split = splitFrontmatter(text);
  const splices: Splice[] = [];
  const edits: LinkEdit[] = [];
  const unwritable: LinksRewritten['unwritable'] = [];
  // `rewrite` gives the link's new text, and `quote` how it is written in place (a YAML scalar).
  const offer = (
    link: LinkInNote,
    start: number,
    end: number,
    rewrite: (path: string) => string | null,
    quote: (after: string) => string = (after) => after,
  ) => {
    const wanted = newLinkpath(link);
    if (wanted === null) return;
    const after = rewrite(wanted);
    if (after === null) unwritable.push({ ...link, wanted });
    else if (after !== link.raw) {
      splices.push({ start, end, text: quote(after) });
      edits.push({ kind: link.kind, line: link.line, before: link.raw, after });
    }
  };

  if (split.yaml !== null) {
    // The YAML starts after the opening `---` line (a BOM may come first).
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const yamlStart = bom + 3 + (text.startsWith('\r\n', bom + 3) ? 2 : 1);
    const lines = lineCounter(text);
    for (const scalar of frontmatterLinkScalars(split.yaml)) {
      const start = yamlStart + scalar.start;
      const line = lines(start);
      const link: LinkInNote = {
        kind: 'frontmatter',
        raw: scalar.value,
        linkpath: scalar.linkpath,
        embed: false,
        line,
      };
      offer(
        link,
        start,
        yamlStart + scalar.end,
        (path) => replaceWikilinkPath(scalar.value, path),
        (value) => quoteLike(scalar.type, value),
      );
    }
  }
  const lineOffset = split.raw === '' ? 0 : split.raw.split('\n').length - 1;
  const base = split.raw.length;
  for (const l of scanBody(split.body, { lineOffset }).links) {
    const link: LinkInNote = { kind: l.kind, raw: l.raw, linkpath: l.linkpath, embed: l.embed, line: l.line };
    offer(link, base + l.start, base + l.end, (path) =>
      l.kind === 'wikilink' ? replaceWikilinkPath(l.raw, path) : replaceMarkdownPath(l.raw, path),
    );
  }
  if (splices.length === 0) return { text, edits, unwritable };
  return { text: applySplices(text, splices), edits, unwritable };
}

/**
 * The text with every splice written in, built once: each stretch between splices is copied one time.
 * Splices come in document order (frontmatter, then body) and never overlap. Why not splice into the
 * text one by one: that copies the whole note per link, minutes for 200,000 links (issue 25).
 */
function applySplices(text: string, splices: readonly Splice[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const s of splices) {
    parts.push(text.slice(at, s.start), s.text);
    at = s.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * A wikilink or embed (`[[…]]`, `![[…]]`) with its linkpath replaced, or null when the new linkpath
 * would not read back the same (it holds `|`, `#`, `[[` or `]]`) or the link has no linkpath.
 *
 * @example
 * replaceWikilinkPath('![[Old#^b|shown]]', 'a/New') // '![[a/New#^b|shown]]'
 */
export function replaceWikilinkPath(raw: string, linkpath: string): string | null {
  const open = raw.indexOf('[[');
  if (open === -1 || !raw.endsWith(']]')) return null;
  const embed = open > 0;
  const inner = raw.slice(open + 2, -2);
  const old = parseWikilinkInner(inner, embed);
  if (old === null || old.linkpath === '') return null;
  const lead = inner.length - inner.trimStart().length;
  const trimmed = inner.trim();
  const bar = trimmed.indexOf('|');
  const target = bar > 0 ? trimmed.slice(0, bar) : trimmed;
  const hash = target.indexOf('#');
  let pathEnd = hash === -1 ? target.length : hash;
  // The table escape `[[Note\|alias]]`: the `\` belongs to the syntax, not to the name.
  if (hash === -1 && target.trimEnd().endsWith('\\')) pathEnd = target.trimEnd().length - 1;
  const part = target.slice(0, pathEnd);
  const from = lead + (part.length - part.trimStart().length);
  const to = lead + part.trimEnd().length;
  const nextInner = inner.slice(0, from) + linkpath + inner.slice(to);
  const again = parseWikilinkInner(nextInner, embed);
  if (
    again === null ||
    again.linkpath !== cleanLinkTarget(linkpath) ||
    again.heading !== old.heading ||
    again.block !== old.block ||
    again.alias !== old.alias ||
    nextInner.includes(']]') ||
    nextInner.includes('[[')
  ) {
    return null;
  }
  return `${raw.slice(0, open + 2)}${nextInner}]]`;
}

/**
 * A Markdown link or image with its destination's file part replaced in the destination's own style:
 * inside `<…>` the path is written as is; a bare destination is percent-encoded (spaces as `%20`;
 * other non-ASCII characters stay raw when the old destination had raw ones). `%` is always written
 * `%25`, since the destination is decoded before it is resolved. Null when it would not read back.
 *
 * @example
 * replaceMarkdownPath('[x](Old%20Note.md#Part "t")', 'b/New Note.md') // '[x](b/New%20Note.md#Part "t")'
 */
export function replaceMarkdownPath(raw: string, linkpath: string): string | null {
  const open = raw.startsWith('!') ? 1 : 0;
  const brackets = matchBrackets(raw);
  const m = matchMarkdownLink(raw, open, brackets.get(open) ?? -1);
  const close = brackets.get(open);
  if (m === null || close === undefined || m.end !== raw.length) return null;
  let i = close + 2;
  while (raw[i] === ' ' || raw[i] === '\t') i++;
  const angle = raw[i] === '<';
  const destStart = angle ? i + 1 : i;
  const old = splitSubpath(decodeMarkdownDestination(m.dest));
  const hash = m.dest.indexOf('#');
  const written = hash === -1 ? m.dest : m.dest.slice(0, hash);
  const encoded = angle ? encodeAngle(linkpath) : encodeBare(linkpath, /[^\x00-\x7f]/.test(written));
  const nextDest = encoded + m.dest.slice(written.length);
  const next = raw.slice(0, destStart) + nextDest + raw.slice(destStart + m.dest.length);
  const again = matchMarkdownLink(next, open);
  if (again === null || again.end !== next.length) return null;
  const parsed = splitSubpath(decodeMarkdownDestination(again.dest));
  if (
    parsed.linkpath !== cleanLinkTarget(linkpath) ||
    parsed.heading !== old.heading ||
    parsed.block !== old.block
  ) {
    return null;
  }
  return next;
}

function encodeAngle(path: string): string {
  return path.replace(/%/g, '%25');
}

function encodeBare(path: string, keepUnicode: boolean): string {
  let out = '';
  for (const ch of path) {
    const code = ch.codePointAt(0) as number;
    if (ch === '%') out += '%25';
    else if (code <= 0x20 || code === 0x7f || '<>()'.includes(ch))
      out += encodeURIComponent(ch).replace(/[()]/g, hexOf);
    else if (code > 0x7f && !keepUnicode) out += encodeURIComponent(ch);
    else out += ch;
  }
  return out;
}

function hexOf(ch: string): string {
  return `%${ch.charCodeAt(0).toString(16).toUpperCase()}`;
}

interface LinkScalar {
  /** Offsets of the scalar's source (quotes included) in the YAML text. */
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly linkpath: string;
  readonly type: Scalar['type'];
}

/**
 * The scalars of a frontmatter block whose value is one whole wikilink (LNK-11, as
 * `frontmatterLinks` reads them), with where their source is. A block that does not parse has none.
 */
function frontmatterLinkScalars(yaml: string): LinkScalar[] {
  // Parsed as the index parses it (frontmatter.ts): a block too deeply nested is never composed.
  const parsed = parseFrontmatterYaml(yaml);
  if ('error' in parsed || frontmatterDocumentError(parsed.doc, yaml) !== null) return [];
  const doc = parsed.doc;
  const out: LinkScalar[] = [];
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.range || !isScalar(node)) return;
      const value = node.value;
      if (!value.startsWith('[[') || !value.endsWith(']]') || value.length < 5) return;
      const inner = value.slice(2, -2);
      if (inner.includes('[[') || inner.includes(']]')) return;
      const parsed = parseWikilinkInner(inner, false);
      if (parsed === null) return;
      out.push({
        start: node.range[0],
        end: node.range[1],
        value,
        linkpath: parsed.linkpath,
        type: node.type,
      });
    },
  });
  return out.sort((a, b) => a.start - b.start);
}

/** A YAML scalar holding `value`, quoted as the old one was (double quotes for any other style). */
function quoteLike(type: Scalar['type'], value: string): string {
  if (type === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  return JSON.stringify(value);
}

/**
 * The 1-based line of an offset, for offsets asked in increasing order: each call counts on from the
 * previous one, so the lines of all a note's links cost one pass over the text.
 */
function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let next = text.indexOf('\n');
  return (offset) => {
    while (next !== -1 && next < offset) {
      line++;
      next = text.indexOf('\n', next + 1);
    }
    return line;
  };
}
