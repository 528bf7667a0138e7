/**
 * A note's layout (note-layout.ts): the lines, blocks and sections it keeps are those the text check
 * reads (words/regions.ts), each line's words are those FTS5 counts, and stored bytes come back as
 * they went in — or not at all, when damaged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLayout, encodeLayout, layoutOf, layoutWords } from '../../../src/index/words/note-layout.js';
import { NoteRegions } from '../../../src/index/words/regions.js';
import { countWords } from '../../../src/index/words/words.js';

const PIECES = [
  'alpha',
  'beta gamma',
  '東京',
  'Café',
  '\n',
  '\n\n',
  '\n# Head\n',
  '\n## Sub\n',
  '\n- item',
  '\n> quote',
  '\n```\ncode inside\n```\n',
  '\n---\n',
  '\r\n',
  '   ',
  '\n1. first',
  '\n\n\n',
];
const note = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 30 }).map((p) => p.join(' ')),
  )
  .map(([front, body]) => (front ? `---\ntitle: x\ntags: [a]\n---\n${body}` : body));

describe('note layout', () => {
  it('keeps the lines, blocks and sections the text check reads, and each line’s words', () => {
    fc.assert(
      fc.property(note, (text) => {
        const layout = layoutOf(text);
        const regions = new NoteRegions(text);
        const lines = regions.lines();
        expect(layout.wordStart.length).toBe(lines.length + 1);
        lines.forEach((line, i) => {
          expect(layout.wordStart[i + 1]! - layout.wordStart[i]!).toBe(countWords(line.text));
          expect(i + 1 + layout.lineOffset).toBe(line.from);
        });
        const spans = (s: Uint32Array) =>
          Array.from({ length: s.length / 2 }, (_, i) => [
            s[i * 2]! + 1 + layout.lineOffset,
            s[i * 2 + 1]! + 1 + layout.lineOffset,
          ]);
        expect(spans(layout.blocks)).toEqual(regions.blocks().map((b) => [b.from, b.to]));
        expect(spans(layout.sections)).toEqual(regions.sections().map((s) => [s.from, s.to]));
        expect(layoutWords(layout)).toBe(countWords(regions.bodyText()));
        expect(decodeLayout(encodeLayout(layout))).toEqual(layout);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('reads back no layout from damaged or foreign bytes', () => {
    const bytes = encodeLayout(layoutOf('# A\n\nsome words here\n\n## B\nmore words\n'));
    expect(decodeLayout(bytes)).not.toBeNull();
    // Cut short, a byte too many, another format, a span past the last line.
    expect(decodeLayout(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(decodeLayout(Uint8Array.from([...bytes, 0]))).toBeNull();
    expect(decodeLayout(Uint8Array.from([2, ...bytes.subarray(1)]))).toBeNull();
    expect(decodeLayout(Uint8Array.from([1, 0, 1, 3, 1, 5, 0, 0]))).toBeNull();
    expect(decodeLayout(Uint8Array.from([1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toBeNull();
    expect(decodeLayout(new Uint8Array(0))).toBeNull();
  });

  it('takes about a byte per line', () => {
    const text = Array.from({ length: 500 }, (_, i) =>
      i % 10 === 0 ? `## Part ${i}` : `line ${i} with a few words`,
    ).join('\n');
    const bytes = encodeLayout(layoutOf(text));
    expect(bytes.length).toBeLessThan(500 * 2);
    expect(decodeLayout(bytes)?.wordStart.length).toBe(501);
  });
});
