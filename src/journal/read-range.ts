/**
 * @module
 * Reading part of a journal file (a day file from a position, a pack's header or one text) without
 * loading all of it.
 */
import fs from 'node:fs';

/** The bytes from `start` up to `end` (default: the end), fewer when the file is shorter. */
export function readRange(filePath: string, start: number, end?: number): Buffer {
  const fd = fs.openSync(filePath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const stop = Math.min(end ?? size, size);
    const length = Math.max(0, stop - start);
    const buf = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buf, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}
