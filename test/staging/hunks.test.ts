import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { applyHunks, hunksOf } from '../../src/staging/hunks.js';
import { wordDiff } from '../../src/staging/word-diff.js';

const BASE = ['# Plan', '', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', ''].join('\n');
const NEXT = ['# Plan', '', 'one', 'TWO', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', ''].join(
  '\n',
);

describe('hunksOf', () => {
  it('finds runs of changed lines, numbered from 1, with context and line numbers', () => {
    const hunks = hunksOf(BASE, NEXT);
    expect(hunks).toEqual([
      {
        index: 1,
        baseStart: 4,
        baseCount: 1,
        newStart: 4,
        newCount: 1,
        removed: ['two'],
        added: ['TWO'],
        before: ['# Plan', '', 'one'],
        after: ['three', 'four', 'five'],
        noNewlineAtEnd: { removed: false, added: false },
      },
      {
        index: 2,
        baseStart: 11,
        baseCount: 0,
        newStart: 11,
        newCount: 1,
        removed: [],
        added: ['nine'],
        before: ['six', 'seven', 'eight'],
        after: [],
        noNewlineAtEnd: { removed: false, added: false },
      },
    ]);
  });

  it('equal texts have no hunks', () => {
    expect(hunksOf(BASE, BASE)).toEqual([]);
    expect(hunksOf('', '')).toEqual([]);
  });

  it('does not merge neighbouring runs separated by one unchanged line', () => {
    const hunks = hunksOf('a\nb\nc\n', 'A\nb\nC\n');
    expect(hunks.map((h) => [h.removed, h.added])).toEqual([
      [['a'], ['A']],
      [['c'], ['C']],
    ]);
  });

  it('reports a missing final line break, and strips CRLF from shown lines', () => {
    const [hunk] = hunksOf('a\r\nb', 'a\r\nb\r\n');
    expect(hunk?.removed).toEqual(['b']);
    expect(hunk?.added).toEqual(['b']);
    expect(hunk?.noNewlineAtEnd).toEqual({ removed: true, added: false });
  });

  it('a change to an empty note is one hunk of added lines', () => {
    expect(hunksOf('', 'x\ny\n')).toMatchObject([{ baseStart: 1, baseCount: 0, added: ['x', 'y'] }]);
  });
});

describe('applyHunks', () => {
  it('applies only the kept hunks', () => {
    expect(applyHunks(BASE, NEXT, [1])).toBe(BASE.replace('two', 'TWO'));
    expect(applyHunks(BASE, NEXT, [2])).toBe(`${BASE}nine\n`);
    expect(applyHunks(BASE, NEXT, [2, 1, 2])).toBe(NEXT);
  });

  it('refuses a hunk number the change does not have', () => {
    try {
      applyHunks(BASE, NEXT, [1, 3]);
      expect.unreachable();
    } catch (error) {
      expect(isNotedError(error) && error.code).toBe('validation_error');
      expect((error as Error).message).toContain('There is no hunk 3: this change has 2 hunks (1–2)');
    }
    expect(() => applyHunks(BASE, NEXT, [0])).toThrow(/no hunk 0/);
  });

  // Texts built from few distinct lines, so the two sides share lines and hunks interleave.
  const line = fc.constantFrom('a', 'b', 'c', '', '  x', 'd\r', 'é');
  const text = fc
    .tuple(fc.array(line, { maxLength: 30 }), fc.constantFrom('', '\n', '\r\n'))
    .map(([lines, end]) => (lines.length === 0 ? '' : lines.join('\n') + end));

  it('property: keeping every hunk gives the new text, keeping none the base text', () => {
    fc.assert(
      fc.property(text, text, (base, next) => {
        const all = hunksOf(base, next).map((h) => h.index);
        expect(applyHunks(base, next, all)).toBe(next);
        expect(applyHunks(base, next, [])).toBe(base);
      }),
      { numRuns: 500 },
    );
  });

  it('property: any kept subset leaves exactly the other hunks as the remaining difference', () => {
    fc.assert(
      fc.property(text, text, fc.array(fc.boolean(), { maxLength: 40 }), (base, next, picks) => {
        const hunks = hunksOf(base, next);
        const keep = hunks.filter((_, i) => picks[i] === true).map((h) => h.index);
        const middle = applyHunks(base, next, keep);
        // Every line the result holds comes from one side or the other, and the line counts add up.
        const lines = (t: string) => (t.match(/[^\n]*\n|[^\n]+$/g) ?? []).length;
        const expected =
          lines(base) +
          hunks.filter((h) => keep.includes(h.index)).reduce((n, h) => n + h.newCount - h.baseCount, 0);
        expect(lines(middle)).toBe(expected);
        // Applying the rest on top of the partial result reaches the new text.
        const rest = hunksOf(middle, next).map((h) => h.index);
        expect(applyHunks(middle, next, rest)).toBe(next);
      }),
      { numRuns: 300 },
    );
  });

  it('a rewrite past MAX_EDITS becomes one hunk, quickly and still exact', () => {
    const base = Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n');
    const next = Array.from({ length: 30_000 }, (_, i) => `row ${i * 7}`).join('\n');
    const hunks = hunksOf(base, next);
    // Past MAX_EDITS the whole changed middle is one hunk rather than a slow, exact diff.
    expect(hunks).toHaveLength(1);
    expect(
      applyHunks(
        base,
        next,
        hunks.map((h) => h.index),
      ),
    ).toBe(next);
    expect(applyHunks(base, next, [])).toBe(base);
  });
});

describe('wordDiff', () => {
  it('marks the changed words and puts both texts back together', () => {
    const pieces = wordDiff('the quick brown fox', 'the slow brown fox!');
    expect(pieces).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'removed', text: 'quick' },
      { kind: 'added', text: 'slow' },
      { kind: 'same', text: ' brown fox' },
      { kind: 'added', text: '!' },
    ]);
  });

  it('property: same+removed pieces give the old text, same+added the new one', () => {
    const words = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '.', 'ab', '  '), { maxLength: 30 });
    fc.assert(
      fc.property(words, words, (a, b) => {
        const before = a.join('');
        const after = b.join('');
        const pieces = wordDiff(before, after);
        expect(
          pieces
            .filter((p) => p.kind !== 'added')
            .map((p) => p.text)
            .join(''),
        ).toBe(before);
        expect(
          pieces
            .filter((p) => p.kind !== 'removed')
            .map((p) => p.text)
            .join(''),
        ).toBe(after);
      }),
      { numRuns: 300 },
    );
  });
});
