/**
 * The parts of a note line:, block: and section: look inside (issue 26): lines, blocks and sections of
 * the body, with 1-based line numbers in the whole file.
 */
import { describe, expect, it } from 'vitest';
import { NoteRegions } from '../../../src/index/words/regions.js';

const spans = (regions: readonly { from: number; to: number }[]) => regions.map((r) => [r.from, r.to]);

describe('NoteRegions', () => {
  it('numbers lines in the file, frontmatter counted, and leaves the frontmatter out', () => {
    const r = new NoteRegions('---\ntags: [a]\n---\nfirst\nsecond\n');
    expect(r.lines().map((l) => [l.from, l.text])).toEqual([
      [4, 'first'],
      [5, 'second'],
      [6, ''],
    ]);
    expect(r.bodyText()).toBe('first\nsecond\n');
  });

  it('splits blocks at blank lines; a heading and a thematic break stand alone', () => {
    const r = new NoteRegions('# Title\npara one\nstill one\n\npara two\n***\nafter\n');
    expect(spans(r.blocks())).toEqual([
      [1, 1],
      [2, 3],
      [5, 5],
      [6, 6],
      [7, 7],
    ]);
    expect(r.blocks()[1]!.text).toBe('para one\nstill one');
  });

  it('keeps a fenced code block whole, blank lines and # lines inside it too', () => {
    const r = new NoteRegions('text\n```\ncode\n\n# not a heading\n```\nafter\n');
    expect(spans(r.blocks())).toEqual([
      [1, 1],
      [2, 6],
      [7, 7],
    ]);
    expect(spans(r.sections())).toEqual([[1, 7]]);
  });

  it('starts a block where a list or quote interrupts a paragraph; items and lazy lines stay in the list', () => {
    const r = new NoteRegions('para\n- item one\n- item two\n  more of two\n> quote\n> more\n');
    expect(spans(r.blocks())).toEqual([
      [1, 1],
      [2, 4],
      [5, 6],
    ]);
  });

  it('makes sections from each heading of any level to the next, and of the text before the first', () => {
    const r = new NoteRegions('intro\n\n# A\na text\n## B\nb text\n\n### C\n');
    expect(spans(r.sections())).toEqual([
      [1, 1],
      [3, 4],
      [5, 6],
      [8, 8],
    ]);
  });

  it('has no section before a first heading on the first line, nor for blank lines before it', () => {
    expect(spans(new NoteRegions('# A\ntext\n').sections())).toEqual([[1, 2]]);
    expect(spans(new NoteRegions('\n\n# A\ntext\n').sections())).toEqual([[3, 4]]);
  });

  it('clips file lines to the body', () => {
    const r = new NoteRegions('---\na: 1\n---\nx\ny\nz\n');
    expect(r.clip(1, 5)).toEqual({ text: 'x\ny', from: 4, to: 5, start: 0, end: 3 });
    expect(r.clip(1, 3)).toBeNull();
  });

  it('reads a 5 MB note in one pass', () => {
    const text = 'word word\n\n'.repeat(450_000);
    const r = new NoteRegions(text);
    expect(r.lines().length).toBe(900_001);
    expect(r.blocks().length).toBe(450_000);
    expect(r.sections().length).toBe(1);
  });
});
