/**
 * `vault.write(name, text, { ifStill })`: a note is replaced only if it still holds the version the
 * change was computed from, looked at right before the rename. An editor takes no lock and may save
 * the note at any moment; its save must not be overwritten by a change made from the version before it
 * (regression: found by test/reliability/concurrency.test.ts, where about one direct save in six was
 * lost that way under load).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { TEMP_SUFFIX } from '../../src/vault/atomic-write.js';
import { etagOf } from '../../src/vault/etag.js';
import { Vault } from '../../src/vault/vault.js';
import { makeVault } from '../helpers/vault.js';

let base: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function open(files: Record<string, string>): { vault: Vault; abs: (name: string) => string } {
  const made = makeVault(files);
  base = made.base;
  const vault = Vault.open(made.dir);
  return { vault, abs: (name) => path.join(vault.root, name) };
}

/** Runs `save` once, when the new bytes have been synced (just before the rename would come). */
function saveDuringWrite(save: () => void): void {
  const fsync = fs.fsyncSync;
  let done = false;
  vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
    fsync(fd);
    if (!done) {
      done = true;
      save();
    }
  });
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

function temporaryFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith(TEMP_SUFFIX));
}

describe('vault.write with ifStill', () => {
  it('replaces the note when it still holds that version', () => {
    const { vault, abs } = open({ 'n.md': 'one\n' });
    const written = vault.write('n.md', 'two\n', { ifStill: etagOf('one\n') });
    expect(written.etag).toBe(etagOf('two\n'));
    expect(fs.readFileSync(abs('n.md'), 'utf8')).toBe('two\n');
  });

  it('keeps a save an editor made while the change was being written, and says conflict', () => {
    const { vault, abs } = open({ 'n.md': 'one\n' });
    saveDuringWrite(() => fs.writeFileSync(abs('n.md'), 'saved in an editor\n'));
    const err = thrown(() => vault.write('n.md', 'two\n', { ifStill: etagOf('one\n') }));
    expect(isNotedError(err) && err.code).toBe('conflict');
    expect(isNotedError(err) && err.details).toMatchObject({
      name: 'n.md',
      committed: false,
      changedOnDisk: true,
    });
    expect(fs.readFileSync(abs('n.md'), 'utf8')).toBe('saved in an editor\n');
    expect(temporaryFiles(vault.root)).toEqual([]);
  });

  it('does not bring back a note deleted meanwhile', () => {
    const { vault, abs } = open({ 'n.md': 'one\n' });
    saveDuringWrite(() => fs.rmSync(abs('n.md')));
    const err = thrown(() => vault.write('n.md', 'two\n', { ifStill: etagOf('one\n') }));
    expect(isNotedError(err) && err.code).toBe('conflict');
    expect(fs.existsSync(abs('n.md'))).toBe(false);
    expect(temporaryFiles(vault.root)).toEqual([]);
  });

  it('without ifStill, writes as before', () => {
    const { vault, abs } = open({ 'n.md': 'one\n' });
    saveDuringWrite(() => fs.writeFileSync(abs('n.md'), 'saved in an editor\n'));
    vault.write('n.md', 'two\n');
    expect(fs.readFileSync(abs('n.md'), 'utf8')).toBe('two\n');
  });
});
