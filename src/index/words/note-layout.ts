/**
 * @module
 * A note's layout as the index keeps it (table `note_layout`): where each body line starts, counted in
 * the words of the full-text index (words/words.ts), and which lines make up each block and each section
 * (words/regions.ts defines them). With it, the positions FTS5 keeps for each word place a match in
 * its line, block and section without reading the note (search/check/positions.ts). Kept for Markdown notes;
 * an HTML note is searched in its Markdown rendition, whose lines name no place in the file.
 */

import { NoteRegions } from './regions.js';
import { countWords } from './words.js';

export interface NoteLayout {
  /** Lines before the body (the frontmatter's): body line i is file line i + 1 + lineOffset. */
  readonly lineOffset: number;
  /** Where body line i starts, in words; one more entry than lines: the last is the body's words. */
  readonly wordStart: Uint32Array;
  /** Each block's first and last body line, flat: [first, last, first, last, …]. */
  readonly blocks: Uint32Array;
  /** Each section's first and last body line, flat as blocks are. */
  readonly sections: Uint32Array;
}

/** Format of the stored layout; a stored layout of another format is not read. */
const VERSION = 1;

/** The layout of a Markdown note's text. */
export function layoutOf(text: string): NoteLayout {
  const regions = new NoteRegions(text);
  const body = regions.bodyText();
  const lines = regions.bodyLines();
  const wordStart = new Uint32Array(lines.length + 1);
  // A line break is no word character: each line's words are counted on their own.
  for (let i = 0; i < lines.length; i++) {
    wordStart[i + 1] = wordStart[i]! + countWords(body, lines[i]!.start, lines[i]!.end);
  }
  return {
    lineOffset: regions.lineOffset,
    wordStart,
    blocks: Uint32Array.from(regions.blockSpans()),
    sections: Uint32Array.from(regions.sectionSpans()),
  };
}

/** The words of the body (what the index's `body` column counts). */
export function layoutWords(layout: NoteLayout): number {
  return layout.wordStart[layout.wordStart.length - 1] ?? 0;
}

/**
 * The layout as bytes: unsigned LEB128 numbers — the format, the line offset, the number of lines and
 * each line's words, then for blocks and for sections their number and, for each, the lines skipped
 * since the last one ended and the lines it spans after its first. About a byte per line.
 */
export function encodeLayout(layout: NoteLayout): Uint8Array {
  const out: number[] = [];
  const put = (n: number): void => {
    let v = n;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  };
  put(VERSION);
  put(layout.lineOffset);
  const lines = layout.wordStart.length - 1;
  put(lines);
  for (let i = 0; i < lines; i++) put(layout.wordStart[i + 1]! - layout.wordStart[i]!);
  for (const spans of [layout.blocks, layout.sections]) {
    put(spans.length / 2);
    let next = 0;
    for (let i = 0; i < spans.length; i += 2) {
      put(spans[i]! - next);
      put(spans[i + 1]! - spans[i]!);
      next = spans[i + 1]! + 1;
    }
  }
  return Uint8Array.from(out);
}

/** A stored layout, or null when it is not one this code wrote (another format, or damaged). */
export function decodeLayout(bytes: Uint8Array): NoteLayout | null {
  let at = 0;
  const get = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new RangeError('layout ends early');
      const b = bytes[at++]!;
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 35) throw new RangeError('layout number too long');
    }
  };
  try {
    if (get() !== VERSION) return null;
    const lineOffset = get();
    const lines = get();
    if (lines > bytes.length) return null;
    const wordStart = new Uint32Array(lines + 1);
    for (let i = 0; i < lines; i++) wordStart[i + 1] = wordStart[i]! + get();
    const spans = (): Uint32Array => {
      const count = get();
      if (count > lines) throw new RangeError('more spans than lines');
      const out = new Uint32Array(count * 2);
      let next = 0;
      for (let i = 0; i < out.length; i += 2) {
        out[i] = next + get();
        out[i + 1] = out[i]! + get();
        if (out[i + 1]! >= lines) throw new RangeError('span past the last line');
        next = out[i + 1]! + 1;
      }
      return out;
    };
    const blocks = spans();
    const sections = spans();
    return at === bytes.length ? { lineOffset, wordStart, blocks, sections } : null;
  } catch {
    return null;
  }
}
