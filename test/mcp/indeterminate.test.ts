/**
 * Outcome flags (SPEC 17.2, issue 32): a write whose outcome the server cannot know — the rename
 * landed, then the file system reported a failure — answers `indeterminate: true` with the etag to
 * compare, never `committed: false`.
 */
import fs from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await vault?.close();
  vault = undefined;
});

/** Renames onto a file ending `suffix` happen, then fail with EIO (as a network file system may). */
function renameLandsThenFails(suffix: string): void {
  const realRename = fs.renameSync;
  vi.spyOn(fs, 'renameSync').mockImplementation((from: fs.PathLike, to: fs.PathLike) => {
    realRename(from, to);
    if (String(to).endsWith(suffix)) {
      throw Object.assign(new Error(`EIO: i/o error, rename '${String(from)}' -> '${String(to)}'`), {
        code: 'EIO',
        errno: -5,
        syscall: 'rename',
      });
    }
  });
}

it('update_note whose rename landed but reported EIO: indeterminate with the etag to compare', async () => {
  vault = await openTestVault({ 'a.md': 'old\n' });
  renameLandsThenFails('a.md');
  const r = await vault.call('update_note', { name: 'a', content: 'new\n' });
  vi.restoreAllMocks();
  expect(r.isError).toBe(true);
  expect(r.structured.indeterminate).toBe(true);
  expect(r.structured.committed).toBeUndefined();
  expect(r.structured.etag).toBe(etagOf('new\n'));
  expect(r.text).toContain('The outcome is unknown');
  expect(r.text).not.toContain(vault.base);
  // The agent compares: the note has that etag, so the change was made.
  const read = await vault.call('read_note', { name: 'a' });
  expect(read.structured.etag).toBe(r.structured.etag);
});

it('a failure before anything was written is still committed: false', async () => {
  vault = await openTestVault({ 'a.md': 'old\n' });
  vi.spyOn(fs, 'renameSync').mockImplementation(() => {
    throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO', errno: -5, syscall: 'rename' });
  });
  const r = await vault.call('update_note', { name: 'a', content: 'new\n' });
  vi.restoreAllMocks();
  expect(r.structured.committed).toBe(false);
  expect(r.structured.indeterminate).toBeUndefined();
});
