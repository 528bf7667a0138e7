/**
 * @module
 * The journal's files: day files `<vault>/.noted/journal/YYYY-MM-DD.jsonl` and content-addressed
 * blobs `journal/blobs/<sha256>`, or packs of many in `journal/blobs/packs/` (blob-packs.ts). Reading the tail of the latest day file is how an append finds the
 * entry before it, so an append costs the same with 100 entries or 100,000.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFilesAtomic } from '../vault/atomic-write.js';
import { newPackName, PACK_MIN_BLOBS, type PackIndex, packBytes } from './blob-packs.js';
import { dayOfFile, isEntry, isSha256Hex, type JournalEntry, parseEntryLine, sha256Hex } from './entry.js';

/** A day file and its path. */
export interface DayFile {
  readonly name: string;
  readonly day: string;
  readonly path: string;
}

/** One line of a day file, as read back. */
export interface JournalLine {
  readonly file: string;
  /** 1-based line number within the file. */
  readonly line: number;
  readonly text: string;
  /** True for the last line when the file does not end in a line break (a torn write). */
  readonly torn: boolean;
}

/** Every day file, oldest first; none when the journal folder does not exist yet. */
export function dayFiles(dir: string): DayFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: DayFile[] = [];
  for (const name of names) {
    const day = dayOfFile(name);
    if (day !== null) files.push({ name, day, path: path.join(dir, name) });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The lines of one day file, in order; a torn last line is included and flagged. */
export function linesOf(file: DayFile): JournalLine[] {
  let text: string;
  try {
    text = fs.readFileSync(file.path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() as string;
  const lines: JournalLine[] = parts.map((t, i) => ({ file: file.name, line: i + 1, text: t, torn: false }));
  if (last !== '') lines.push({ file: file.name, line: parts.length + 1, text: last, torn: true });
  return lines;
}

/** Every readable entry of one day file, in order; lines that are not entries are skipped. */
export function entriesOf(file: DayFile): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of linesOf(file)) {
    if (line.torn) continue;
    const parsed = parseEntryLine(line.text);
    if (isEntry(parsed)) entries.push(parsed);
  }
  return entries;
}

/** Where the last complete line of a day file ends, and that line. */
export interface DayTail {
  /** Byte length of the file up to and including its last line break. */
  readonly complete: number;
  /** The file's byte length; larger than `complete` when a torn line follows. */
  readonly size: number;
  /** The last complete line, or null when the file holds none. */
  readonly lastLine: string | null;
}

const TAIL_CHUNK = 64 * 1024;

/** Reads backwards from the end only as far as the last complete line needs. */
export function readTail(filePath: string): DayTail {
  const fd = fs.openSync(filePath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    let span = Math.min(size, TAIL_CHUNK);
    for (;;) {
      const start = size - span;
      const buf = Buffer.alloc(span);
      fs.readSync(fd, buf, 0, span, start);
      const lastBreak = buf.lastIndexOf(0x0a);
      if (lastBreak === -1) {
        if (start === 0) return { complete: 0, size, lastLine: null };
        span = Math.min(size, span * 2);
        continue;
      }
      const previousBreak = lastBreak === 0 ? -1 : buf.lastIndexOf(0x0a, lastBreak - 1);
      if (previousBreak === -1 && start > 0) {
        span = Math.min(size, span * 2);
        continue;
      }
      return {
        complete: start + lastBreak + 1,
        size,
        lastLine: buf.subarray(previousBreak + 1, lastBreak).toString('utf8'),
      };
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The blob folder's path for a hash (callers check the hash's form first). */
export function blobPath(dir: string, sha256: string): string {
  return path.join(dir, 'blobs', sha256);
}

/** The folder of blob packs (blob-packs.ts). */
export function packDir(dir: string): string {
  return path.join(dir, 'blobs', 'packs');
}

/**
 * The texts of `blobs` not stored yet, each once: what storing them would add to the journal.
 */
export function freshBlobs(
  dir: string,
  blobs: readonly { sha256: string; bytes: Uint8Array }[],
  packs: PackIndex,
): { sha256: string; bytes: Uint8Array }[] {
  const seen = new Set<string>();
  const fresh: { sha256: string; bytes: Uint8Array }[] = [];
  for (const blob of blobs) {
    if (seen.has(blob.sha256)) continue;
    seen.add(blob.sha256);
    if (!packs.has(blob.sha256) && !fs.existsSync(blobPath(dir, blob.sha256))) fresh.push(blob);
  }
  return fresh;
}

/**
 * Stores new texts (from `freshBlobs`) under their hashes, atomically, in one batch of writes and
 * syncs. Many at once go into one pack.
 */
export function storeBlobs(
  dir: string,
  fresh: readonly { sha256: string; bytes: Uint8Array }[],
  packs: PackIndex,
): void {
  if (fresh.length < PACK_MIN_BLOBS) {
    writeFilesAtomic(fresh.map(({ sha256, bytes }) => ({ target: blobPath(dir, sha256), data: bytes })));
    return;
  }
  const name = newPackName();
  const bytes = packBytes(fresh);
  fs.mkdirSync(packs.dir, { recursive: true });
  writeFilesAtomic([{ target: path.join(packs.dir, name), data: bytes }]);
  packs.added(name, bytes);
}

/**
 * The bytes stored under a hash, or null when there are none or they no longer hash to their name:
 * a damaged blob must never be given back as a note's earlier text.
 */
export function readBlob(dir: string, sha256: string, packs: PackIndex): Buffer | null {
  if (!isSha256Hex(sha256)) return null;
  const loose = readLoose(blobPath(dir, sha256));
  if (loose !== null && sha256Hex(loose) === sha256) return loose;
  // Not stored on its own (or damaged there): a pack may hold it.
  const packed = packs.bytesOf(sha256);
  return packed !== null && sha256Hex(packed) === sha256 ? packed : null;
}

/**
 * Whether a stored text is there and intact: `missing` when no copy is stored, `damaged` when every
 * copy stored no longer hashes to its name.
 */
export function blobState(dir: string, sha256: string, packs: PackIndex): 'ok' | 'missing' | 'damaged' {
  if (readBlob(dir, sha256, packs) !== null) return 'ok';
  return readLoose(blobPath(dir, sha256)) !== null || packs.bytesOf(sha256) !== null ? 'damaged' : 'missing';
}

function readLoose(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}
