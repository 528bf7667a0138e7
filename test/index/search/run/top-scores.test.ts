/**
 * The page a stepped search keeps as matches come (search/run/stepped.ts): thousands of equal scores
 * (template notes, empty daily notes) must not make every offer sort everything kept. Counted in sorts,
 * not timed: a prune at each offer past the threshold sorted all kept matches each time, quadratic.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { TopScores } from '../../../../src/index/search/run/stepped.js';

afterEach(() => vi.restoreAllMocks());

it('20,000 equal scores are kept with a few dozen sorts, not one per match', () => {
  const sort = vi.spyOn(Array.prototype, 'sort');
  const kept = new TopScores(501, undefined);
  for (let id = 1; id <= 20_000; id++) kept.offer(id, 1.5);
  const sorts = sort.mock.calls.length;
  sort.mockRestore();
  expect(sorts).toBeLessThan(40);
  // Every tie is still there for time and path to order.
  expect(kept.best(20_000)).toHaveLength(20_000);
});

it('ties at the start of a later page are kept too, with as few sorts', () => {
  const sort = vi.spyOn(Array.prototype, 'sort');
  const kept = new TopScores(25, { s: 2, m: 0, p: 'a.md' });
  for (let id = 1; id <= 20_000; id++) kept.offer(id, id % 2 === 0 ? 2 : 3);
  const sorts = sort.mock.calls.length;
  sort.mockRestore();
  expect(sorts).toBeLessThan(40);
  expect(kept.best(20_000).every((k) => k.score === 2)).toBe(true);
  expect(kept.best(20_000)).toHaveLength(10_000);
});
