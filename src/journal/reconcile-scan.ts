/**
 * @module
 * Where the journal's start-up check (reconcile.ts) begins: the entries appended since its last run,
 * found through a checkpoint file (`reconcile-checkpoint.json` in the journal folder, written
 * atomically) that names the last entry checked and where its line is. A missing, damaged or stale
 * checkpoint (the journal was rewritten) falls back to the newest entries, read backwards from the
 * end of the day files only as far as needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { isEntry, type JournalEntry, parseEntryLine } from './entry.js';
import { dayFiles } from './files.js';
import { readRange } from './read-range.js';

export const CHECKPOINT_FILE = 'reconcile-checkpoint.json';

/** An entry and where its line is in its day file (`start` to `end`, the line break included). */
export interface Located {
  readonly entry: JournalEntry;
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** Where the entries came from: after the checkpoint, the newest without one, or none at all. */
export type ScanFrom = 'checkpoint' | 'tail' | 'empty';

interface Checkpoint {
  readonly seq: number;
  readonly hash: string;
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

export interface Position {
  readonly file: string;
  readonly offset: number;
}

/** The entries after the checkpoint, or the newest `tail` entries when it is missing or stale. */
export function scanSinceCheckpoint(dir: string, tail: number): { entries: Located[]; from: ScanFrom } {
  const checkpoint = readCheckpoint(dir);
  if (checkpoint !== null && checkpointHolds(dir, checkpoint)) {
    const entries = readFrom(dir, { file: checkpoint.file, offset: checkpoint.end });
    const first = entries[0];
    // The entries after the checkpoint must continue its chain; otherwise the journal was rewritten.
    if (
      first === undefined ||
      (first.entry.seq === checkpoint.seq + 1 && first.entry.prev === checkpoint.hash)
    ) {
      return { entries, from: 'checkpoint' };
    }
  }
  const entries = readNewest(dir, tail);
  return { entries, from: entries.length === 0 ? 'empty' : 'tail' };
}

/** Complete entry lines of `buf`, which starts at byte `base` of `file`; a torn last line is left out. */
function entriesIn(buf: Buffer, base: number, file: string): Located[] {
  const out: Located[] = [];
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, start);
    if (nl === -1) return out;
    const parsed = parseEntryLine(buf.subarray(start, nl).toString('utf8'));
    // A damaged line is for `journal verify` to report; here it is skipped.
    if (isEntry(parsed)) out.push({ entry: parsed, file, start: base + start, end: base + nl + 1 });
    start = nl + 1;
  }
}

/** Every entry from `pos` on: the rest of its day file, then every later day file. */
export function readFrom(dir: string, pos: Position): Located[] {
  const out: Located[] = [];
  for (const file of dayFiles(dir)) {
    if (file.name < pos.file) continue;
    const offset = file.name === pos.file ? pos.offset : 0;
    try {
      out.push(...entriesIn(readRange(file.path, offset), offset, file.name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return out;
}

/** The newest `count` entries, reading day files backwards from their ends only as far as needed. */
function readNewest(dir: string, count: number): Located[] {
  const chunks: Located[][] = [];
  let found = 0;
  for (const file of dayFiles(dir).reverse()) {
    if (found >= count) break;
    const size = fs.statSync(file.path).size;
    let span = Math.min(size, 256 * 1024);
    for (;;) {
      const start = size - span;
      const buf = readRange(file.path, start, size);
      // Unless the read reaches the file's start, its first line may be cut: skip to the next one.
      const skip = start === 0 ? 0 : buf.indexOf(0x0a) + 1;
      const entries = skip === 0 && start > 0 ? [] : entriesIn(buf.subarray(skip), start + skip, file.name);
      if (entries.length >= count - found || start === 0) {
        const wanted = entries.slice(-(count - found));
        chunks.unshift(wanted);
        found += wanted.length;
        break;
      }
      span = Math.min(size, span * 2);
    }
  }
  return chunks.flat();
}

function readCheckpoint(dir: string): Checkpoint | null {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, CHECKPOINT_FILE), 'utf8')) as Record<string, unknown>;
    const int = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
    if (
      !int(v.seq) ||
      !int(v.start) ||
      !int(v.end) ||
      typeof v.hash !== 'string' ||
      typeof v.file !== 'string'
    ) {
      return null;
    }
    if (path.basename(v.file) !== v.file) return null;
    return v as unknown as Checkpoint;
  } catch {
    return null; // missing, unreadable or not JSON: check the tail instead
  }
}

/** The checkpoint's line is still where it says, holding the entry it names. */
function checkpointHolds(dir: string, cp: Checkpoint): boolean {
  if (cp.end <= cp.start) return false;
  try {
    const [located] = entriesIn(readRange(path.join(dir, cp.file), cp.start, cp.end), cp.start, cp.file);
    return (
      located !== undefined &&
      located.end === cp.end &&
      located.entry.seq === cp.seq &&
      located.entry.hash === cp.hash
    );
  } catch {
    return false;
  }
}

export function writeCheckpoint(dir: string, last: Located): void {
  const cp: Checkpoint = {
    seq: last.entry.seq,
    hash: last.entry.hash,
    file: last.file,
    start: last.start,
    end: last.end,
  };
  writeFileAtomic(path.join(dir, CHECKPOINT_FILE), `${JSON.stringify(cp)}\n`);
}
