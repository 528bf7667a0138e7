/**
 * @module
 * The journal's start-up check (SPEC 6.1). Every agent change is recorded, then written, under the
 * note's lock; a process killed between the two leaves an entry whose change never happened. Once per
 * start, before serving, this looks at the entries appended since its last run and appends, for each
 * one whose note never received its text, an entry of kind `not_applied` naming it (`voids`). It
 * never changes a note.
 *
 * How an entry is judged: by the next thing known about its note. That is the before-hash of the
 * note's next entry (read under the same lock when that entry was recorded), or, for the note's
 * latest entry, the file itself, read under the note's lock, so that a live process between its record
 * and its write is waited for. Evidence equal to the entry's after-hash: applied. Equal to its
 * before-hash: not applied. Anything else: the note was changed outside the server since, and nothing
 * can be said; it is left alone.
 *
 * First, a last line cut off mid-append (a writer killed while writing it) is removed, under the
 * journal's lock, as the next append would remove it: its change was never made, since a note is
 * written only after its entry is complete, and until it is gone `journal verify` reports the chain
 * broken there.
 *
 * The check is bounded: a checkpoint file (`reconcile-checkpoint.json` in the journal folder, written
 * atomically) remembers the last entry checked and where its line is, so a start reads only what was
 * appended since. Without a usable checkpoint the newest 1,000 entries are checked.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isNotedError } from '../common/errors.js';
import { removeOrphanTemps } from '../vault/atomic-write.js';
import { type JournalEntry, sha256Hex } from './entry.js';
import { dayFiles, readTail } from './files.js';
import type { Journal } from './journal.js';
import {
  CHECKPOINT_FILE,
  type Located,
  readFrom,
  type ScanFrom,
  scanSinceCheckpoint,
  writeCheckpoint,
} from './reconcile-scan.js';

export { CHECKPOINT_FILE };

/** Entries checked when there is no usable checkpoint. */
export const TAIL_WITHOUT_CHECKPOINT = 1000;
/** At most this many entries are checked in one start (the newest), however many were appended. */
export const MAX_CHECKED = 10_000;

export interface ReconcileOptions {
  /** Recorded as the session of the `not_applied` entries (default: `startup-<random>`). */
  readonly session?: string;
  readonly tail?: number;
  readonly maxChecked?: number;
}

export interface ReconcileResult {
  /** Bytes of a cut-off last line removed from the latest day file (0: there was none). */
  readonly cutOff: number;
  /** How many entries were looked at. */
  readonly checked: number;
  /** Whether they were found from the checkpoint, or as the newest entries without one. */
  readonly from: ScanFrom;
  /** The `not_applied` entries appended now. */
  readonly notApplied: JournalEntry[];
  /** Entries that could not be checked (their note stayed locked, or could not be read), and why. */
  readonly problems: string[];
}

type Verdict = 'applied' | 'not_applied' | 'changed';

/**
 * Checks the entries appended since the last check and records each change that was never made.
 *
 * @example
 * const { notApplied } = await reconcileJournal(journal);
 * for (const e of notApplied) log.warn(`entry ${e.voids} (${e.note}) was recorded but never applied`);
 */
export async function reconcileJournal(
  journal: Journal,
  options: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const dir = journal.dir;
  removeOrphanTemps(dir); // a checkpoint write cut off by a kill
  const cutOff = removeTornTail(journal);
  const scan = scanSinceCheckpoint(dir, options.tail ?? TAIL_WITHOUT_CHECKPOINT);
  const max = options.maxChecked ?? MAX_CHECKED;
  const problems: string[] = [];
  if (scan.entries.length > max) {
    problems.push(
      `${scan.entries.length} entries were appended since the last check; only the newest ${max} were checked`,
    );
  }
  const range = scan.entries.slice(-max);
  const last = range.at(-1);
  if (last === undefined) return { cutOff, checked: 0, from: scan.from, notApplied: [], problems };

  const voided = new Set<string>();
  const chains = new Map<string, JournalEntry[]>();
  for (const { entry } of range) {
    if (entry.kind === 'not_applied') {
      voided.add(entry.voids as string);
      continue;
    }
    chains.set(entry.note, [...(chains.get(entry.note) ?? []), entry]);
  }

  const session = options.session ?? `startup-${randomBytes(4).toString('hex')}`;
  const notApplied: JournalEntry[] = [];
  let complete = true;
  for (const [note, chain] of chains) {
    // Every entry but the latest is judged by the one after it; those need no file and no lock.
    const suspects: JournalEntry[] = [];
    for (let i = 0; i < chain.length - 1; i++) {
      const entry = chain[i] as JournalEntry;
      const next = chain[i + 1] as JournalEntry;
      if (!voided.has(entry.id) && judge(entry, next.beforeSha256) === 'not_applied') suspects.push(entry);
    }
    const latest = chain.at(-1) as JournalEntry;
    try {
      // Most latest entries were applied: a read without the lock settles those.
      const latestSuspect =
        !voided.has(latest.id) && judge(latest, hashOf(readNote(journal, note))) !== 'applied';
      if (suspects.length === 0 && !latestSuspect) continue;
      const recorded = await journal.vault.withNoteLock(note, () =>
        voidUnderLock(journal, note, suspects, latestSuspect ? latest : null, last, session),
      );
      notApplied.push(...recorded);
    } catch (err) {
      complete = false;
      problems.push(`"${note}" (entry ${latest.id}) was not checked: ${(err as Error).message}`);
    }
  }
  // A note that could not be checked is checked again next time: the checkpoint stays where it was.
  if (complete) {
    try {
      writeCheckpoint(dir, last);
    } catch (err) {
      problems.push(
        `the checkpoint could not be written (${(err as Error).message}); the next start checks these entries again`,
      );
    }
  }
  return { cutOff, checked: range.length, from: scan.from, notApplied, problems };
}

/**
 * Removes a cut-off last line of the latest day file, under the journal's lock (a live writer holds it
 * while its line is incomplete). Returns how many bytes were removed.
 */
function removeTornTail(journal: Journal): number {
  if (dayFiles(journal.dir).length === 0) return 0;
  return journal.vault.withLockSync('journal', () => {
    const latest = dayFiles(journal.dir).at(-1);
    if (latest === undefined) return 0;
    const tail = readTail(latest.path);
    if (tail.size <= tail.complete) return 0;
    const fd = fs.openSync(latest.path, 'r+');
    try {
      fs.ftruncateSync(fd, tail.complete);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return tail.size - tail.complete;
  });
}

/**
 * Under the note's lock: entries for the note appended since the scan (by a process that held the lock
 * before us) are the better evidence for the latest one, and may show another start-up check already
 * voided it. Appends a `not_applied` entry for each entry still found never applied.
 */
function voidUnderLock(
  journal: Journal,
  note: string,
  suspects: readonly JournalEntry[],
  latest: JournalEntry | null,
  scanEnd: Located,
  session: string,
): JournalEntry[] {
  const newer = readFrom(journal.dir, { file: scanEnd.file, offset: scanEnd.end }).map((l) => l.entry);
  const voidedNow = new Set(newer.flatMap((e) => (e.kind === 'not_applied' ? [e.voids as string] : [])));
  const nextOfNote = newer.find((e) => e.note === note && e.kind !== 'not_applied');
  const current = readNote(journal, note);
  // Something other than a file stands at the note's name: no entry can say what it holds.
  if (current === undefined) return [];
  const found = suspects.filter((e) => !voidedNow.has(e.id));
  if (latest !== null && !voidedNow.has(latest.id)) {
    const evidence = nextOfNote === undefined ? hashOf(current) : nextOfNote.beforeSha256;
    if (judge(latest, evidence) === 'not_applied') found.push(latest);
  }
  const bytes = current === null ? null : current.bytes;
  return found.map((entry) =>
    journal.record({
      session,
      client: null,
      tool: 'startup',
      note,
      kind: 'not_applied',
      before: bytes,
      after: bytes,
      voids: entry.id,
    }),
  );
}

function judge(entry: JournalEntry, evidence: string | null | undefined): Verdict {
  if (evidence === entry.afterSha256) return 'applied';
  if (evidence === entry.beforeSha256) return 'not_applied';
  return 'changed';
}

/**
 * The note as evidence: its bytes and hash, null when no file is there, or undefined when something
 * other than a file is (a folder): that matches no entry, so the entry is left alone.
 */
function readNote(journal: Journal, note: string): { bytes: Buffer; hash: string } | null | undefined {
  try {
    const bytes = fs.readFileSync(journal.vault.pathOf(note));
    return { bytes, hash: sha256Hex(bytes) };
  } catch (err) {
    if (isNotedError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'EISDIR') return undefined;
    throw err;
  }
}

function hashOf(state: { hash: string } | null | undefined): string | null | undefined {
  return state === null || state === undefined ? state : state.hash;
}
