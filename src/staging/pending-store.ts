/**
 * @module
 * The pending changes of a vault (SPEC 5.1): one JSON file a change in `<vault>/.noted/pending/`,
 * named by its id and written atomically. Ids start with the UTC time, so file names sort oldest
 * first; a random tail and exclusive creation keep them unique across server processes.
 *
 * On disk the JSON object is laid out over three lines: every field but the texts on the first line,
 * then `baseText`, then `newText`. It stays one ordinary JSON document, and a listing reads only the
 * first line of each file, so 200 changes of 5 MB each cost nothing to list.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import type { NoteEnding } from '../common/note-ending.js';
import { createFileAtomic } from '../vault/atomic-write.js';
import { normalizeFolderName, normalizeNoteName } from '../vault/names.js';
import type { Vault } from '../vault/vault.js';
import type { ChangeKind, NewPendingChange, PendingChange, PendingSummary } from './types.js';

/** At most this many changes wait for review at once (SPEC 5.1). */
export const MAX_PENDING_CHANGES = 200;
/** The most a staged text (before or after) may weigh, in UTF-8 bytes (SPEC 5.1). */
export const MAX_PENDING_BYTES = 5 * 1024 * 1024;

const FORMAT = 1;
export const ID_PATTERN = /^\d{8}-\d{6}-\d{3}-[0-9a-f]{6}$/;
const KINDS: readonly ChangeKind[] = ['create', 'update', 'delete'];
/** The first line holds names and ids only; a 64 KB head always contains it. */
const HEAD_BYTES = 64 * 1024;

export interface DamagedPending {
  readonly id: string;
  readonly reason: string;
}

export class PendingStore {
  /** `<vault>/.noted/pending` */
  readonly dir: string;
  private lastMs = 0;

  constructor(
    private readonly vault: Vault,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = vault.statePath('pending');
  }

  /**
   * Stores a change and returns it with its id. Refuses with `too_large` when a text is over 5 MB or
   * 200 changes are already waiting; nothing is stored then. Synchronous, so the gate may call it
   * inside a note's lock.
   */
  add(change: NewPendingChange): PendingChange {
    checkShape(change, this.vault.ending);
    for (const [field, text] of [
      ['new text', change.newText],
      ['text it replaces', change.baseText],
    ] as const) {
      const bytes = text === null ? 0 : Buffer.byteLength(text, 'utf8');
      if (bytes > MAX_PENDING_BYTES) {
        throw new NotedError(
          'too_large',
          `The change could not be staged: its ${field} is ${(bytes / 1048576).toFixed(1)} MB and a staged change may hold at most 5 MB. Nothing was written or staged; make a smaller change.`,
          { sizeBytes: bytes, maxBytes: MAX_PENDING_BYTES, committed: false },
        );
      }
    }
    // The count and the new file are one step across processes, so 200 is a real ceiling.
    return this.vault.withLockSync('pending', () => {
      const waiting = this.fileIds().length;
      if (waiting >= MAX_PENDING_CHANGES) {
        throw new NotedError(
          'too_large',
          `The change could not be staged: ${waiting} changes are already waiting for the vault owner's review, the most there may be. Nothing was written or staged. Tell the owner to review the pending changes (noted-mcp review) before you make more changes here.`,
          { pending: waiting, maxPending: MAX_PENDING_CHANGES, committed: false },
        );
      }
      fs.mkdirSync(this.dir, { recursive: true });
      for (;;) {
        const at = this.nextTime();
        const stored: PendingChange = { ...pick(change), id: newId(at), createdAt: at.toISOString() };
        if (createFileAtomic(this.fileOf(stored.id), serialize(stored))) return stored;
      }
    });
  }

  /** Every readable pending change without its texts, oldest first. Damaged files are left out (see `scan`). */
  list(): PendingSummary[] {
    return this.scan().changes;
  }

  /** The readable changes, oldest first, and the files that could not be understood. */
  scan(): { changes: PendingSummary[]; damaged: DamagedPending[] } {
    const changes: PendingSummary[] = [];
    const damaged: DamagedPending[] = [];
    for (const id of this.fileIds()) {
      try {
        changes.push(this.summary(id));
      } catch (err) {
        if (err instanceof NotedError && err.code === 'not_found') continue; // removed meanwhile
        if (!(err instanceof NotedError)) throw err;
        damaged.push({ id, reason: err.details.reason as string });
      }
    }
    return { changes, damaged };
  }

  /** How many changes are waiting (damaged files included: they still take a place). */
  count(): number {
    return this.fileIds().length;
  }

  /** One change with its texts. `not_found` for an unknown id, `validation_error` for a damaged file. */
  get(id: string): PendingChange {
    const data = this.parse(id, () => fs.readFileSync(this.fileOf(id), 'utf8'));
    return toChange(id, data, true, this.vault.ending) as PendingChange;
  }

  /** One change without its texts, reading only the head of its file. */
  summary(id: string): PendingSummary {
    const data = this.parse(id, () => {
      const head = readHead(this.fileOf(id));
      const end = head.indexOf('\n');
      // The first line ends in the comma before "baseText"; closing the object there makes it whole.
      return end > 0 && head[end - 1] === ','
        ? `${head.slice(0, end - 1)}}`
        : fs.readFileSync(this.fileOf(id), 'utf8');
    });
    return toChange(id, data, false, this.vault.ending);
  }

  /**
   * What identifies the stored file of a change as it is now (size, times, inode), to know when
   * something computed from it is still current; null when there is no such change.
   */
  stamp(id: string): string | null {
    if (!ID_PATTERN.test(id)) return null;
    try {
      const st = fs.statSync(this.fileOf(id));
      return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    } catch {
      return null;
    }
  }

  /**
   * Puts a change back under its own id (a rejected change the owner returns to pending), with the
   * same ceiling as `add`. False when a change of that id is already waiting.
   */
  restore(change: PendingChange): boolean {
    checkShape(change, this.vault.ending);
    return this.vault.withLockSync('pending', () => {
      const waiting = this.fileIds().length;
      if (waiting >= MAX_PENDING_CHANGES) {
        throw new NotedError(
          'too_large',
          `${waiting} changes are already waiting for review, the most there may be, so this one was not put back. Approve or reject some of them first.`,
          { pending: waiting, maxPending: MAX_PENDING_CHANGES, committed: false },
        );
      }
      fs.mkdirSync(this.dir, { recursive: true });
      return createFileAtomic(this.fileOf(change.id), serialize(change));
    });
  }

  /**
   * Takes a change out of pending at once (a rename, so of two reviewers deciding on it at the same
   * moment only one gets it; the other gets `not_found`), for the caller to finish with `done` or to
   * put back with `restore` when what follows fails. `change` is null for a damaged file.
   */
  claim(id: string): { change: PendingChange | null; done(): void; restore(): void } {
    if (!ID_PATTERN.test(id)) throw unknownChange(id);
    const claimed = path.join(this.dir, `.claimed-${id}-${randomBytes(4).toString('hex')}.json`);
    try {
      fs.renameSync(this.fileOf(id), claimed);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw unknownChange(id);
      throw err;
    }
    let change: PendingChange | null = null;
    try {
      change = toChange(
        id,
        this.parse(id, () => fs.readFileSync(claimed, 'utf8')),
        true,
        this.vault.ending,
      ) as PendingChange;
    } catch (err) {
      if (!(err instanceof NotedError) || err.code === 'not_found') {
        fs.renameSync(claimed, this.fileOf(id));
        throw err;
      }
    }
    return {
      change,
      done: () => fs.rmSync(claimed, { force: true }),
      restore: () => fs.renameSync(claimed, this.fileOf(id)),
    };
  }

  /** Removes a change; false when there was none with that id. */
  remove(id: string): boolean {
    if (!ID_PATTERN.test(id)) return false;
    try {
      fs.rmSync(this.fileOf(id));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  private parse(id: string, read: () => string): unknown {
    return parseChangeFile(id, read, unknownChange, (why) => damagedChange(id, why));
  }

  private fileIds(): string[] {
    return changeIdsIn(this.dir);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  /** Now, but always after the previous id of this store, so one process's ids sort in order. */
  private nextTime(): Date {
    const ms = Math.max(this.now().getTime(), this.lastMs + 1);
    this.lastMs = ms;
    return new Date(ms);
  }
}

/** `20260314-091502-123-4f9a2c`: UTC date, time, milliseconds, 24 random bits. */
function newId(at: Date): string {
  const iso = at.toISOString(); // 2026-03-14T09:15:02.123Z
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`;
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

function pick(change: NewPendingChange): NewPendingChange {
  const { note, kind, baseEtag, baseText, newText, session, client, tool } = change;
  return { note, kind, baseEtag, baseText, newText, session, client, tool };
}

/** A change as its file holds it; `extra` fields (a rejection's) go on the first line. */
export function serialize(change: PendingChange, extra: Record<string, unknown> = {}): string {
  const { baseText, newText, ...meta } = change;
  // JSON.stringify escapes every line break inside strings, so the only raw ones are these two.
  const head = JSON.stringify({ format: FORMAT, ...meta, ...extra });
  return `${head.slice(0, -1)},\n"baseText":${JSON.stringify(baseText)},\n"newText":${JSON.stringify(newText)}}\n`;
}

export function readHead(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** A change as the gate must hand it over; anything else is a bug in the caller, so it throws plainly. */
function checkShape(change: NewPendingChange, ending: NoteEnding): void {
  const problem = shapeProblem(change as unknown as Record<string, unknown>, true, ending);
  if (problem !== null) throw new Error(`PendingStore.add: ${problem}`);
}

export function toChange(
  id: string,
  data: unknown,
  withTexts: boolean,
  ending: NoteEnding,
): PendingSummary | PendingChange {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw damagedChange(id, 'it does not hold a JSON object');
  }
  const record = data as Record<string, unknown>;
  if (record.format !== FORMAT)
    throw damagedChange(id, `its format is ${String(record.format)}, not ${FORMAT}`);
  if (record.id !== id) throw damagedChange(id, 'the id inside does not match its file name');
  if (typeof record.createdAt !== 'string') throw damagedChange(id, 'createdAt is missing');
  const problem = shapeProblem(record, withTexts, ending);
  if (problem !== null) throw damagedChange(id, problem);
  const { note, kind, baseEtag, session, client, tool, createdAt } = record as unknown as PendingChange;
  const summary: PendingSummary = { id, note, kind, baseEtag, session, client, tool, createdAt };
  if (!withTexts) return summary;
  const { baseText, newText } = record as unknown as PendingChange;
  return { ...summary, baseText, newText };
}

/** What is wrong with the fields of a change, or null. Texts are only checked when present. */
function shapeProblem(r: Record<string, unknown>, withTexts: boolean, ending: NoteEnding): string | null {
  for (const field of ['note', 'session', 'client', 'tool'] as const) {
    if (typeof r[field] !== 'string') return `${field} must be a string`;
  }
  let canonical: string | null = null;
  try {
    // A `.base` file (SPEC 16.3) is named by its path, without a note ending.
    const note = r.note as string;
    canonical = /\.base$/i.test(note) ? normalizeFolderName(note) : normalizeNoteName(note, ending);
  } catch {
    // reported below
  }
  // Security: the note name is trusted by nothing downstream until it is canonical again here.
  if (canonical !== r.note) return `note ${JSON.stringify(r.note)} is not a canonical note name`;
  if (!KINDS.includes(r.kind as ChangeKind)) return `kind must be create, update or delete`;
  const isCreate = r.kind === 'create';
  const isDelete = r.kind === 'delete';
  if (isCreate ? r.baseEtag !== null : typeof r.baseEtag !== 'string') {
    return isCreate ? 'a create has no baseEtag (null)' : 'baseEtag must be the etag the agent saw';
  }
  if (!withTexts) return null;
  if (isCreate ? r.baseText !== null : typeof r.baseText !== 'string') {
    return isCreate ? 'a create has no baseText (null)' : 'baseText must be a string';
  }
  if (isDelete ? r.newText !== null : typeof r.newText !== 'string') {
    return isDelete ? 'a delete has no newText (null)' : 'newText must be a string';
  }
  return null;
}

function unknownChange(id: string): NotedError {
  return new NotedError(
    'not_found',
    `There is no pending change ${JSON.stringify(id)}. "noted-mcp review list" shows the changes waiting for review.`,
    { id },
  );
}

function damagedChange(id: string, reason: string): NotedError {
  return new NotedError(
    'validation_error',
    `The pending change ${id} cannot be read: ${reason}. Reject it (noted-mcp review reject ${id}) to remove its file.`,
    { id, reason },
  );
}

/**
 * A change file's JSON, read by `read`: `missing(id)` when the id is not one this store could have made
 * or its file is gone, `damaged(why)` when it is not JSON.
 */
export function parseChangeFile(
  id: string,
  read: () => string,
  missing: (id: string) => Error,
  damaged: (why: string) => Error,
): unknown {
  // Security: ids come from the command line and the console; only the id pattern may become a file name.
  if (!ID_PATTERN.test(id)) throw missing(id);
  let text: string;
  try {
    text = read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw missing(id);
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw damaged(`it is not valid JSON (${(err as Error).message})`);
  }
}

/**
 * The ids of the changes kept as `<id>.json` in `dir` (pending or rejected), sorted; none when the
 * folder does not exist. Temporary files of atomic writes start with "." and are never changes.
 */
export function changeIdsIn(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith('.json') && ID_PATTERN.test(n.slice(0, -5)))
    .map((n) => n.slice(0, -5))
    .sort();
}
