/**
 * @module
 * How much disk the journal's stored texts take, and its limit (issue 25: forty 5 MB updates wrote
 * 201 MB in 7.6 s, and nothing stopped an agent from filling the disk).
 *
 * The policy: every text up to 5 MB is stored once, by hash (SPEC 6.3; larger ones by hash only).
 * The texts stored in all may take up to a limit (`journalMaxMB` in `.noted/config.json`, default
 * 1024). A change whose new texts would pass it is not recorded, so not made (SPEC 6.1): the agent
 * is told the journal is full, and the owner frees room with `noted-mcp journal prune` (prune.ts) or
 * raises the limit. Entries themselves are a few hundred bytes and are always kept.
 *
 * The running total is kept in `journal/usage.json`, updated under the journal lock with each append,
 * and measured from the files when it is missing or unreadable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { replaceFile } from '../vault/atomic-write.js';
import { readStateFile, SMALL_STATE_FILE_BYTES } from '../vault/state-file.js';

export const USAGE_FILE = 'usage.json';

/** What the stored texts take: loose blob files and packs, by their sizes on disk. */
export interface JournalUsage {
  readonly storedBytes: number;
}

/** The usage the journal folder records, else measured from its files (and recorded). */
export function currentUsage(dir: string): JournalUsage {
  const recorded = readUsage(dir);
  if (recorded !== null) return recorded;
  const measured = measureUsage(dir);
  saveUsage(dir, measured);
  return measured;
}

/** Adds to the recorded usage; called under the journal lock after texts were stored. */
export function addUsage(dir: string, usage: JournalUsage, bytes: number): void {
  if (bytes === 0) return;
  saveUsage(dir, { storedBytes: usage.storedBytes + bytes });
}

/** Measures the stored texts from the files. */
export function measureUsage(dir: string): JournalUsage {
  const blobs = path.join(dir, 'blobs');
  let storedBytes = 0;
  for (const folder of [blobs, path.join(blobs, 'packs')]) {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of names) {
      if (!entry.isFile()) continue;
      try {
        storedBytes += fs.statSync(path.join(folder, entry.name)).size;
      } catch {
        // Removed while measured: it takes no room.
      }
    }
  }
  return { storedBytes };
}

/**
 * Replaces the recorded usage (atomically, not synced: a count lost to a crash is one batch short,
 * and a missing file is measured again).
 */
export function saveUsage(dir: string, usage: JournalUsage): void {
  fs.mkdirSync(dir, { recursive: true });
  replaceFile(path.join(dir, USAGE_FILE), `${JSON.stringify(usage)}\n`, { sync: false });
}

function readUsage(dir: string): JournalUsage | null {
  try {
    const v = JSON.parse(readStateFile(path.join(dir, USAGE_FILE), SMALL_STATE_FILE_BYTES)) as {
      storedBytes?: unknown;
    };
    return Number.isSafeInteger(v.storedBytes) && (v.storedBytes as number) >= 0
      ? { storedBytes: v.storedBytes as number }
      : null;
  } catch {
    return null;
  }
}

/** Refuses texts that would take the journal past its limit (null: no limit). */
export function requireRoom(usage: JournalUsage, adding: number, limit: number | null): void {
  if (limit === null || adding === 0 || usage.storedBytes + adding <= limit) return;
  throw new NotedError(
    'too_large',
    `The journal is full: its stored texts take ${megabytes(usage.storedBytes)} of the ${megabytes(limit)} the vault allows (journalMaxMB in .noted/config.json), and this change would add ${megabytes(adding)}. Every change is recorded before it is made, so the note was not changed. Ask the vault's owner to free room with "noted-mcp journal prune --before DATE" or to raise journalMaxMB.`,
    { committed: false, journalFull: true, storedBytes: usage.storedBytes, maxBytes: limit },
  );
}

/** `12.3 MB` (MB = 1,048,576 bytes, as journalMaxMB counts them). */
export function megabytes(bytes: number): string {
  const mb = bytes / 1048576;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}
