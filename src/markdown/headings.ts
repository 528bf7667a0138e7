/**
 * @module
 * Headings as Obsidian reads them (OBSIDIAN.md HDG-01 to HDG-03): ATX and setext headings at the top
 * level of the body, never inside fenced code and never in the frontmatter.
 */

import { splitFrontmatter } from './frontmatter/frontmatter.js';
import { type Line, splitLines } from './lines.js';

export interface Heading {
  /** 1 to 6. */
  level: number;
  /** The heading text, trimmed, without an ATX closing `#` run; setext lines are joined by a space. */
  text: string;
  /** 0-based line number of the heading's first line in the text passed in. */
  line: number;
  /** Offset where the heading's first line starts. */
  start: number;
  /** Offset just after the heading: after its line break, or after the setext underline's line break. */
  contentStart: number;
}

const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const ATX_CLOSING = /[ \t]+#+[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const INDENTED_CODE = /^(?: {0,3}\t| {4})/;
/** Lines that open a container block; text following them lazily belongs to that container. */
const CONTAINER_START = /^ {0,3}(?:>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

/** What the previous line left open, which decides whether a `---`/`===` line underlines a heading. */
type Open = 'none' | 'paragraph' | 'container';

/**
 * Finds the headings of a note. A leading frontmatter block is skipped; lines and offsets refer to
 * the full `text`.
 *
 * Simplification: list and quote nesting is not tracked, so a line such as `  # x` that continues a
 * list item counts as a heading; a `---`/`===` line only underlines plain paragraph text, never a
 * list item, quote, heading or fence line.
 *
 * @example
 * findHeadings('# A\n```\n# no\n```\nB\n---\n').map((h) => [h.level, h.text]) // [[1, 'A'], [2, 'B']]
 */
export function findHeadings(text: string): Heading[] {
  const { raw, body } = splitFrontmatter(text);
  return headingsOfLines(splitLines(body), countLineBreaks(raw), raw.length);
}

/**
 * {@link findHeadings} over a body already split by `splitLines`: `lineOffset` lines and `bodyOffset`
 * characters stand before it in the note (its frontmatter), so lines and offsets refer to the note.
 */
export function headingsOfLines(lines: readonly Line[], lineOffset: number, bodyOffset: number): Heading[] {
  const out: Heading[] = [];
  let open: Open = 'none';
  let paragraphStart: Line | null = null;
  let paragraphText: string[] = [];

  for (const line of lines) {
    if (line.inCode) {
      open = 'none';
      continue;
    }
    const content = line.text;
    if (content.trim() === '') {
      open = 'none';
      continue;
    }
    const atx = ATX.exec(content);
    if (atx) {
      const heading = (atx[2] ?? '').replace(ATX_CLOSING, '').trim();
      out.push(makeHeading(atx[1]?.length ?? 1, heading, line, line, bodyOffset, lineOffset));
      open = 'none';
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(content);
    if (underline && open === 'paragraph' && paragraphStart) {
      const level = underline[1]?.startsWith('=') ? 1 : 2;
      out.push(makeHeading(level, paragraphText.join(' '), paragraphStart, line, bodyOffset, lineOffset));
      open = 'none';
      continue;
    }
    if (THEMATIC_BREAK.test(content)) {
      open = 'none';
      continue;
    }
    if (CONTAINER_START.test(content)) {
      open = 'container';
      continue;
    }
    if (open === 'paragraph' || open === 'container') {
      if (open === 'paragraph') paragraphText.push(content.trim());
      continue;
    }
    // Four spaces of indentation outside a paragraph start indented code, which holds no headings.
    if (INDENTED_CODE.test(content)) continue;
    open = 'paragraph';
    paragraphStart = line;
    paragraphText = [content.trim()];
  }
  return out;
}

function makeHeading(
  level: number,
  text: string,
  first: Line,
  last: Line,
  bodyOffset: number,
  lineOffset: number,
): Heading {
  return {
    level,
    text,
    line: first.index + lineOffset,
    start: first.start + bodyOffset,
    contentStart: last.next + bodyOffset,
  };
}

function countLineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
