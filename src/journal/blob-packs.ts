/**
 * @module
 * Blobs stored together. A change to many notes at once (a move rewriting the links of a thousand
 * notes) would otherwise create, sync and rename a file per stored text, two per note; on ext4 every
 * such fsync forces a journal commit that the next file creation waits for, and a batch of 200 notes
 * spent 130–430 ms on it. A batch's texts go instead into one pack file,
 * `journal/blobs/packs/<name>.pack`, written and synced once.
 *
 * Format: a first line `NOTEDPACK1 <count>`, then `count` fixed-width lines
 * `<sha256> <offset> <length>` (offsets from the end of the header), then the bytes. Packs are never
 * changed after they are written; a damaged one is skipped, and its texts read as missing, exactly as a
 * damaged single blob does (readers check every text against its hash).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRange } from './read-range.js';

/** Below this many new texts, single blob files cost no more than a pack. */
export const PACK_MIN_BLOBS = 8;

const MAGIC = 'NOTEDPACK1';
const NUMBER_WIDTH = 12;
/** `<64 hex> <12 digits> <12 digits>\n` */
const LINE_BYTES = 64 + 1 + NUMBER_WIDTH + 1 + NUMBER_WIDTH + 1;
const MAX_FIRST_LINE = MAGIC.length + 1 + NUMBER_WIDTH + 1;
const LINE = /^([0-9a-f]{64}) (\d{12}) (\d{12})$/;

interface Place {
  readonly file: string;
  readonly offset: number;
  readonly length: number;
}

/** The bytes of a pack holding `blobs` (hashes already computed, no repeats). */
export function packBytes(blobs: readonly { sha256: string; bytes: Uint8Array }[]): Buffer {
  const first = `${MAGIC} ${blobs.length}\n`;
  const lines: string[] = [];
  let offset = 0;
  for (const { sha256, bytes } of blobs) {
    lines.push(`${sha256} ${pad(offset)} ${pad(bytes.length)}\n`);
    offset += bytes.length;
  }
  return Buffer.concat([Buffer.from(first + lines.join(''), 'latin1'), ...blobs.map((b) => b.bytes)]);
}

function pad(n: number): string {
  return String(n).padStart(NUMBER_WIDTH, '0');
}

/** A new pack's file name: unique across processes and time. */
export function newPackName(): string {
  return `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}.pack`;
}

/**
 * Where each packed text is, read from the packs' headers as they are needed. Packs written by other
 * processes are found on the next lookup that misses.
 */
export class PackIndex {
  private readonly read = new Set<string>();
  private readonly places = new Map<string, Place>();

  constructor(readonly dir: string) {}

  /** True when a pack already holds this text. */
  has(sha256: string): boolean {
    return this.places.has(sha256);
  }

  /** The bytes stored for a hash in some pack (unchecked: the caller checks them), or null. */
  bytesOf(sha256: string): Buffer | null {
    let place = this.places.get(sha256);
    if (place === undefined) {
      this.refresh();
      place = this.places.get(sha256);
    }
    if (place === undefined) return null;
    const bytes = readAt(path.join(this.dir, place.file), place.offset, place.length);
    if (bytes !== null) return bytes;
    // The pack is gone: a prune (prune.ts) in another process rewrote it, keeping its other texts in a
    // new pack. Forget it and look again, once.
    this.removed(place.file);
    this.refresh();
    const moved = this.places.get(sha256);
    return moved === undefined ? null : readAt(path.join(this.dir, moved.file), moved.offset, moved.length);
  }

  /** Every pack file with the hashes it holds (first place of each), after reading new headers. */
  packs(): Map<string, string[]> {
    this.refresh();
    const out = new Map<string, string[]>();
    for (const [sha256, place] of this.places) out.set(place.file, [...(out.get(place.file) ?? []), sha256]);
    return out;
  }

  /** Forgets a pack this process removed (prune.ts); its texts are looked for elsewhere again. */
  removed(file: string): void {
    for (const [sha256, place] of [...this.places]) if (place.file === file) this.places.delete(sha256);
  }

  /** Records a pack this process has just written, without reading it back. */
  added(file: string, bytes: Buffer): void {
    this.read.add(file);
    this.index(file, bytes);
  }

  /** Reads the headers of packs not seen yet. */
  refresh(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.pack') || this.read.has(name)) continue;
      this.read.add(name);
      const header = readHeader(path.join(this.dir, name));
      if (header !== null) this.index(name, header);
    }
  }

  private index(file: string, header: Buffer): void {
    const text = header.toString('latin1');
    const firstEnd = text.indexOf('\n');
    const [magic, countText] = text.slice(0, firstEnd).split(' ');
    const count = Number(countText);
    if (magic !== MAGIC || !Number.isInteger(count) || count < 0) return;
    const dataStart = firstEnd + 1 + count * LINE_BYTES;
    const found: [string, Place][] = [];
    for (let i = 0; i < count; i++) {
      const start = firstEnd + 1 + i * LINE_BYTES;
      const m = LINE.exec(text.slice(start, start + LINE_BYTES - 1));
      if (m === null) return; // a damaged header: none of this pack is trusted
      const [, sha256, offset, length] = m as unknown as [string, string, string, string];
      found.push([sha256, { file, offset: dataStart + Number(offset), length: Number(length) }]);
    }
    for (const [sha256, place] of found) if (!this.places.has(sha256)) this.places.set(sha256, place);
  }
}

/** A pack's header (first line and index lines), or null when the file is unreadable or too short. */
function readHeader(file: string): Buffer | null {
  const first = tryRead(file, 0, MAX_FIRST_LINE);
  if (first === null) return null;
  const text = first.toString('latin1');
  const end = text.indexOf('\n');
  const count = Number(text.slice(MAGIC.length + 1, end));
  if (end === -1 || !text.startsWith(`${MAGIC} `) || !Number.isInteger(count) || count < 0) return null;
  return readAt(file, 0, end + 1 + count * LINE_BYTES);
}

/** Exactly `length` bytes at `offset`, or null when the file is shorter or cannot be read. */
function readAt(file: string, offset: number, length: number): Buffer | null {
  const got = tryRead(file, offset, offset + length);
  return got !== null && got.length === length ? got : null;
}

/** A damaged or vanished pack reads as nothing: its texts are then missing, never wrong. */
function tryRead(file: string, start: number, end: number): Buffer | null {
  try {
    return readRange(file, start, end);
  } catch {
    return null;
  }
}
