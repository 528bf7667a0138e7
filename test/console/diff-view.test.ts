import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffView,
  FIRST_LINES,
  FIRST_PAGE,
  hunkLines,
  lineCounts,
  markedLines,
} from '../../src/console/diff-view.js';

/**
 * The review view's lines (issue 20): numbered like a code review, the words taken out marked on the
 * removed line and the words put in on the added line, never mixed, and nothing lost or added.
 */
const text = (pieces: readonly { text: string }[]) => pieces.map((p) => p.text).join('');
const marked = (pieces: readonly { text: string; changed: boolean }[]) =>
  pieces.filter((p) => p.changed).map((p) => p.text);

describe('markedLines', () => {
  it('puts the removed words on the removed line and the added words on the added line', () => {
    const { removed, added } = markedLines(['the quick brown fox'], ['the slow red fox']);
    expect(removed).toEqual([
      [
        { text: 'the ', changed: false },
        { text: 'quick brown', changed: true },
        { text: ' fox', changed: false },
      ],
    ]);
    expect(added.map(marked)).toEqual([['slow red']]);
  });

  it('keeps each line whole and in place over several lines', () => {
    const { removed, added } = markedLines(
      ['one two', 'three four', 'five'],
      ['one 2', 'three four', 'five six', 'seven'],
    );
    expect(removed.map(text)).toEqual(['one two', 'three four', 'five']);
    expect(added.map(text)).toEqual(['one 2', 'three four', 'five six', 'seven']);
    expect(removed.map(marked)).toEqual([['two'], [], []]);
    expect(added.map(marked)).toEqual([['2'], [], [' six'], []]);
  });

  it('shows a line that changed nearly everywhere without marks, rather than as confetti', () => {
    const { removed, added } = markedLines(
      ['the cat sat on the mat today'],
      ['a dog lay on a rug yesterday'],
    );
    expect(removed[0]).toEqual([{ text: 'the cat sat on the mat today', changed: false }]);
    expect(added[0]).toEqual([{ text: 'a dog lay on a rug yesterday', changed: false }]);
  });

  it('marks nothing when one side is empty', () => {
    expect(markedLines([], ['new line'])).toEqual({
      removed: [],
      added: [[{ text: 'new line', changed: false }]],
    });
  });

  it('gives back every line exactly, whatever the lines (property)', () => {
    const line = fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ' '));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.array(line, { maxLength: 6 }), (a, b) => {
        const { removed, added } = markedLines(a, b);
        expect(removed.map(text)).toEqual(a);
        expect(added.map(text)).toEqual(b);
      }),
    );
  });
});

describe('diffView', () => {
  it('numbers the lines of each hunk on both sides', () => {
    const view = diffView('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(view.kind).toBe('update');
    if (view.kind !== 'update') return;
    expect(view.baseLines).toBe(4);
    expect(view.hunks.map((h) => h.lines.map((l) => [l.kind, l.old, l.new]))).toEqual([
      [
        ['context', 1, 1],
        ['removed', 2, null],
        ['added', null, 2],
        ['context', 3, 3],
        ['context', 4, 4],
      ],
      [
        ['context', 3, 3],
        ['context', 4, 4],
        ['added', null, 5],
      ],
    ]);
  });

  it('sends the first lines of a new note and says how many there are', () => {
    const long = Array.from({ length: FIRST_LINES + 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const view = diffView(null, long, FIRST_PAGE);
    expect(view).toMatchObject({ kind: 'create', totalLines: FIRST_LINES + 10 });
    if (view.kind !== 'create') return;
    expect(view.lines).toHaveLength(FIRST_LINES);
    expect(view.lines[0]).toEqual({
      kind: 'added',
      old: null,
      new: 1,
      pieces: [{ text: 'line 1', changed: false }],
    });
  });

  it('counts added and removed lines as the hunks do', () => {
    expect(lineCounts('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n')).toEqual({ added: 2, removed: 1 });
    expect(lineCounts(null, 'x\ny')).toEqual({ added: 2, removed: 0 });
    expect(lineCounts('x\n', null)).toEqual({ added: 0, removed: 1 });
  });
});

describe('diffView paged (issue 30.1)', () => {
  const numbered = (n: number, word: string) =>
    `${Array.from({ length: n }, (_, i) => `line ${i + 1} ${word}`).join('\n')}\n`;

  it('sends both sides of a long hunk first, and every line of it exactly once, in order, through hunkLines', () => {
    const before = numbered(1500, 'old');
    const after = numbered(1500, 'new');
    const view = diffView(before, after, FIRST_PAGE);
    if (view.kind !== 'update') throw new Error('not an update');
    const [hunk] = view.hunks;
    expect(view.hunkCount).toBe(1);
    expect(hunk?.totalLines).toBe(3000);
    expect(hunk?.lines.some((l) => l.kind === 'added')).toBe(true);
    expect(hunk?.lines.some((l) => l.kind === 'removed')).toBe(true);
    const all = [];
    for (let from = 1; from <= 3000; from += 700)
      all.push(...(hunkLines(before, after, 1, from, 700)?.lines ?? []));
    expect(all.map((l) => l.kind === 'context')).not.toContain(true);
    expect(all.filter((l) => l.kind === 'removed').map((l) => l.old)).toEqual(
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    expect(all.filter((l) => l.kind === 'added').map((l) => l.new)).toEqual(
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    expect(
      all
        .find((l) => l.new === 1500)
        ?.pieces.map((p) => p.text)
        .join(''),
    ).toBe('line 1500 new');
  });

  it('sends the first hunks of a change of many and says how many there are', () => {
    const before = numbered(500, 'same');
    const after = before
      .split('\n')
      .map((l, i) => (i % 5 === 2 ? l.replace('same', 'changed') : l))
      .join('\n');
    const view = diffView(before, after, FIRST_PAGE);
    if (view.kind !== 'update') throw new Error('not an update');
    expect(view.hunkCount).toBe(100);
    expect(view.hunks.length).toBeLessThan(100);
    expect(view.hunks.map((h) => h.index)).toEqual(view.hunks.map((_, i) => i + 1));
    const rest = diffView(before, after, { from: view.hunks.length + 1, count: 200, lines: 5000 });
    if (rest.kind !== 'update') throw new Error('not an update');
    expect(rest.hunks.map((h) => h.index)[0]).toBe(view.hunks.length + 1);
    expect(rest.hunks.at(-1)?.index).toBe(100);
  });
});
