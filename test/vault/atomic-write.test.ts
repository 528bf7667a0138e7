/**
 * Atomic writes (SPEC 1.6), one file or a batch: a target holds its old bytes or its new bytes, and a
 * failed batch changes no target and leaves no temporary file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileAtomic, TEMP_SUFFIX, writeFilesAtomic } from '../../src/vault/atomic-write.js';
import { makeVault, openTestVault } from '../helpers/vault.js';

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

describe('temporary files left by killed writers in the state folder', () => {
  it('are removed when the vault is opened; a live writer’s are kept, and so is everything else', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const orphan = (name: string) => `.${name}.${dead}-0123abcd${TEMP_SUFFIX}`;
    const live = `.blob.${process.pid}-0123abcd${TEMP_SUFFIX}`;
    const v = await openTestVault({
      'a.md': 'a\n',
      [`.noted/journal/blobs/${orphan('f00d')}`]: 'half a blob',
      [`.noted/journal/blobs/${live}`]: 'being written',
      [`.noted/pending/${orphan('p-1.json')}`]: '{',
      [`.noted/${orphan('config.json')}`]: '{',
      '.noted/pending/p-2.json': '{}',
    });
    try {
      const state = path.join(v.dir, '.noted');
      expect(fs.readdirSync(path.join(state, 'journal', 'blobs'))).toEqual([live]);
      expect(fs.readdirSync(path.join(state, 'pending')).filter((f) => f.endsWith(TEMP_SUFFIX))).toEqual([]);
      expect(fs.existsSync(path.join(state, 'pending', 'p-2.json'))).toBe(true);
      expect(fs.readdirSync(state).filter((f) => f.endsWith(TEMP_SUFFIX))).toEqual([]);
      expect(fs.readFileSync(path.join(v.dir, 'a.md'), 'utf8')).toBe('a\n');
    } finally {
      await v.close();
    }
  });
});
