/**
 * Cross-process lock files (vault/locks.ts): a lock file exists only with its holder's pid in it, so
 * a holder that dies at any moment leaves either nothing or a lock that is judged stale at once.
 * Regression (issue 10, found by the SIGKILL test): a server killed between creating the lock file and
 * writing its pid left an empty lock; the next server waited 10 s for it and answered `busy`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { LockDir } from '../../src/vault/locks.js';

let dir: string;
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function lockDir(): LockDir {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-locks-'));
  return new LockDir(path.join(dir, 'locks'));
}

const holderName = `holder.${process.pid}-0.tmp`;

it('while held, the lock file names its holder; afterwards only the holder file is left', () => {
  const locks = lockDir();
  const seen = locks.withLockSync('note:a.md', () => fs.readFileSync(locks.pathFor('note:a.md'), 'utf8'));
  expect(seen).toBe(String(process.pid));
  expect(fs.readdirSync(path.join(dir, 'locks'))).toEqual([holderName]);
});

it('many locks share one holder file: no file is created per lock', () => {
  const locks = lockDir();
  const keys = Array.from({ length: 50 }, (_, i) => `note:n${i}.md`);
  const nest = (i: number): number =>
    i === keys.length
      ? fs.readdirSync(path.join(dir, 'locks')).length
      : locks.withLockSync(keys[i] as string, () => nest(i + 1));
  expect(nest(0)).toBe(51);
  const holder = fs.statSync(path.join(dir, 'locks', holderName));
  expect(holder.nlink).toBe(1);
  expect(fs.readdirSync(path.join(dir, 'locks'))).toEqual([holderName]);
});

it('a live holder that has taken no lock for 15 s is judged hung, and its lock is taken over', () => {
  const locks = lockDir();
  const file = locks.pathFor('note:a.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, String(process.pid));
  const old = new Date(Date.now() - 16_000);
  fs.utimesSync(file, old, old);
  expect(locks.withLockSync('note:a.md', () => 'taken', { timeoutMs: 500 })).toBe('taken');
  // The same lock, fresh, is waited for: the 500 ms run out and the answer is busy.
  fs.writeFileSync(file, String(process.pid));
  expect(() => locks.withLockSync('note:a.md', () => 'never', { timeoutMs: 300 })).toThrow(/did not let go/);
});

it('a holder file removed under a running process is made again', () => {
  const locks = lockDir();
  locks.withLockSync('note:a.md', () => undefined);
  fs.rmSync(path.join(dir, 'locks', holderName));
  expect(locks.withLockSync('note:b.md', () => 'taken', { timeoutMs: 500 })).toBe('taken');
  expect(fs.readdirSync(path.join(dir, 'locks'))).toEqual([holderName]);
});

it('a writer stopped before its pid is written leaves no lock that blocks the next one', async () => {
  const locks = lockDir();
  // The moment a SIGKILL can land: after the file exists, before the pid is in it.
  const died = () => {
    throw Object.assign(new Error('killed'), { code: 'EIO' });
  };
  vi.spyOn(fs, 'writeSync').mockImplementationOnce(died);
  vi.spyOn(fs, 'writeFileSync').mockImplementationOnce(died);
  expect(() => locks.withLockSync('note:a.md', () => 'never')).toThrow('killed');
  vi.restoreAllMocks();

  const file = locks.pathFor('note:a.md');
  expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'absent').not.toBe('');
  // Well below the 15 s after which an unreadable lock is taken over.
  expect(locks.withLockSync('note:a.md', () => 'taken', { timeoutMs: 500 })).toBe('taken');
  await expect(locks.withLock('note:a.md', () => 'taken again', { timeoutMs: 500 })).resolves.toBe(
    'taken again',
  );
});

it('a lock whose holder is gone is taken over at once', () => {
  const locks = lockDir();
  const file = locks.pathFor('note:a.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Pid 2^22 + 1 is above Linux's pid_max limit: no process has it.
  fs.writeFileSync(file, `${4_194_305} ${Date.now()}`);
  expect(locks.withLockSync('note:a.md', () => 'taken', { timeoutMs: 500 })).toBe('taken');
});

it('a live holder is waited for, then the lock is taken', async () => {
  const locks = lockDir();
  const file = locks.pathFor('note:a.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${process.pid} ${Date.now()}`);
  setTimeout(() => fs.rmSync(file), 100);
  await expect(locks.withLock('note:a.md', () => 'after the holder', { timeoutMs: 5_000 })).resolves.toBe(
    'after the holder',
  );
});

it('a full disk when taking the lock is a typed error, and leaves no file behind', async () => {
  // Found by the hostile-files test (issue 10): on a full disk the lock's temporary file could not be
  // written; the raw ENOSPC reached the agent as a protocol failure, and the empty file stayed.
  const locks = lockDir();
  const real = fs.writeFileSync;
  vi.spyOn(fs, 'writeFileSync').mockImplementation(((file: fs.PathOrFileDescriptor) => {
    real(file, ''); // the file is created, then the disk is full
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
  }) as typeof fs.writeFileSync);
  const run = vi.fn(() => 'never');
  await expect(locks.withLock('note:a.md', run)).rejects.toMatchObject({
    code: 'not_supported',
    message: expect.stringMatching(
      /A lock could not be taken .*the disk is full, ENOSPC.*nothing was written/,
    ),
    details: { errno: 'ENOSPC', committed: false },
  });
  expect(() => locks.withLockSync('vault:journal', run)).toThrow(/the disk is full/);
  vi.restoreAllMocks();
  expect(run).not.toHaveBeenCalled();
  expect(fs.readdirSync(path.join(dir, 'locks'))).toEqual([]);
  expect(locks.withLockSync('note:a.md', () => 'after the disk has room again')).toBe(
    'after the disk has room again',
  );
});

it('the pid files of processes that are gone are swept once, a live one is kept', () => {
  const locks = lockDir();
  const folder = path.join(dir, 'locks');
  fs.mkdirSync(folder, { recursive: true });
  // What a process killed between writing its pid file and removing it leaves (pid above pid_max).
  const dead = `${path.basename(locks.pathFor('note:b.md'))}.4194305-0.tmp`;
  const live = `${path.basename(locks.pathFor('note:c.md'))}.${process.pid}-7.tmp`;
  fs.writeFileSync(path.join(folder, dead), '4194305 1');
  fs.writeFileSync(path.join(folder, live), `${process.pid} 1`);
  locks.withLockSync('note:a.md', () => undefined);
  expect(fs.readdirSync(folder).sort()).toEqual([holderName, live].sort());
});
