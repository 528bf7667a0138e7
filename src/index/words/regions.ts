/**
 * @module
 * The parts of a note the scope operators look inside, found in one pass over the note's text: its
 * lines (`line:`), its blocks (`block:`: a paragraph, a list, a quote — runs of lines between blank
 * lines, where a list or quote starting under a paragraph starts a new block — while a heading, a
 * thematic break and a whole fenced code block each stand alone), and its sections (`section:`: from a
 * heading to the next heading of any level, as Obsidian's search reads them, OBSIDIAN.md HDG-05 #2;
 * the text before the first heading is a section too). Only the body counts: the frontmatter is
 * searched as properties. Line numbers are 1-based in the whole file, as list_tasks and read_note give
 * them.
 */
import { splitFrontmatter } from '../../markdown/frontmatter/frontmatter.js';
import { headingsOfLines } from '../../markdown/headings.js';
import { type Line, splitLines } from '../../markdown/lines.js';

/** One part of a note: its text and the lines it spans in the file (1-based, inclusive). */
export interface Region {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  /** Where its text starts and ends in the body, for a part of the body (not for a task). */
  readonly start?: number;
  readonly end?: number;
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** A line that opens a list item or a quote: either interrupts a paragraph and starts a block of its own kind. */
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const QUOTE = /^ {0,3}>/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** A note's body split into lines, blocks and sections, each worked out the first time it is asked for. */
export class NoteRegions {
  private readonly body: string;
  /** Lines before the body (the frontmatter's), so body line i is file line i + 1 + lineOffset. */
  readonly lineOffset: number;
  private rawLines: Line[] | undefined;
  private lineList: Region[] | undefined;
  private blockList: Region[] | undefined;
  private sectionList: Region[] | undefined;

  constructor(text: string) {
    const { raw, body } = splitFrontmatter(text);
    this.body = body;
    this.lineOffset = raw === '' ? 0 : raw.split('\n').length - 1;
  }

  /** The body, the text terms of a note are looked for in. */
  bodyText(): string {
    return this.body;
  }

  /** The body's lines, as splitLines gives them. */
  bodyLines(): readonly Line[] {
    return this.linesOfBody();
  }

  private linesOfBody(): Line[] {
    this.rawLines ??= splitLines(this.body);
    return this.rawLines;
  }

  lines(): readonly Region[] {
    this.lineList ??= this.linesOfBody().map((l) => ({
      text: l.text,
      from: l.index + 1 + this.lineOffset,
      to: l.index + 1 + this.lineOffset,
      start: l.start,
      end: l.end,
    }));
    return this.lineList;
  }

  blocks(): readonly Region[] {
    this.blockList ??= this.regionsOf(this.blockSpans());
    return this.blockList;
  }

  sections(): readonly Region[] {
    this.sectionList ??= this.regionsOf(this.sectionSpans());
    return this.sectionList;
  }

  private regionsOf(spans: readonly number[]): Region[] {
    const out: Region[] = [];
    for (let i = 0; i < spans.length; i += 2) out.push(this.span(spans[i]!, spans[i + 1]!));
    return out;
  }

  /** Each block's first and last body line (0-based), flat: [first, last, first, last, …]. */
  blockSpans(): number[] {
    const out: number[] = [];
    const lines = this.linesOfBody();
    let first = -1;
    let kind: 'paragraph' | 'list' | 'quote' = 'paragraph';
    const close = (last: number) => {
      if (first !== -1) out.push(first, last);
      first = -1;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.inCode) {
        // A fence and everything up to its closing fence is one block, blank lines included.
        close(i - 1);
        let j = i;
        while (j + 1 < lines.length && lines[j + 1]!.inCode && !opensFence(lines, j + 1)) j++;
        out.push(i, j);
        i = j;
      } else if (isBlank(line.text)) {
        close(i - 1);
      } else if (ATX_HEADING.test(line.text) || THEMATIC_BREAK.test(line.text)) {
        close(i - 1);
        out.push(i, i);
      } else {
        // A list item or a quote interrupts a paragraph (CommonMark), so it starts a block of its own;
        // a line with no marker continues whatever block it follows.
        const starts = LIST_ITEM.test(line.text) ? 'list' : QUOTE.test(line.text) ? 'quote' : null;
        if (first !== -1 && starts !== null && starts !== kind) close(i - 1);
        if (first === -1) {
          first = i;
          kind = starts ?? 'paragraph';
        }
      }
    }
    close(lines.length - 1);
    return out;
  }

  /** Each section's first and last body line (0-based), flat as {@link blockSpans} gives blocks. */
  sectionSpans(): number[] {
    const lines = this.linesOfBody();
    const headingLines = headingsOfLines(lines, 0, 0).map((h) => h.line);
    const starts = [0, ...headingLines.filter((l) => l > 0)];
    const out: number[] = [];
    starts.forEach((start, k) => {
      let end = (k + 1 < starts.length ? starts[k + 1]! : lines.length) - 1;
      // Blank lines at a section's end belong to no one: its lines end with its last text.
      while (end > start && isBlank(lines[end]!.text)) end--;
      if (end < start) return;
      // The part before the first heading counts only when it holds something.
      if (k === 0 && headingLines[0] !== 0 && lines.slice(start, end + 1).every((l) => isBlank(l.text)))
        return;
      out.push(start, end);
    });
    return out;
  }

  /** Body lines `first..last` (0-based) as a region of the file. */
  span(first: number, last: number): Region {
    const lines = this.linesOfBody();
    const start = lines[first]!.start;
    const end = lines[last]!.end;
    return {
      text: this.body.slice(start, end),
      from: first + 1 + this.lineOffset,
      to: last + 1 + this.lineOffset,
      start,
      end,
    };
  }

  /** File lines `from..to` clipped to the body, as one region (null when none of them is body). */
  clip(from: number, to: number): Region | null {
    const lines = this.linesOfBody();
    const first = Math.max(0, from - 1 - this.lineOffset);
    const last = Math.min(lines.length - 1, to - 1 - this.lineOffset);
    return first > last ? null : this.span(first, last);
  }
}

/** A line of nothing but white space (what `trim` removes), tested without making the trimmed string. */
function isBlank(text: string): boolean {
  return !NON_BLANK.test(text);
}

const NON_BLANK = /\S/;

/** Whether body line `i` starts a new fence right after another block of code closed. */
function opensFence(lines: readonly Line[], i: number): boolean {
  const prev = lines[i - 1]!;
  // splitLines marks the closing fence as code; the line after a closing fence that is code again opened a new one.
  return prev.inCode && /^ {0,3}(`{3,}|~{3,})/.test(prev.text) && /^ {0,3}(`{3,}|~{3,})/.test(lines[i]!.text);
}
