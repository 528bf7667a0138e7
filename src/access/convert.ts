/**
 * @module
 * Converting a whole vault between the formats (SPEC 11.5), the owner's operation behind
 * `noted-mcp convert`. Each note is one journaled, atomic step: its new file is written next to the
 * old one (same name, new ending, same file times), then the old one is removed; both steps are
 * recorded first, as a move is, in one journal group for the whole run, so `undo --group` puts the
 * vault back. `.noted/converting` is there from the first note to the last: every server answers
 * writes with `busy` meanwhile, and a run that was stopped is continued by the next one (same group),
 * which finds each note either converted or untouched.
 */
import fs from 'node:fs';
import { NotedError } from '../common/errors.js';
import { hasEnding, type NoteEnding, withoutEnding } from '../common/note-ending.js';
import { type ConvertedNote, htmlNoteToMarkdown, markdownNoteToHtml } from '../format/convert-note.js';
import { type JournalEntry, newGroupId } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';
import { withNoteLocks } from '../journal/note-locks.js';
import { reconcileJournal } from '../journal/reconcile.js';
import type { NewLinkpath } from '../markdown/link-rewrite.js';
import { createLinkResolver } from '../markdown/resolve.js';
import { writeFilesAtomic } from '../vault/atomic-write.js';
// The owner converts the whole vault, hidden folders included: nothing here is judged by the policy.
import { ANYWHERE } from '../vault/checked-folder.js';
import { setVaultConfigFormat } from '../vault/config.js';
import {
  CONVERSION_TOOL,
  type ConversionMarker,
  conversionIsLive,
  readConversionMarker,
  removeConversionMarker,
  writeConversionMarker,
} from '../vault/conversion-marker.js';
import { ENDING_OF, type FormatName } from '../vault/format-name.js';
import type { StoredNote, Vault } from '../vault/vault.js';
import { walkVault } from '../vault/walk.js';
import { MAX_NOTE_BYTES } from './context.js';

export interface ConvertOptions {
  readonly to: FormatName;
  /** List what would change and what would be lost; write nothing. */
  readonly dryRun: boolean;
  /** The journal's session for this run. */
  readonly session: string;
  /** Called after each note (done of total). */
  readonly progress?: (done: number, total: number) => void;
  /** Asked before each batch of notes: true stops the run there (it can be continued later). */
  readonly stopRequested?: () => boolean;
  /** Notes journaled and written together (default 200). */
  readonly batchSize?: number;
}

export interface NoteConversion {
  readonly from: string;
  readonly to: string;
  readonly losses: string[];
}

export interface ConvertReport {
  readonly to: FormatName;
  /** Notes of the other format found. */
  readonly total: number;
  /** Converted in this run (or, for a dry run, that would be). */
  readonly converted: NoteConversion[];
  /** Notes left as they are, with why. */
  readonly skipped: { name: string; reason: string }[];
  /** The journal group of the run (null for a dry run). */
  readonly group: string | null;
  /** True when this run continued one that had been stopped. */
  readonly resumed: boolean;
  /** True when the run was stopped before its last note; run again to continue. */
  readonly stopped: boolean;
}

const TOOL = CONVERSION_TOOL;
/** Notes journaled and written together: a thousand notes one by one cost several fsyncs each. */
const BATCH = 200;
const CLIENT = 'noted-mcp convert';

/** Converts every note of `vault` to `options.to`, or plans it (`dryRun`). */
export async function convertVault(
  vault: Vault,
  journal: Journal,
  options: ConvertOptions,
): Promise<ConvertReport> {
  const marker = readConversionMarker(vault.stateDir);
  if (marker !== null && marker.pid !== process.pid && conversionIsLive(marker)) {
    throw new NotedError(
      'busy',
      `Another conversion of this vault is running (process ${marker.pid}, started ${marker.started}). Wait for it to finish.`,
    );
  }
  if (marker !== null && marker.group !== '' && marker.to !== options.to) {
    throw new NotedError(
      'validation_error',
      `A conversion to ${marker.to} was stopped before it finished. Finish it first with: noted-mcp convert --to ${marker.to}`,
    );
  }
  const resumed = marker !== null && marker.group !== '';
  let group: string | null = null;
  if (!options.dryRun) {
    group = resumed ? marker.group : newGroupId(journal.now());
    const started = marker?.started || journal.now().toISOString();
    writeConversionMarker(vault.stateDir, {
      to: options.to,
      group,
      pid: process.pid,
      started,
    } satisfies ConversionMarker);
    // Security (issue 35): the vault is walked only once no write can still land behind the walk's back.
    await waitForWritesUnderWay(vault, journal);
  }
  const from: FormatName = options.to === 'html' ? 'markdown' : 'html';
  const fromEnding = ENDING_OF[from];
  const toEnding = ENDING_OF[options.to];
  const walked = walkVault(vault.root, fromEnding);
  const notes = walked.notes
    .map((f) => f.name)
    .filter((name) => !walked.linked.has(name))
    .sort();
  // Notes a stopped run already converted are link targets as they were before it.
  const attachments = walked.attachments.map((f) => f.name);
  const convertedBefore = attachments
    .filter((name) => hasEnding(name, toEnding))
    .map((name) => withoutEnding(name, toEnding) + fromEnding);
  const relink = relinker([...notes, ...attachments, ...convertedBefore], fromEnding, toEnding);
  const convert = (text: string, name: string): ConvertedNote =>
    options.to === 'html' ? markdownNoteToHtml(text, relink(name)) : htmlNoteToMarkdown(text, relink(name));

  const report = {
    to: options.to,
    total: notes.length,
    converted: [] as NoteConversion[],
    skipped: walked.linked.size === 0 ? [] : linkedSkips(walked.linked, fromEnding),
    group,
    resumed,
    stopped: false,
  };
  if (group === null) {
    for (const name of notes) {
      const stored = vault.read(name, ANYWHERE);
      if (stored === null) continue;
      const target = withoutEnding(name, fromEnding) + toEnding;
      if (vault.exists(target, ANYWHERE)) {
        report.skipped.push({ name, reason: `"${target}" already exists` });
        continue;
      }
      report.converted.push({ from: name, to: target, losses: convert(stored.text, name).losses });
    }
    return report;
  }

  // A stopped run may have recorded a note's change without making it: say so before going on, so
  // that `undo --group` never tries to undo what never happened.
  if (report.resumed) await reconcileJournal(journal);

  let done = 0;
  const size = options.batchSize ?? BATCH;
  for (let i = 0; i < notes.length; i += size) {
    if (options.stopRequested?.() === true) {
      report.stopped = true;
      break;
    }
    const batch = notes.slice(i, i + size);
    // Each note's lock, as every writer takes it: nothing writes a note while it is converted.
    const locked = batch.flatMap((name) => [name, withoutEnding(name, fromEnding) + toEnding]);
    const outcomes = await withNoteLocks(vault, locked, () =>
      convertBatch(
        vault,
        journal,
        { names: batch, group, session: options.session, fromEnding, toEnding },
        convert,
      ),
    );
    for (const outcome of outcomes) {
      if ('reason' in outcome) report.skipped.push({ name: outcome.name, reason: outcome.reason });
      else report.converted.push(outcome);
    }
    done += batch.length;
    options.progress?.(done, notes.length);
  }
  if (!report.stopped) {
    setVaultConfigFormat(vault.stateDir, options.to);
    removeConversionMarker(vault.stateDir);
  }
  return report;
}

/** How far back the journal is read for changes that may still be being written (see below). */
const UNDER_WAY_MS = 60_000;

/**
 * The barrier between the writers that came before the marker and the walk (issue 35 finding 6). Every
 * change to a note is recorded under the journal's lock, which refuses it once the marker is there
 * (journal.ts), and then written under the note's lock. So, once the journal's lock has been taken
 * after the marker was written, no new change can start; one recorded before may still be on its way
 * to the disk, and its writer holds its note's lock until it is there: taking the lock of every note
 * the journal recorded lately waits for those (a lock whose holder died or hangs is taken over after
 * 15 s, locks.ts).
 */
async function waitForWritesUnderWay(vault: Vault, journal: Journal): Promise<void> {
  vault.withLockSync('journal', () => undefined);
  const since = journal.now().getTime() - UNDER_WAY_MS;
  const day = new Date(since).toISOString().slice(0, 10);
  const notes = journal
    .entries(day)
    .filter((e) => Date.parse(e.time) >= since && e.tool !== TOOL)
    .map((e) => e.note);
  if (notes.length > 0) await withNoteLocks(vault, notes, () => undefined);
}

interface Batch {
  readonly names: readonly string[];
  readonly group: string;
  readonly session: string;
  readonly fromEnding: NoteEnding;
  readonly toEnding: NoteEnding;
}

type Outcome = NoteConversion | { name: string; reason: string };

interface Planned {
  readonly name: string;
  readonly target: string;
  readonly stored: StoredNote;
  readonly stat: fs.Stats;
  readonly bytes: Buffer;
  readonly losses: string[];
  /** The new file is already there, whole: a run stopped between writing it and removing the old. */
  readonly written: boolean;
}

/**
 * A batch of notes: every change journaled in one append (SPEC 6.1, before anything is written),
 * every new file written with one batch of syncs, then each old file removed. One note at a time
 * stays atomic: its new file is whole or absent, and its old file is removed only once the new one
 * is on disk, and only if nobody changed it meanwhile.
 */
function convertBatch(
  vault: Vault,
  journal: Journal,
  batch: Batch,
  convert: (text: string, name: string) => ConvertedNote,
): Outcome[] {
  const outcomes: Outcome[] = [];
  const planned: Planned[] = [];
  for (const name of batch.names) {
    const plan = planNote(vault, name, withoutEnding(name, batch.fromEnding) + batch.toEnding, convert);
    if ('reason' in plan) outcomes.push(plan);
    else planned.push(plan);
  }
  if (planned.length === 0) return outcomes;
  const base = { session: batch.session, client: CLIENT, tool: TOOL, group: batch.group };
  const entries = journal.recordMany(
    planned.flatMap((p) => [
      { ...base, note: p.name, kind: 'delete' as const, before: p.stored.bytes, after: null },
      ...(p.written
        ? []
        : [{ ...base, note: p.target, kind: 'create' as const, before: null, after: p.bytes }]),
    ]),
  );
  const entriesOf = new Map<string, JournalEntry[]>();
  for (const entry of entries) {
    const owner = planned.find((p) => p.name === entry.note || p.target === entry.note)?.name ?? entry.note;
    entriesOf.set(owner, [...(entriesOf.get(owner) ?? []), entry]);
  }
  const toWrite = planned.filter((p) => !p.written);
  const skipped = new Set(
    writeFilesAtomic(
      toWrite.map((p) => ({
        target: vault.pathOf(p.target),
        data: p.bytes,
        // Never over a file that appeared meanwhile (an editor's, another run's).
        still: () => !fs.existsSync(vault.pathOf(p.target)),
      })),
    ).map((f) => f.target),
  );
  const voided: { entry: JournalEntry; now: Uint8Array | null }[] = [];
  const voidAll = (p: Planned) => {
    for (const entry of entriesOf.get(p.name) ?? [])
      voided.push({ entry, now: vault.read(entry.note, ANYWHERE)?.bytes ?? null });
  };
  for (const p of planned) {
    const targetAbs = vault.pathOf(p.target);
    if (skipped.has(targetAbs)) {
      voidAll(p);
      outcomes.push({ name: p.name, reason: `"${p.target}" was created meanwhile` });
      continue;
    }
    // SPEC 11.5: the converted note keeps the file times of the one it replaces.
    fs.utimesSync(targetAbs, p.stat.atime, p.stat.mtime);
    if (!vault.removeIfStill(p.name, p.stored.etag)) {
      if (!p.written) fs.rmSync(targetAbs, { force: true });
      voidAll(p);
      outcomes.push({ name: p.name, reason: 'it was changed during the conversion' });
      continue;
    }
    outcomes.push({ from: p.name, to: p.target, losses: p.losses });
  }
  journal.voidEntries(voided);
  return outcomes;
}

/** Reads and converts one note, or says why it is left as it is. */
function planNote(
  vault: Vault,
  name: string,
  target: string,
  convert: (text: string, name: string) => ConvertedNote,
): Planned | { name: string; reason: string } {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(vault.pathOf(name));
  } catch {
    return { name, reason: 'it was removed during the conversion' };
  }
  const stored = vault.read(name, ANYWHERE);
  if (stored === null) return { name, reason: 'it was removed during the conversion' };
  if (!stored.lossless) return { name, reason: 'it is not valid UTF-8 text; fix its encoding first' };
  const converted = convert(stored.text, name);
  const bytes = Buffer.from(converted.text, 'utf8');
  if (bytes.length > MAX_NOTE_BYTES) return { name, reason: 'it would be over 5 MB once converted' };
  const existing = vault.read(target, ANYWHERE);
  if (existing !== null && !existing.bytes.equals(bytes)) {
    return { name, reason: `"${target}" already exists; rename one of them` };
  }
  return { name, target, stored, stat, bytes, losses: converted.losses, written: existing !== null };
}

/**
 * A link's new linkpath: a link that names a note with its old ending (`[x](Plan.md)`,
 * `<a href="Plan.html">`) gets the new one; a link without the ending already finds the converted
 * note, and a link to an attachment is left alone.
 */
function relinker(
  files: readonly string[],
  fromEnding: NoteEnding,
  toEnding: NoteEnding,
): (source: string) => NewLinkpath {
  const resolver = createLinkResolver(files, undefined, fromEnding);
  return (source) => (link) => {
    if (!hasEnding(link.linkpath, fromEnding)) return null;
    const target = resolver.resolve(link.linkpath, source);
    if (target === null || !hasEnding(target, fromEnding)) return null;
    return withoutEnding(link.linkpath, fromEnding) + toEnding;
  };
}

/** Notes reached through a symbolic link are converted where they really are, not through the link. */
function linkedSkips(linked: ReadonlyMap<string, string>, ending: NoteEnding): ConvertReport['skipped'] {
  return [...linked.entries()]
    .filter(([name]) => hasEnding(name, ending))
    .map(([name, real]) => ({
      name,
      reason: `it is reached through a symbolic link; "${real}" is converted instead`,
    }));
}
