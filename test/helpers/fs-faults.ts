/**
 * @module
 * Faults and races at `fs.openSync`, which the code calls through the module object, so a spy on it
 * sees every open. Undone by `vi.restoreAllMocks()`.
 */
import fs from 'node:fs';
import { vi } from 'vitest';

/**
 * Routes every `fs.openSync` through `around`: it gets the path and the real open (with the caller's
 * flags and mode) and returns the descriptor, or throws to make the open fail.
 *
 * @example
 * interceptOpen((file, open) => {
 *   if (file === target) swapFolderForLink();
 *   return open();
 * });
 */
export function interceptOpen(around: (file: fs.PathLike, open: () => number) => number): void {
  const realOpen = fs.openSync;
  vi.spyOn(fs, 'openSync').mockImplementation(((file: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) =>
    around(file, () => realOpen(file, flags as fs.OpenMode, mode))) as typeof fs.openSync);
}
