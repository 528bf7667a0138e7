/**
 * Reading a note or an attachment (vault/vault.ts `read`/`readFile`, vault/confine.ts `readChecked`):
 * the size, times and bytes come from the one file opened, and a read never returns a file that is
 * out of sight by the time it is opened — a folder on the way swapped for a link to elsewhere between
 * the name's resolution and the open (simulated by doing the swap inside `fs.openSync`), or a note
 * moved into the trash as it is read. Nothing leaks a descriptor.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { ANYWHERE } from '../../src/vault/checked-folder.js';
import { etagOf } from '../../src/vault/etag.js';
import { Vault } from '../../src/vault/vault.js';
import { interceptOpen } from '../helpers/fs-faults.js';

let base: string;
let dir: string;
let outside: string;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-read-')));
  dir = path.join(base, 'vault');
  outside = path.join(base, 'private');
  fs.mkdirSync(path.join(dir, 'inbox'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(dir, 'inbox', 'plan.md'), 'the plan\n');
  fs.writeFileSync(path.join(outside, 'plan.md'), 'private words\n');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

const onLinux = process.platform === 'linux';
const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;

/** Runs `swap` just before the open of `target`, as a concurrent change would land. */
function swapBeforeOpen(target: string, swap: () => void): void {
  interceptOpen((file, open) => {
    if (file === target) swap();
    return open();
  });
}

it('reads the bytes, etag, size and times of the file opened', () => {
  const vault = Vault.open(dir);
  const note = vault.read('inbox/plan.md', ANYWHERE);
  const st = fs.statSync(path.join(dir, 'inbox', 'plan.md'));
  expect(note).toMatchObject({ name: 'inbox/plan.md', text: 'the plan\n', size: 9, mtimeMs: st.mtimeMs });
  expect(note?.etag).toBe(etagOf(Buffer.from('the plan\n')));
  expect(vault.read('inbox/none.md', ANYWHERE)).toBeNull();
});

it.skipIf(!onLinux)(
  'a folder swapped for a link to outside after the name was resolved: nothing is read',
  () => {
    const vault = Vault.open(dir);
    swapBeforeOpen(path.join(dir, 'inbox', 'plan.md'), () => {
      fs.renameSync(path.join(dir, 'inbox'), path.join(dir, 'moved'));
      fs.symlinkSync(outside, path.join(dir, 'inbox'));
    });
    expect(vault.read('inbox/plan.md', ANYWHERE)).toBeNull();
    // The open did follow the new link: it is the check after it that kept the words out.
    expect(fs.readFileSync(path.join(dir, 'inbox', 'plan.md'), 'utf8')).toBe('private words\n');
  },
);

it('the note itself swapped for a link after the name was resolved: refused, nothing read', () => {
  const vault = Vault.open(dir);
  const note = path.join(dir, 'inbox', 'plan.md');
  swapBeforeOpen(note, () => {
    fs.rmSync(note);
    fs.symlinkSync(path.join(outside, 'plan.md'), note);
  });
  let error: unknown;
  try {
    vault.read('inbox/plan.md', ANYWHERE);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(NotedError);
  expect((error as NotedError).code).toBe('invalid_name');
  expect((error as NotedError).message).toMatch(
    /became a symbolic link.*while it was being read.*Nothing was read/,
  );
  expect((error as NotedError).details).toMatchObject({ reason: 'changed' });
});

it.skipIf(!onLinux)('a note moved into the trash as it is opened reads as gone', () => {
  const vault = Vault.open(dir);
  const note = path.join(dir, 'inbox', 'plan.md');
  const trashed = path.join(dir, '.noted', 'trash', 'x1', 'plan.md');
  fs.mkdirSync(path.dirname(trashed), { recursive: true });
  interceptOpen((file, open) => {
    const fd = open();
    if (file === note) fs.renameSync(note, trashed);
    return fd;
  });
  expect(vault.read('inbox/plan.md', ANYWHERE)).toBeNull();
});

it.skipIf(!onLinux)('a FIFO or a folder with a note name reads as no note, at once', () => {
  const vault = Vault.open(dir);
  execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
  fs.mkdirSync(path.join(dir, 'folder.md'));
  const started = Date.now();
  expect(vault.read('pipe.md', ANYWHERE)).toBeNull();
  expect(vault.read('folder.md', ANYWHERE)).toBeNull();
  expect(Date.now() - started).toBeLessThan(5000);
});

it.skipIf(!onLinux)('no path leaves a descriptor open', () => {
  const vault = Vault.open(dir);
  execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
  fs.mkdirSync(path.join(dir, 'folder.md'));
  fs.symlinkSync(path.join(outside, 'plan.md'), path.join(dir, 'leak.md'));
  const before = openDescriptors();
  for (let i = 0; i < 50; i++) {
    vault.read('inbox/plan.md', ANYWHERE);
    vault.read('inbox/none.md', ANYWHERE);
    vault.read('pipe.md', ANYWHERE);
    vault.read('folder.md', ANYWHERE);
    expect(() => vault.read('leak.md', ANYWHERE)).toThrow(/outside the vault/);
  }
  swapBeforeOpen(path.join(dir, 'inbox', 'plan.md'), () => {
    fs.renameSync(path.join(dir, 'inbox'), path.join(dir, 'moved'));
    fs.symlinkSync(outside, path.join(dir, 'inbox'));
  });
  expect(vault.read('inbox/plan.md', ANYWHERE)).toBeNull();
  expect(openDescriptors()).toBe(before);
});

it.skipIf(!onLinux)(
  'readFile, for attachments: the same check, and a refusal from the stat reads nothing',
  () => {
    const vault = Vault.open(dir);
    fs.writeFileSync(path.join(dir, 'inbox', 'photo.png'), Buffer.from([1, 2, 3]));
    fs.writeFileSync(path.join(outside, 'photo.png'), Buffer.from('private image'));
    expect(vault.readFile('inbox/photo.png', ANYWHERE)?.bytes).toEqual(Buffer.from([1, 2, 3]));
    const before = openDescriptors();
    const realRead = fs.readFileSync;
    const reads = vi.spyOn(fs, 'readFileSync').mockImplementation(realRead);
    expect(() =>
      vault.readFile('inbox/photo.png', ANYWHERE, (stat) => {
        throw new Error(`too large: ${stat.size}`);
      }),
    ).toThrow('too large: 3');
    expect(reads).not.toHaveBeenCalled();
    swapBeforeOpen(path.join(dir, 'inbox', 'photo.png'), () => {
      fs.renameSync(path.join(dir, 'inbox'), path.join(dir, 'moved'));
      fs.symlinkSync(outside, path.join(dir, 'inbox'));
    });
    expect(vault.readFile('inbox/photo.png', ANYWHERE)).toBeNull();
    expect(openDescriptors()).toBe(before);
  },
);
