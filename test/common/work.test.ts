/**
 * The Work handle long calls take (common/work.ts): reports go where the adapter said, a checkpoint
 * lets other work run once a slice has passed, and throws Cancelled once the call was cancelled.
 */
import { describe, expect, it } from 'vitest';
import { Cancelled, createWork, isCancelled, quiet } from '../../src/common/work.js';

describe('Work', () => {
  it('passes reports on, and a quiet copy keeps them to itself', () => {
    const seen: unknown[] = [];
    const work = createWork({ onProgress: (...report) => seen.push(report) });
    work.report(1, 4, 'one');
    quiet(work).report(2, 4, 'two');
    work.report(3, undefined, undefined);
    expect(seen).toEqual([
      [1, 4, 'one'],
      [3, undefined, undefined],
    ]);
  });

  it('a checkpoint lets waiting callbacks run once the slice is over, and not before', async () => {
    const slow = createWork({ sliceMs: 60_000 });
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await slow.checkpoint();
    expect(ran).toBe(false);
    const eager = createWork({ sliceMs: 0 });
    await eager.checkpoint();
    expect(ran).toBe(true);
  });

  it('throws Cancelled at the first checkpoint after the signal, with its reason', async () => {
    const controller = new AbortController();
    const work = createWork({ signal: controller.signal });
    await work.checkpoint();
    expect(work.cancelled).toBe(false);
    controller.abort('the user pressed stop');
    expect(work.cancelled).toBe(true);
    const err = await work.checkpoint().catch((e: unknown) => e);
    expect(isCancelled(err)).toBe(true);
    expect((err as Cancelled).message).toBe('The call was cancelled: the user pressed stop.');
    // Through a quiet copy as well.
    await expect(quiet(work).checkpoint()).rejects.toBeInstanceOf(Cancelled);
  });

  it('an abort without a reason says only that the call was cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await createWork({ signal: controller.signal })
      .checkpoint()
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('The call was cancelled.');
  });
});
