/**
 * A paragraph of thousands of lines, each ending in a block id (a note any agent can write): every id
 * names the paragraph up to its line, and the outline reads the paragraph a bounded number of times,
 * not once per id (each id walked back over the whole paragraph and joined it: 20,000 lines took
 * 25 s with every other client waiting). Counted in regex tests, not timed.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { outlineOf } from '../../src/markdown/outline.js';

afterEach(() => vi.restoreAllMocks());

it('a paragraph of 1,500 lines with an id on each is outlined in work linear in its lines', () => {
  const count = 1_500;
  const text = `${Array.from({ length: count }, (_, i) => `word ${i} ^b${i}`).join('\n')}\n`;
  const test = vi.spyOn(RegExp.prototype, 'test');
  const outline = outlineOf(text);
  const tests = test.mock.calls.length;
  test.mockRestore();
  expect(outline.blocks).toHaveLength(count);
  expect(outline.blocks[999]).toMatchObject({ id: 'b999', line: 1000, lines: [1, 1000] });
  expect(outline.blocks[999]?.text.startsWith('word 0 ^b0\nword 1 ^b1\n')).toBe(true);
  expect(outline.blocks[0]).toMatchObject({ id: 'b0', lines: [1, 1], text: 'word 0' });
  expect(tests).toBeLessThan(40 * count);
});
