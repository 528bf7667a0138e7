/**
 * @module
 * Reading a file of the vault's state folder (`.noted/`: the policy, config.json, the conversion
 * marker, the journal's small files, the console's record). Any local process may put a FIFO there
 * (a plain read would wait forever, and the server reads synchronously, so every request would wait
 * with it), a link to elsewhere, or something huge: only a regular file up to a size is read, and a
 * final link is followed only when asked (the gate follows one to the policy file).
 */
import fs from 'node:fs';

/** The most a small state file (config.json, a marker, the journal's usage count or id) may hold. */
export const SMALL_STATE_FILE_BYTES = 1024 * 1024;

/** The file's text; throws `ENOENT` when it is missing, and a plain error for anything but a small regular file. */
export function readStateFile(
  file: string,
  maxBytes: number,
  options: { followLink?: boolean } = {},
): string {
  const noFollow = options.followLink === true ? 0 : fs.constants.O_NOFOLLOW;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | noFollow);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`${file} is not a regular file`);
    if (st.size > maxBytes) throw new Error(`${file} is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buffer, 0, st.size, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
