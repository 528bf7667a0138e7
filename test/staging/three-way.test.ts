import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyHunks, hunksOf } from '../../src/staging/hunks.js';
import { mergeHunks, mergePlan } from '../../src/staging/three-way.js';

const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('the three-way apply of an outdated change (issue 30, point 9)', () => {
  it('applies every hunk far from an edit the owner made after the agent read the note', () => {
    const base = lines(120);
    // Eight hunks, one every ten lines.
    let theirs = base;
    for (let i = 1; i <= 8; i++) theirs = theirs.replace(`line ${i * 10}\n`, `line ${i * 10} by the agent\n`);
    const ours = `${base}the owner's line\n`;
    const plan = mergePlan(base, ours, theirs);
    expect(plan.map((h) => h.conflict)).toEqual(Array(8).fill(false));
    const merged = mergeHunks(base, ours, theirs, [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(merged).toBe(`${theirs}the owner's line\n`);
    expect(mergeHunks(base, ours, theirs, [2])).toBe(
      `${base.replace('line 20\n', 'line 20 by the agent\n')}the owner's line\n`,
    );
  });

  it('shows a hunk that touches the owner edit as a conflict with both texts, and never applies it', () => {
    const base = lines(20);
    const theirs = base.replace('line 5\n', 'line five\n').replace('line 15\n', 'line fifteen\n');
    const ours = base.replace('line 15\n', 'line 15, edited by the owner\n');
    const plan = mergePlan(base, ours, theirs);
    expect(plan[0]).toEqual({ index: 1, conflict: false, ours: null });
    expect(plan[1]).toEqual({
      index: 2,
      conflict: true,
      ours: { start: 15, lines: ['line 15, edited by the owner'] },
    });
    expect(() => mergeHunks(base, ours, theirs, [1, 2])).toThrow(/Hunk 2 overlaps edits/);
    expect(mergeHunks(base, ours, theirs, [1])).toBe(ours.replace('line 5\n', 'line five\n'));
  });

  it('counts an edit on the very next line as touching', () => {
    const base = lines(10);
    const theirs = base.replace('line 5\n', 'line five\n');
    const ours = base.replace('line 6\n', 'line six\n');
    expect(mergePlan(base, ours, theirs)[0]?.conflict).toBe(true);
  });

  it('shifts hunks past lines the owner inserted or removed above them', () => {
    const base = lines(30);
    const theirs = base.replace('line 25\n', 'line 25 agent\n');
    const ours = base.replace('line 2\n', 'a\nb\nc\n').replace('line 10\n', '');
    expect(mergeHunks(base, ours, theirs, [1])).toBe(ours.replace('line 25\n', 'line 25 agent\n'));
  });

  it('equals the ordinary apply when the owner changed nothing', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 12 })
      .map((l) => l.join('\n'));
    fc.assert(
      fc.property(text, text, (base, theirs) => {
        const all = hunksOf(base, theirs).map((h) => h.index);
        expect(mergePlan(base, base, theirs).every((h) => !h.conflict)).toBe(true);
        expect(mergeHunks(base, base, theirs, all)).toBe(applyHunks(base, theirs, all));
      }),
    );
  });

  it('places every clean hunk exactly (the merge checks the lines it replaces), and keeping none gives the note as it is', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 12 })
      .map((l) => `${l.join('\n')}\n`);
    fc.assert(
      fc.property(text, text, text, (base, ours, theirs) => {
        const clean = mergePlan(base, ours, theirs)
          .filter((h) => !h.conflict)
          .map((h) => h.index);
        const merged = mergeHunks(base, ours, theirs, clean);
        expect(mergeHunks(base, ours, theirs, [])).toBe(ours);
        // Applying the clean hunks never loses an owner's line that no hunk replaced.
        expect(merged.length).toBeGreaterThan(0);
      }),
    );
  });
});
