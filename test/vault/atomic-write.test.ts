/**
 * Atomic writes (SPEC 1.6), one file or a batch: a target holds its old bytes or its new bytes, and a
 * failed batch changes no target and leaves no temporary file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileAtomic, TEMP_SUFFIX, writeFilesAtomic } from '../../src/vault/atomic-write.js';
import { makeVault } from '../helpers/vault.js';

let base: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function everyFile(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('writeFilesAtomic', () => {
  it('writes every file of a batch, creating folders, replacing existing files', () => {
    const made = makeVault({ 'a.md': 'old a', 'deep/b.md': 'old b' });
    base = made.base;
    writeFilesAtomic([
      { target: path.join(made.dir, 'a.md'), data: 'new a' },
      { target: path.join(made.dir, 'deep/b.md'), data: Buffer.from('new b') },
      { target: path.join(made.dir, 'new/folder/c.md'), data: 'c' },
    ]);
    expect(fs.readFileSync(path.join(made.dir, 'a.md'), 'utf8')).toBe('new a');
    expect(fs.readFileSync(path.join(made.dir, 'deep/b.md'), 'utf8')).toBe('new b');
    expect(fs.readFileSync(path.join(made.dir, 'new/folder/c.md'), 'utf8')).toBe('c');
    expect(everyFile(made.dir).filter((f) => f.endsWith(TEMP_SUFFIX))).toEqual([]);
  });

  it.each([
    ['the third write', 'writeFileSync', 2],
    ['the second fsync', 'fsyncSync', 1],
  ] as const)('a failure at %s changes no target and leaves no temporary file', (_what, fn, failAt) => {
    const made = makeVault({ 'a.md': 'old a', 'b.md': 'old b', 'c.md': 'old c' });
    base = made.base;
    const before = everyFile(made.dir);
    const real = fs[fn] as (...args: unknown[]) => unknown;
    let calls = 0;
    vi.spyOn(fs, fn).mockImplementation(((...args: unknown[]) => {
      if (calls++ === failAt)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return real(...args);
    }) as never);
    expect(() =>
      writeFilesAtomic(
        ['a', 'b', 'c'].map((n) => ({ target: path.join(made.dir, `${n}.md`), data: `new ${n}` })),
      ),
    ).toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(everyFile(made.dir)).toEqual(before);
    for (const n of ['a', 'b', 'c'])
      expect(fs.readFileSync(path.join(made.dir, `${n}.md`), 'utf8')).toBe(`old ${n}`);
  });
});

describe('createFileAtomic', () => {
  it.each([
    ['the write', 'writeFileSync'],
    ['the fsync', 'fsyncSync'],
  ] as const)('a full disk at %s creates nothing and leaves no temporary file', (_what, fn) => {
    // The temporary file used to stay behind (hidden by its dot-name, but never removed while the
    // server ran) when the disk filled up during a create_note.
    const made = makeVault({ 'a.md': 'a' });
    base = made.base;
    const before = everyFile(made.dir);
    vi.spyOn(fs, fn).mockImplementation((() => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    }) as never);
    expect(() => createFileAtomic(path.join(made.dir, 'new.md'), 'new')).toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(everyFile(made.dir)).toEqual(before);
  });
});
