/**
 * What the index syncs at its next refresh (paths-to-sync.ts): the paths each watcher batch reports,
 * and the paths this process wrote itself, looked at again after every batch until the watcher has
 * reported them and the batch holding their event is surely behind, or for a longer while when it
 * never reports them (their event may have been netted out with a deletion).
 */
import { expect, it } from 'vitest';
import { CONFIRM_MS, GIVE_UP_MS, PathsToSync } from '../../../src/index/sync/paths-to-sync.js';

function clocked() {
  let now = 1_000_000;
  const paths = new PathsToSync(() => now);
  return {
    paths,
    advance: (ms: number) => {
      now += ms;
    },
    /** Delivers a batch and takes what a refresh would sync. */
    batch: (reported: string[]) => {
      paths.batch(reported);
      const taken = paths.take();
      return { all: [...taken.paths].sort(), again: [...taken.again].sort() };
    },
  };
}

it('a path written is looked at again after each batch, quietly, until reported and long enough ago', () => {
  const t = clocked();
  t.paths.wrote(['x.md']);
  expect(t.paths.size).toBe(0);
  expect(t.batch(['other.md'])).toEqual({ all: ['other.md', 'x.md'], again: ['x.md'] });
  // Reported: synced as any reported path, and still awaited while its batch may be just behind.
  expect(t.batch(['x.md'])).toEqual({ all: ['x.md'], again: [] });
  t.advance(CONFIRM_MS - 1);
  expect(t.batch([])).toEqual({ all: ['x.md'], again: ['x.md'] });
  t.advance(1);
  // The last look, then let go.
  expect(t.batch([])).toEqual({ all: ['x.md'], again: ['x.md'] });
  expect(t.batch([])).toEqual({ all: [], again: [] });
});

it('a path written and never reported is looked at again until it is given up', () => {
  const t = clocked();
  t.paths.wrote(['x.md']);
  t.advance(CONFIRM_MS * 2);
  expect(t.batch([]).all).toEqual(['x.md']);
  t.advance(GIVE_UP_MS);
  expect(t.batch([]).all).toEqual(['x.md']);
  expect(t.batch([]).all).toEqual([]);
});

it('written again: awaited anew; what could not be synced is put back as it was', () => {
  const t = clocked();
  t.paths.wrote(['x.md']);
  t.batch(['x.md']);
  t.advance(CONFIRM_MS);
  t.paths.wrote(['x.md']);
  expect(t.batch([]).all).toEqual(['x.md']);
  expect(t.batch([]).all).toEqual(['x.md']);
  t.paths.batch(['y.md']);
  const taken = t.paths.take();
  expect(t.paths.size).toBe(0);
  t.paths.putBack(taken);
  const again = t.paths.take();
  expect([...again.paths].sort()).toEqual(['x.md', 'y.md']);
  expect([...again.again]).toEqual(['x.md']);
});
