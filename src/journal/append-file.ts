/**
 * @module
 * Appending to a day file so that a failure leaves nothing half done (journal.ts `append`): the last
 * complete entry found from the file's tail, and an append that is cut back when it, or what must
 * follow it (the anchor), fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { fsyncDir } from '../vault/atomic-write.js';
import { isEntry, type JournalEntry, parseEntryLine } from './entry.js';
import { type DayFile, readTail } from './files.js';

/**
 * The last complete entry, reading only file tails. A cut-off line at the end of the latest file
 * (a crash mid-append) is removed: its change was never made, since the caller writes a note only
 * after `record` returns.
 */
export function lastEntry(files: readonly DayFile[]): JournalEntry | null {
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i] as DayFile;
    const tail = readTail(file.path);
    if (i === files.length - 1 && tail.size > tail.complete) fs.truncateSync(file.path, tail.complete);
    if (tail.lastLine === null) continue;
    const parsed = parseEntryLine(tail.lastLine);
    if (!isEntry(parsed)) {
      throw new NotedError(
        'not_supported',
        `The journal could not be written (its last entry, in .noted/journal/${path.basename(file.path)}, is damaged: ${parsed.error}), so the note was not changed. Run "noted-mcp journal verify", then repair or remove the damaged line by hand; verify will keep showing where it was.`,
      );
    }
    return parsed;
  }
  return null;
}

/**
 * Appends `bytes` to `filePath` (in the journal folder `dir`) with `writer` and fsyncs, then runs
 * `then` (the anchor); on any failure cuts the file back to where it was, so no partial line stays and
 * no entry stands unanchored.
 */
export function appendDurably(
  dir: string,
  filePath: string,
  bytes: Buffer,
  writer: (fd: number, bytes: Buffer) => void,
  then: () => void,
): void {
  const existed = fs.existsSync(filePath);
  const fd = fs.openSync(filePath, 'a', 0o644);
  let failed = false;
  try {
    const size = fs.fstatSync(fd).size;
    try {
      writer(fd, bytes);
      fs.fsyncSync(fd);
      then();
    } catch (err) {
      failed = true;
      try {
        fs.ftruncateSync(fd, size);
        fs.fsyncSync(fd);
      } catch {
        // The next append removes a cut-off last line before it writes (see lastEntry).
      }
      throw err;
    }
  } finally {
    fs.closeSync(fd);
    if (failed && !existed) fs.rmSync(filePath, { force: true });
  }
  if (!existed) fsyncDir(dir);
}

/** Writes all of `bytes` (the default writer). */
export function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
}
