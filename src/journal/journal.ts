/**
 * @module
 * The agent journal (SPEC 6): every agent change to a note is recorded here before the note is
 * written, as one hash-chained line in `<vault>/.noted/journal/YYYY-MM-DD.jsonl`, with the texts
 * before and after stored once each under `journal/blobs/` (files.ts). The gate calls `record` while it
 * holds the note's lock; the CLI lists, shows, verifies and undoes.
 *
 * @example
 * const journal = new Journal(vault, { now: () => new Date(), key: openJournalKey(configDir) });
 * // inside vault.withNoteLock(name, () => { … }), right before vault.write(name, after):
 * journal.record({ session: session.id, client, tool: 'edit_note', note: name, kind: 'update', before, after });
 */
import fs from 'node:fs';
import path from 'node:path';
import { isNotedError, NotedError } from '../common/errors.js';
import { CONVERSION_TOOL, refuseUnlessFormatSettled } from '../vault/conversion-marker.js';
import type { Vault } from '../vault/vault.js';
import { anchoringFor, writeAnchor } from './anchor.js';
import { appendDurably, lastEntry, writeAll } from './append-file.js';
import { PackIndex } from './blob-packs.js';
import {
  changesNothing,
  dayOfId,
  entryHash,
  entryLine,
  type JournalEntry,
  type JournalKind,
  newEntryId,
  type UnhashedEntry,
} from './entry.js';
import { dayFiles, entriesOf, freshBlobs, packDir, readBlob, storeBlobs } from './files.js';
import { type JournalKeyState, openJournalKey } from './journal-key.js';
import { type PruneResult, pruneTexts } from './prune.js';
import { type EntryFields, prepare, type RecordInput } from './record-input.js';
import { type UndoContext, type UndoResult, undoChanges } from './undo.js';
import type { UndoJournal, UndoTarget } from './undo-journal.js';
import { addUsage, currentUsage, type JournalUsage, requireRoom } from './usage.js';
import { type VerifyResult, verifyJournal } from './verify.js';

export interface JournalFilters {
  readonly session?: string;
  readonly client?: string;
  readonly kind?: JournalKind;
  readonly note?: string;
  readonly group?: string;
  /** At most this many entries (the newest). */
  readonly limit?: number;
}

export interface JournalSession {
  readonly session: string;
  /** The self-declared client name of the session's latest entry. */
  readonly client: string | null;
  readonly firstTime: string;
  readonly lastTime: string;
  readonly entries: number;
}

export interface JournalOptions {
  readonly now: () => Date;
  /**
   * The user's journal key (journal-key.ts), read by the entry point from the configuration folder.
   * Without one, entries are written unauthenticated and verify says so.
   */
  readonly key: JournalKeyState;
  /**
   * How an entry's bytes reach the open day file (default: `fs.writeSync` until all are written).
   * Tests inject a failing writer here to show that a failed append leaves no partial line.
   */
  readonly writer?: (fd: number, bytes: Buffer) => void;
  /**
   * The most the stored texts may take (usage.ts); past it a change is refused. Absent or null: no
   * limit (the owner's own commands: undo, approve).
   */
  readonly maxStoredBytes?: number | null;
}

export class Journal implements UndoJournal {
  /** `<vault>/.noted/journal` */
  readonly dir: string;
  readonly now: () => Date;
  private keyState: JournalKeyState;
  readonly maxStoredBytes: number | null;
  private readonly writer: (fd: number, bytes: Buffer) => void;
  /** Where packed texts are (blob-packs.ts); filled as they are needed. */
  private readonly packs: PackIndex;

  constructor(
    readonly vault: Vault,
    options: JournalOptions,
  ) {
    this.dir = vault.statePath('journal');
    this.packs = new PackIndex(packDir(this.dir));
    this.now = options.now;
    this.keyState = options.key;
    this.maxStoredBytes = options.maxStoredBytes ?? null;
    this.writer = options.writer ?? writeAll;
  }

  /** The journal key as it stands (made at the first append when it was to be made on first use). */
  get key(): JournalKeyState {
    return this.keyState;
  }

  /** What the stored texts take now (measured once when never recorded). */
  usage(): JournalUsage {
    return this.vault.withLockSync('journal', () => currentUsage(this.dir));
  }

  /**
   * Records one change durably, before the caller writes the note. Synchronous, for use inside the
   * note's lock; takes the journal's own cross-process lock for the append. Throws
   * `NotedError('not_supported')` when the entry cannot be written: then the caller must not write.
   */
  record(input: RecordInput): JournalEntry {
    const [entry] = this.recordMany([input]);
    return entry as JournalEntry;
  }

  /**
   * Records several changes as consecutive entries, durably, with one append: what an operation that
   * changes many notes (a move rewriting a thousand links) needs, since one fsync per entry would
   * cost seconds. All or nothing: when it throws, no entry was added. The caller holds the lock of
   * every note concerned and writes them only after this returns.
   */
  recordMany(inputs: readonly RecordInput[]): JournalEntry[] {
    if (inputs.length === 0) return [];
    const prepared = inputs.map(prepare);
    try {
      const fresh = freshBlobs(
        this.dir,
        prepared.flatMap((p) => p.blobs),
        this.packs,
      );
      const adding = fresh.reduce((n, b) => n + b.bytes.length, 0);
      // Saying a recorded change was not made is never refused: it keeps the journal true.
      const limited = this.maxStoredBytes !== null && prepared.some((p) => !changesNothing(p.fields));
      // Checked before anything is stored, so a refused change leaves no text behind. Outside the
      // journal lock (which appends hold for as short a time as they can): processes storing at the
      // same moment may each pass it, so the limit can be passed by one change per process at most.
      if (limited) requireRoom(currentUsage(this.dir), adding, this.maxStoredBytes);
      // Blobs before the entries: a blob left behind by a failed append is harmless (content-
      // addressed), while an entry pointing at a missing blob would not be.
      storeBlobs(this.dir, fresh, this.packs);
      return this.vault.withLockSync('journal', () => {
        // Under the journal's lock, where `noted-mcp convert` meets every writer (convert.ts): a change
        // recorded after its marker appeared is refused, one recorded before it is waited for.
        const changes = prepared.filter(
          (p) => p.fields.kind !== 'not_applied' && p.fields.tool !== CONVERSION_TOOL,
        );
        const [first] = changes;
        if (first !== undefined) {
          refuseUnlessFormatSettled(this.vault.stateDir, this.vault.format, `change "${first.fields.note}"`);
        }
        if (adding > 0) addUsage(this.dir, currentUsage(this.dir), adding);
        return this.append(prepared.map((p) => p.fields));
      });
    } catch (err) {
      if (isNotedError(err)) throw err;
      throw journalFailure(err, this.dir);
    }
  }

  /**
   * Says that recorded changes were not made after all (their write failed, or found the note saved
   * by someone else meanwhile): one `not_applied` entry each, naming it, under its own session, client,
   * tool and group, with the note as found now. False when even these cannot be written; the start-up
   * check adds them then (reconcile.ts).
   */
  voidEntries(voided: readonly { entry: JournalEntry; now: Uint8Array | null }[]): boolean {
    if (voided.length === 0) return true;
    try {
      this.recordMany(
        voided.map(({ entry, now }) => ({
          session: entry.session,
          client: entry.client,
          tool: entry.tool,
          note: entry.note,
          kind: 'not_applied' as const,
          before: now,
          after: now,
          voids: entry.id,
          ...(entry.group === undefined ? {} : { group: entry.group }),
        })),
      );
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Walks the whole chain, checks each entry's authentication, the anchored head and (unless `texts`
   * is false) every stored text; see verify.ts.
   */
  verify(
    options: { texts?: boolean; hashes?: string[]; checked?: Set<string>; notes?: string[] } = {},
  ): VerifyResult {
    return verifyJournal(this.dir, {
      key: this.key,
      root: this.vault.root,
      packs: this.packs,
      journalDirOf: (root) => path.join(root, '.noted', 'journal'),
      ...options,
    });
  }

  /** Entries matching every given filter, newest first. */
  list(filters: JournalFilters = {}): JournalEntry[] {
    const limit = filters.limit ?? Number.POSITIVE_INFINITY;
    const out: JournalEntry[] = [];
    if (limit <= 0) return out;
    for (const file of dayFiles(this.dir).reverse()) {
      const entries = entriesOf(file);
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i] as JournalEntry;
        if (filters.session !== undefined && e.session !== filters.session) continue;
        if (filters.client !== undefined && e.client !== filters.client) continue;
        if (filters.kind !== undefined && e.kind !== filters.kind) continue;
        if (filters.note !== undefined && e.note !== filters.note) continue;
        if (filters.group !== undefined && e.group !== filters.group) continue;
        out.push(e);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  /** Every session that changed something, the most recently active first. */
  sessions(): JournalSession[] {
    const byId = new Map<string, JournalSession & { lastSeq: number }>();
    for (const e of this.entries()) {
      const seen = byId.get(e.session);
      byId.set(e.session, {
        session: e.session,
        client: e.client,
        firstTime: seen?.firstTime ?? e.time,
        lastTime: e.time,
        entries: (seen?.entries ?? 0) + 1,
        lastSeq: e.seq,
      });
    }
    return [...byId.values()]
      .sort((a, b) => b.lastSeq - a.lastSeq)
      .map(({ lastSeq: _lastSeq, ...session }) => session);
  }

  /** One entry by id, or null. Looks in the id's own day file first. */
  get(id: string): JournalEntry | null {
    const files = dayFiles(this.dir);
    const day = dayOfId(id);
    const own = files.find((f) => f.day === day);
    const ordered = own === undefined ? files : [own, ...files.filter((f) => f !== own)];
    for (const file of ordered) {
      const found = entriesOf(file).find((e) => e.id === id);
      if (found !== undefined) return found;
    }
    return null;
  }

  /** A stored text by its hex SHA-256, or null when it is not stored (or no longer intact). */
  textOf(sha256: string): string | null {
    return readBlob(this.dir, sha256, this.packs)?.toString('utf8') ?? null;
  }

  /** The exact stored bytes of a text, or null. */
  bytesOf(sha256: string): Buffer | null {
    return readBlob(this.dir, sha256, this.packs);
  }

  /** Every readable entry, oldest first; from the day files of `fromDay` on when given. */
  entries(fromDay?: string): JournalEntry[] {
    const files = dayFiles(this.dir).filter((f) => fromDay === undefined || f.day >= fromDay);
    return files.flatMap(entriesOf);
  }

  /**
   * Removes the stored texts only changes before `before` (an ISO time) need, when the journal fully
   * verifies; see prune.ts. The owner's command, never an agent's.
   */
  prune(before: string, dryRun: boolean): PruneResult {
    return this.vault.withLockSync('journal', () =>
      pruneTexts(
        {
          dir: this.dir,
          packs: this.packs,
          key: this.key,
          entries: this.entries(),
          verified: this.verify(),
          bytesOf: (sha) => this.bytesOf(sha),
          now: this.now(),
        },
        before,
        dryRun,
      ),
    );
  }

  /** Undoes changes (SPEC 6.3); see undo.ts. */
  undo(target: UndoTarget, ctx: UndoContext): Promise<UndoResult> {
    return undoChanges(this, target, ctx);
  }

  /**
   * Appends entries after the last one, with one write and one fsync, authenticated with the key and
   * anchored outside the vault when there is a key; runs under the journal lock.
   */
  private append(fieldsList: readonly EntryFields[]): JournalEntry[] {
    fs.mkdirSync(this.dir, { recursive: true });
    const files = dayFiles(this.dir);
    let last = lastEntry(files);
    const state = this.keyState;
    if (state.key === null && state.firstUse === true && state.dir !== null) {
      this.keyState = openJournalKey(state.dir);
    }
    const key = this.keyState.key;
    const anchoring =
      key === null ? null : anchoringFor(this.dir, this.vault.root, key, (last?.seq ?? 0) + 1);
    const now = this.now();
    const time = now.toISOString();
    const latest = files.at(-1);
    // A clock set back past midnight must not put a later entry in an earlier file: file order is
    // chain order.
    const day = latest !== undefined && latest.day > time.slice(0, 10) ? latest.day : time.slice(0, 10);
    const entries: JournalEntry[] = [];
    for (const fields of fieldsList) {
      const seq = (last?.seq ?? 0) + 1;
      const unhashed: UnhashedEntry = {
        id: newEntryId(now, seq),
        seq,
        time,
        ...fields,
        prev: last?.hash ?? null,
        ...(key === null ? {} : { keyId: key.id }),
      };
      const hash = entryHash(unhashed);
      last = { ...unhashed, hash, ...(key === null ? {} : { mac: key.mac(hash) }) };
      entries.push(last);
    }
    const text = entries.map((e) => `${entryLine(e)}\n`).join('');
    const head = last as JournalEntry;
    appendDurably(
      this.dir,
      path.join(this.dir, `${day}.jsonl`),
      Buffer.from(text, 'utf8'),
      this.writer,
      () => {
        if (key === null || anchoring === null) return;
        writeAnchor(key.dir, {
          vaultId: anchoring.vaultId,
          vault: this.vault.root,
          seq: head.seq,
          hash: head.hash,
          authenticatedFrom: anchoring.authenticatedFrom,
          ...(anchoring.prunedBefore === undefined ? {} : { prunedBefore: anchoring.prunedBefore }),
          updated: time,
        });
      },
    );
    return entries;
  }
}

/**
 * Security: the agent is told the journal's place inside the vault (`.noted/journal`), never the
 * machine's absolute path (SPEC 17.7); an error's own message (which names the file) is not passed on.
 */
function journalFailure(err: unknown, _dir: string): NotedError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'no permission to write there'
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'a file stands where its folder should be'
          : code === 'EISDIR'
            ? 'a folder stands where one of its files should be'
            : `the file system answered ${code ?? (err as Error).name}`;
  return new NotedError(
    'not_supported',
    `The journal could not be written (${why}: ${JOURNAL_PLACE}), so the note was not changed. Every agent change is recorded before it is made; free disk space or fix the permissions of that folder, then try again.`,
    { journal: JOURNAL_PLACE, ...(code === undefined ? {} : { errno: code }) },
  );
}

/** The journal's folder as the agent is told it: inside the vault, never the machine's path. */
const JOURNAL_PLACE = '.noted/journal';
