/**
 * @module
 * A note's structure as Obsidian sees it (SPEC 12.3): headings with the anchor a `[[note#heading]]`
 * link uses, `^id` block anchors with the lines each block covers, counts, and the lines a link's
 * `#heading` or `#^block` part points at (Obsidian's `resolveSubpath`, OBSIDIAN.md LNK-40, LNK-41).
 * Line numbers are 1-based and count the frontmatter's lines, like every other line number the tools
 * give.
 */

import { LIST_ITEM } from './blocks.js';
import { parseFrontmatter, splitFrontmatter } from './frontmatter/frontmatter.js';
import { findHeadings, type Heading } from './headings.js';
import { splitLines } from './lines.js';
import { type OutlineTable, type OutlineTag, outlineTables, outlineTags } from './outline-parts.js';
import { scanBody } from './scan.js';
import { stripHeading } from './sections.js';
import { countCharacters, countWords } from './word-count.js';

export interface OutlineHeading {
  readonly level: number;
  readonly text: string;
  /** 1-based line of the heading. */
  readonly line: number;
  /** What a link to this heading carries after `#`: `[[note#ANCHOR]]`. */
  readonly anchor: string;
}

export interface OutlineBlock {
  /** The id as written after `^`. */
  readonly id: string;
  /** 1-based line holding `^id`. */
  readonly line: number;
  /** The lines of the block the id names, `[from, to]`, 1-based and inclusive. */
  readonly lines: readonly [number, number];
  /** The block's text without the `^id`, shortened to 200 characters. */
  readonly text: string;
}

export interface NoteOutline {
  readonly headings: OutlineHeading[];
  readonly blocks: OutlineBlock[];
  readonly words: number;
  readonly characters: number;
  readonly lines: number;
  readonly tasks: { readonly open: number; readonly done: number };
}

/** The outline with its tags and tables (SPEC 17.4), and which of those lists stop at their bound. */
export interface FullOutline extends NoteOutline {
  readonly tags: OutlineTag[];
  readonly tables: OutlineTable[];
  readonly cut: { readonly tags: boolean; readonly tables: boolean };
}

/**
 * Obsidian's `stripHeadingForLink`: `:`, `#`, `|`, `^`, `\`, line breaks, `%%`, `[[` and `]]` become
 * spaces, runs of whitespace one space, trimmed. A link to the heading carries this after `#`.
 *
 * @example
 * headingAnchor('Step 1: C# [[basics]]') // 'Step 1 C basics'
 */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/[:#|^\\\r\n]|%%|\[\[|\]\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const BLOCK_TEXT_CHARS = 200;

const DELIMITER_HINT = /-[ \t:]*\||\|[ \t:]*-/;

/** The outline of a note's whole stored text, with its tags and tables. */
export function fullOutlineOf(text: string): FullOutline {
  const fm = parseFrontmatter(text);
  const lineOffset = fm.raw === '' ? 0 : fm.raw.split('\n').length - 1;
  const scan = scanBody(fm.body, { lineOffset });
  const tags = outlineTags(fm.raw, fm.data, scan.tags);
  // Every delimiter row has a `-` next to a `|` (spaces and colons between): without one there is no
  // table, and the body's lines need not be split again.
  const tables = DELIMITER_HINT.test(fm.body)
    ? outlineTables(splitLines(fm.body), lineOffset)
    : { tables: [], cut: false };
  return {
    ...outlineFrom(text, fm.body, scan),
    tags: tags.tags,
    tables: tables.tables,
    cut: { tags: tags.cut, tables: tables.cut },
  };
}

/** The outline of a note's whole stored text. */
export function outlineOf(text: string): NoteOutline {
  const { raw, body } = splitFrontmatter(text);
  const lineOffset = raw === '' ? 0 : raw.split('\n').length - 1;
  return outlineFrom(text, body, scanBody(body, { lineOffset }));
}

function outlineFrom(text: string, body: string, scan: ReturnType<typeof scanBody>): NoteOutline {
  const lines = text.split('\n');
  const starts = paragraphStarts(lines);
  const open = scan.tasks.filter((t) => t.status === ' ').length;
  return {
    headings: findHeadings(text).map((h) => ({
      level: h.level,
      text: h.text,
      line: h.line + 1,
      anchor: headingAnchor(h.text),
    })),
    blocks: scan.blockIds.map((b) => {
      const range = blockLines(lines, b.line, starts);
      return { id: b.id, line: b.line, lines: range, text: blockText(lines, range, b.id) };
    }),
    words: countWords(body),
    characters: countCharacters(body),
    lines: lineCount(text),
    tasks: { open, done: scan.tasks.length - open },
  };
}

/** Lines in the text: a final line break ends the last line, it does not start another. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

const BLANK = /^\s*$/;
const STANDALONE_ID = /^\s*\^[A-Za-z0-9-]+\s*$/;

/**
 * The lines a block id names (LNK-42): an id alone on its line names the block before it (a table,
 * list, quote or paragraph, blank lines between allowed); on a list item, the item and the items
 * nested in it; otherwise the paragraph ending on its line.
 */
function blockLines(lines: readonly string[], idLine: number, starts: readonly number[]): [number, number] {
  const at = idLine - 1;
  const here = lines[at] ?? '';
  if (STANDALONE_ID.test(here)) {
    let end = at - 1;
    while (end >= 0 && BLANK.test(lines[end] ?? '')) end--;
    if (end < 0) return [idLine, idLine];
    return [(starts[end] as number) + 1, idLine];
  }
  const item = LIST_ITEM.exec(here);
  if (item) {
    const indent = (item[1] ?? '').length;
    let end = at;
    for (let i = at + 1; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (BLANK.test(line)) break;
      const nested = LIST_ITEM.exec(line);
      const lineIndent = line.length - line.trimStart().length;
      if (nested ? lineIndent <= indent : lineIndent === 0) break;
      end = i;
    }
    return [idLine, end + 1];
  }
  return [(starts[at] as number) + 1, idLine];
}

/**
 * For each line (0-based), the first line of the run of non-blank lines ending there, stopping after a
 * heading or a fence: in one pass, since a paragraph of thousands of lines each with an id walked back
 * over the whole paragraph once per id.
 */
function paragraphStarts(lines: readonly string[]): number[] {
  const starts = new Array<number>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const before = i === 0 ? undefined : (lines[i - 1] as string);
    const breaks =
      before === undefined ||
      BLANK.test(before) ||
      /^ {0,3}#{1,6}(\s|$)/.test(before) ||
      /^ {0,3}(`{3,}|~{3,})/.test(before);
    starts[i] = breaks ? i : (starts[i - 1] as number);
  }
  return starts;
}

function blockText(lines: readonly string[], [from, to]: readonly [number, number], id: string): string {
  // Only as many lines as the text shown can hold: a block of thousands of lines with an id on each
  // joined the whole block once per id.
  let last = from - 1;
  for (let chars = 0; last < to - 1 && chars <= 2 * BLOCK_TEXT_CHARS; last++)
    chars += (lines[last] as string).trim().length;
  const text = lines
    .slice(from - 1, last + 1)
    .join('\n')
    .replace(new RegExp(`[ \\t]*\\^${id}[ \\t]*$`, 'm'), '')
    .trim();
  return text.length > BLOCK_TEXT_CHARS ? `${text.slice(0, BLOCK_TEXT_CHARS - 1)}…` : text;
}

/** The block whose id is `id` (with or without `^`), compared ignoring case as Obsidian does. */
export function findBlock(text: string, id: string): OutlineBlock | null {
  const wanted = id.replace(/^\^/, '').toLowerCase();
  return outlineOf(text).blocks.find((b) => b.id.toLowerCase() === wanted) ?? null;
}

/**
 * The lines `[from, to]` a link's subpath points at in `text`, or null when nothing there matches:
 * a block by id (ignoring case), or a heading path `A#B` whose parts match headings in document
 * order, each deeper than the one before, compared after Obsidian's `stripHeading` and lower-casing.
 * A heading's lines run to the line before the next heading of the same or a higher level.
 */
export function subpathLines(
  text: string,
  subpath: { readonly heading: string | null; readonly block: string | null },
): [number, number] | null {
  if (subpath.block !== null) {
    const block = findBlock(text, subpath.block);
    return block === null ? null : [block.lines[0], block.lines[1]];
  }
  if (subpath.heading === null) return null;
  const parts = subpath.heading.split('#').filter((p) => p !== '');
  if (parts.length === 0) return null;
  const headings = findHeadings(text);
  const found = matchHeadingPath(headings, parts);
  if (found === null) return null;
  const next = headings.slice(found + 1).find((h) => h.level <= (headings[found] as Heading).level);
  const end = next === undefined ? lineCount(text) : next.line;
  return [(headings[found] as Heading).line + 1, Math.max(end, (headings[found] as Heading).line + 1)];
}

/** Index of the heading a `#A#B` path names (LNK-40), or null. */
function matchHeadingPath(headings: readonly Heading[], parts: readonly string[]): number | null {
  let matched = 0;
  let level = 0;
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i] as Heading;
    const part = parts[matched] as string;
    if (h.level > level && stripHeading(h.text).toLowerCase() === stripHeading(part).toLowerCase()) {
      matched++;
      level = h.level;
      if (matched === parts.length) return i;
    }
  }
  return null;
}

/** The 1-based lines `[from, to]` holding the text from offset `start` up to (not including) `end`. */
export function lineRange(text: string, start: number, end: number): [number, number] {
  const from = text.slice(0, start).split('\n').length;
  const last = Math.max(start, end - 1);
  const to = text.slice(0, last).split('\n').length;
  return [from, Math.max(from, to)];
}
