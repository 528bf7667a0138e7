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

/**
 * Replaces `target` with `data` through a temporary file and a rename (a reader sees the old bytes or
 * the new), the file synced first when `sync`, the folder not: for small state files whose last update
 * may be lost to a crash (`writeFileAtomic` keeps it). The folder must exist.
 */
export function replaceFile(target: string, data: string | Uint8Array, options: { sync: boolean }): void {
  const tmp = tempPathFor(target);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, data);
    if (options.sync) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
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
  const temps: TempWrite<FileWrite>[] = [];
  for (const file of files) {
    const dir = path.dirname(file.target);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    temps.push({ tmp: tempPathFor(file.target), target: file.target, data: file.data, of: file });
  }
  try {
    writeTemps(temps);
    return renameTemps(temps, (file) => file.still?.() ?? true);
  } finally {
    for (const dir of made) fsyncDir(dir);
  }
}

/** One temporary file of a batch: where it is written, where it then goes, and what it stands for. */
export interface TempWrite<T> {
  readonly tmp: string;
  readonly target: string;
  readonly data: string | Uint8Array;
  readonly of: T;
}

/**
 * Writes every temporary file, then syncs them all: the first fsync flushes most of the data and the
 * rest find little left to do. When anything fails, every temporary file is removed and it throws.
 */
export function writeTemps(temps: readonly TempWrite<unknown>[]): void {
  const fds: (number | null)[] = [];
  try {
    for (const t of temps) {
      fds.push(fs.openSync(t.tmp, 'wx', 0o644));
      fs.writeFileSync(fds.at(-1) as number, t.data);
    }
    for (const [i, fd] of fds.entries()) {
      fs.fsyncSync(fd as number);
      fs.closeSync(fd as number);
      fds[i] = null;
    }
  } catch (err) {
    for (const fd of fds) if (fd !== null) fs.closeSync(fd);
    for (const t of temps) fs.rmSync(t.tmp, { force: true });
    throw err;
  }
}

/**
 * Renames each temporary file over its target while `still` agrees (asked right before), removing it
 * otherwise; returns what was skipped. On a failure the remaining temporary files are removed.
 */
export function renameTemps<T>(
  temps: readonly TempWrite<T>[],
  still: (of: T, target: string) => boolean,
): T[] {
  const skipped: T[] = [];
  for (const [i, t] of temps.entries()) {
    try {
      if (still(t.of, t.target)) {
        fs.renameSync(t.tmp, t.target);
        continue;
      }
      skipped.push(t.of);
      fs.rmSync(t.tmp, { force: true });
    } catch (err) {
      for (const rest of temps.slice(i)) fs.rmSync(rest.tmp, { force: true });
      throw err;
    }
  }
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
  if (!createFromTemp(tempPathFor(target), target, data)) return false;
  fsyncDir(dir);
  return true;
}

/**
 * The steps of `createFileAtomic` once its folder exists, for callers that name paths their own way
 * (checked-write.ts): `data` written and synced to `tmp`, then `tmp` linked to `target`, which fails on
 * an existing target (unlike rename), so a concurrent creator is never clobbered. False when `target`
 * exists. The temporary file never stays. The caller syncs the folder.
 */
export function createFromTemp(tmp: string, target: string, data: string | Uint8Array): boolean {
  writeTemps([{ tmp, target, data, of: null }]);
  try {
    fs.linkSync(tmp, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if (fs.existsSync(target)) throw err;
    fs.renameSync(tmp, target); // file systems without hard links
  } finally {
    fs.rmSync(tmp, { force: true });
  }
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
