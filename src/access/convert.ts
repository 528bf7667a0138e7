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
import { newGroupId } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';
import { reconcileJournal } from '../journal/reconcile.js';
import type { NewLinkpath } from '../markdown/link-rewrite.js';
import { createLinkResolver } from '../markdown/resolve.js';
import { createFileAtomic } from '../vault/atomic-write.js';
import { setVaultConfigFormat } from '../vault/config.js';
import {
  type ConversionMarker,
  conversionIsLive,
  readConversionMarker,
  removeConversionMarker,
  writeConversionMarker,
} from '../vault/conversion-marker.js';
import { ENDING_OF, type FormatName } from '../vault/format-choice.js';
import type { Vault } from '../vault/vault.js';
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
  /** Asked before each note: true stops the run there (it can be continued later). */
  readonly stopRequested?: () => boolean;
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

const TOOL = 'convert';
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
  const from: FormatName = options.to === 'html' ? 'markdown' : 'html';
  const fromEnding = ENDING_OF[from];
  const toEnding = ENDING_OF[options.to];
  const walked = walkVault(vault.root, fromEnding);
  const notes = walked.notes
    .map((f) => f.name)
    .filter((name) => !walked.linked.has(name))
    .sort();
  const relink = relinker([...notes, ...walked.attachments.map((f) => f.name)], fromEnding, toEnding);
  const convert = (text: string, name: string): ConvertedNote =>
    options.to === 'html' ? markdownNoteToHtml(text, relink(name)) : htmlNoteToMarkdown(text, relink(name));

  const report = {
    to: options.to,
    total: notes.length,
    converted: [] as NoteConversion[],
    skipped: walked.linked.size === 0 ? [] : linkedSkips(walked.linked, fromEnding),
    group: null as string | null,
    resumed: marker !== null && marker.group !== '',
    stopped: false,
  };
  if (options.dryRun) {
    for (const name of notes) {
      const stored = vault.read(name);
      if (stored === null) continue;
      const target = withoutEnding(name, fromEnding) + toEnding;
      if (vault.exists(target)) {
        report.skipped.push({ name, reason: `"${target}" already exists` });
        continue;
      }
      report.converted.push({ from: name, to: target, losses: convert(stored.text, name).losses });
    }
    return report;
  }

  const group = marker !== null && marker.group !== '' ? marker.group : newGroupId(journal.now());
  report.group = group;
  const started = marker?.started || journal.now().toISOString();
  writeConversionMarker(vault.stateDir, {
    to: options.to,
    group,
    pid: process.pid,
    started,
  } satisfies ConversionMarker);
  // A stopped run may have recorded a note's change without making it: say so before going on, so
  // that `undo --group` never tries to undo what never happened.
  if (report.resumed) await reconcileJournal(journal);

  let done = 0;
  for (const name of notes) {
    if (options.stopRequested?.() === true) {
      report.stopped = true;
      break;
    }
    const target = withoutEnding(name, fromEnding) + toEnding;
    const outcome = await vault.withNoteLock(name, () =>
      vault.withNoteLock(target, () =>
        convertOne(vault, journal, { name, target, group, session: options.session }, convert),
      ),
    );
    if ('reason' in outcome) report.skipped.push({ name, reason: outcome.reason });
    else report.converted.push(outcome);
    options.progress?.(++done, notes.length);
  }
  if (!report.stopped) {
    setVaultConfigFormat(vault.stateDir, options.to);
    removeConversionMarker(vault.stateDir);
  }
  return report;
}

interface Step {
  readonly name: string;
  readonly target: string;
  readonly group: string;
  readonly session: string;
}

/** One note: journal the pair, write the new file with the old times, remove the old file. */
function convertOne(
  vault: Vault,
  journal: Journal,
  step: Step,
  convert: (text: string, name: string) => ConvertedNote,
): NoteConversion | { reason: string } {
  const { name, target, group, session } = step;
  const sourceAbs = vault.pathOf(name);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(sourceAbs);
  } catch {
    return { reason: 'it was removed during the conversion' };
  }
  const stored = vault.read(name);
  if (stored === null) return { reason: 'it was removed during the conversion' };
  if (!stored.lossless) return { reason: 'it is not valid UTF-8 text; fix its encoding first' };
  const converted = convert(stored.text, name);
  const bytes = Buffer.from(converted.text, 'utf8');
  if (bytes.length > MAX_NOTE_BYTES) return { reason: 'it would be over 5 MB once converted' };
  const base = { session, client: CLIENT, tool: TOOL, group };
  const existing = vault.read(target);
  if (existing !== null) {
    // A run stopped between writing the new file and removing the old one: finish that note.
    if (!existing.bytes.equals(bytes)) return { reason: `"${target}" already exists; rename one of them` };
    const [entry] = journal.recordMany([
      { ...base, note: name, kind: 'delete', before: stored.bytes, after: null },
    ]);
    if (!vault.removeIfStill(name, stored.etag)) {
      journal.voidEntries([{ entry: entry!, now: vault.read(name)?.bytes ?? null }]);
      return { reason: 'it was changed during the conversion' };
    }
    return { from: name, to: target, losses: converted.losses };
  }
  const entries = journal.recordMany([
    { ...base, note: name, kind: 'delete', before: stored.bytes, after: null },
    { ...base, note: target, kind: 'create', before: null, after: bytes },
  ]);
  const targetAbs = vault.pathOf(target);
  if (!createFileAtomic(targetAbs, bytes)) {
    journal.voidEntries(entries.map((entry) => ({ entry, now: vault.read(entry.note)?.bytes ?? null })));
    return { reason: `"${target}" was created meanwhile` };
  }
  // SPEC 11.5: the converted note keeps the file times of the one it replaces.
  fs.utimesSync(targetAbs, stat.atime, stat.mtime);
  if (!vault.removeIfStill(name, stored.etag)) {
    fs.rmSync(targetAbs, { force: true });
    journal.voidEntries(entries.map((entry) => ({ entry, now: vault.read(entry.note)?.bytes ?? null })));
    return { reason: 'it was changed during the conversion' };
  }
  return { from: name, to: target, losses: converted.losses };
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
