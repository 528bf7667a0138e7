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

/**
 * Removes the temporary files that killed writers left directly in `dir` (not below it); returns how
 * many. The vault scan does this for note folders; the state folders (journal blobs, pending changes)
 * are never scanned, so start-up sweeps them with this.
 */
export function removeOrphanTemps(dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isOrphanTemp(name)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
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
  writeFilesAtomic([{ target, data }]);
}

/** One file of a batch for `writeFilesAtomic`. */
export interface FileWrite {
  readonly target: string;
  readonly data: string | Uint8Array;
  /**
   * Asked right before this file's rename; false leaves the target as it is (the temporary file is
   * removed) and the file is among those `writeFilesAtomic` returns as skipped.
   */
  readonly still?: () => boolean;
}

/**
 * `writeFileAtomic` for many files at once, with the same guarantee for each (old bytes or new, never
 * a mix) at a fraction of the cost: every temporary file is written before any is fsynced, so the
 * first fsync flushes most of the data and the rest find little left to do, and each folder is
 * fsynced once after all its renames. Nothing is renamed until every file is written and synced;
 * when that fails, every temporary file is removed and no target has changed.
 */
export function writeFilesAtomic(files: readonly FileWrite[]): FileWrite[] {
  const made = new Set<string>();
  const pending: { fd: number | null; tmp: string; target: string; file: FileWrite }[] = [];
  try {
    for (const file of files) {
      const { target, data } = file;
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      const tmp = tempPathFor(target);
      const item: { fd: number | null; tmp: string; target: string; file: FileWrite } = {
        fd: fs.openSync(tmp, 'wx', 0o644),
        tmp,
        target,
        file,
      };
      pending.push(item);
      fs.writeFileSync(item.fd as number, data);
    }
    for (const item of pending) {
      fs.fsyncSync(item.fd as number);
      fs.closeSync(item.fd as number);
      item.fd = null;
    }
  } catch (err) {
    for (const item of pending) {
      if (item.fd !== null) fs.closeSync(item.fd);
      fs.rmSync(item.tmp, { force: true });
    }
    throw err;
  }
  const skipped: FileWrite[] = [];
  for (const [i, item] of pending.entries()) {
    try {
      if (item.file.still === undefined || item.file.still()) {
        fs.renameSync(item.tmp, item.target);
        continue;
      }
      skipped.push(item.file);
      fs.rmSync(item.tmp, { force: true });
    } catch (err) {
      for (const rest of pending.slice(i)) fs.rmSync(rest.tmp, { force: true });
      for (const dir of made) fsyncDir(dir);
      throw err;
    }
  }
  for (const dir of made) fsyncDir(dir);
  return skipped;
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
  let fd: number | null = fs.openSync(tmp, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
  } catch (err) {
    // A full disk fails the write: the partial temporary file must not stay behind.
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
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
