/**
 * @module
 * Atomic file replacement: a reader sees the old bytes or the new bytes, never a mix (SPEC 1.6).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Temporary files live beside their target (rename is only atomic within one file system) under a
 * dot-name, which the scan and the watcher never index: `.Name.md.<pid>-<random>.noted-tmp`.
 */
export const TEMP_SUFFIX = '.noted-tmp';

export function tempPathFor(target: string): string {
  const dir = path.dirname(target);
  const base = path.basename(target);
  return path.join(dir, `.${base}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
}

/** True for a temporary file name of `writeFileAtomic` whose writer process is gone. */
export function isOrphanTemp(fileName: string): boolean {
  if (!fileName.startsWith('.') || !fileName.endsWith(TEMP_SUFFIX)) return false;
  const m = /\.(\d+)-[0-9a-f]{8}\.noted-tmp$/.exec(fileName);
  if (!m) return false;
  return !processAlive(Number(m[1]));
}

export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes `data` to `target` through a temporary file: write, fsync, rename, then fsync the folder so
 * the rename itself survives a crash. Parent folders are created as needed.
 */
export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = tempPathFor(target);
  let fd: number | null = fs.openSync(tmp, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(tmp, target);
  } catch (err) {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

/**
 * Creates `target` with `data` only if nothing exists there, atomically: the complete file appears
 * under its name or not at all, and an existing file is never replaced. Returns false when the
 * target exists.
 */
export function createFileAtomic(target: string, data: string | Uint8Array): boolean {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = tempPathFor(target);
  const fd = fs.openSync(tmp, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // link() refuses an existing target, unlike rename(), so a concurrent creator is never clobbered.
    fs.linkSync(tmp, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if (fs.existsSync(target)) throw err;
    fs.renameSync(tmp, target); // file systems without hard links
    fsyncDir(dir);
    return true;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fsyncDir(dir);
  return true;
}

export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename has happened either way.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
