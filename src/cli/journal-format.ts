/**
 * @module
 * How journal entries read in a terminal. Client names are what a client said about itself, so they
 * are always labelled as such.
 */
import { diffOf, wordDiffOf } from '../journal/diff-text.js';
import type { JournalEntry } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';

/** `2026-12-01 03:40:02Z` */
export function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}

export function clientLabel(client: string | null): string {
  return client === null ? 'no client name given' : `client "${client}" (self-declared, unverified)`;
}

/**
 * Entries (newest first) as lines grouped by session, sessions in order of their newest entry.
 * `voided` maps each entry recorded but never made to the `not_applied` entry that says so.
 */
export function listLines(
  entries: readonly JournalEntry[],
  voided: ReadonlyMap<string, string> = new Map(),
): string[] {
  const sessions = new Map<string, JournalEntry[]>();
  for (const e of entries) sessions.set(e.session, [...(sessions.get(e.session) ?? []), e]);
  const kindWidth = Math.max(...entries.map((e) => e.kind.length));
  const noteWidth = Math.min(40, Math.max(...entries.map((e) => e.note.length)));
  const toolWidth = Math.max(...entries.map((e) => e.tool.length));
  const lines: string[] = [];
  for (const [session, group] of sessions) {
    if (lines.length > 0) lines.push('');
    const first = group[0] as JournalEntry;
    const count = group.length === 1 ? '1 change' : `${group.length} changes`;
    lines.push(`Session ${session} — ${clientLabel(first.client)} — ${count}`);
    for (const e of group) {
      const notes: string[] = [];
      if (e.undoOf !== undefined) notes.push(`undoes ${e.undoOf}`);
      if (e.voids !== undefined) notes.push(`entry ${e.voids} was recorded but never applied`);
      const never = voided.get(e.id);
      if (never !== undefined) notes.push(`NOT APPLIED: recorded, never written; see ${never}`);
      if (e.group !== undefined) notes.push(`group ${e.group}`);
      if (e.decision !== undefined) notes.push(decisionText(e));
      lines.push(
        [
          ` ${shortTime(e.time)}`,
          e.tool.padEnd(toolWidth),
          e.kind.padEnd(kindWidth),
          e.note.padEnd(noteWidth),
          e.id,
          ...(notes.length > 0 ? [`(${notes.join('; ')})`] : []),
        ].join('  '),
      );
    }
  }
  return lines;
}

/**
 * The fields of one entry, one per line. `voidedBy` is the `not_applied` entry saying this change was
 * recorded but never made.
 */
export function describeEntry(
  e: JournalEntry,
  undoneBy: JournalEntry | undefined,
  voidedBy?: JournalEntry,
): string[] {
  const text = (sha: string | null, stored: boolean) =>
    sha === null ? 'none (no note)' : `sha256 ${sha}${stored ? '' : ' (over 5 MB: recorded by hash only)'}`;
  return [
    `Entry    ${e.id}`,
    `Seq      ${e.seq}`,
    `Time     ${e.time}`,
    `Session  ${e.session}`,
    `Client   ${e.client === null ? 'none given' : `"${e.client}" (self-declared, unverified)`}`,
    `Tool     ${e.tool}`,
    `Kind     ${e.kind}`,
    `Note     ${e.note}`,
    ...(e.group === undefined ? [] : [`Group    ${e.group}`]),
    ...(e.decision === undefined ? [] : [`Decision ${decisionText(e)}`]),
    ...(e.undoOf === undefined ? [] : [`Undoes   ${e.undoOf}`]),
    ...(e.voids === undefined
      ? []
      : [
          `Voids    ${e.voids}: recorded but never applied (the writer stopped before writing the note); found at start-up, nothing was changed`,
        ]),
    ...(voidedBy === undefined
      ? []
      : [
          `Applied  NO: recorded but never written (the writer stopped in between); found at start-up by ${voidedBy.id} at ${voidedBy.time}`,
        ]),
    ...(undoneBy === undefined ? [] : [`Undone   by ${undoneBy.id} at ${undoneBy.time}`]),
    `Before   ${text(e.beforeSha256, e.beforeStored)}`,
    `After    ${text(e.afterSha256, e.afterStored)}`,
  ];
}

/** The change as a diff, or why it cannot be shown. */
export function entryDiff(journal: Journal, e: JournalEntry, words: boolean): string {
  const before = e.beforeSha256 === null ? null : journal.textOf(e.beforeSha256);
  const after = e.afterSha256 === null ? null : journal.textOf(e.afterSha256);
  const missing: string[] = [];
  if (e.beforeSha256 !== null && before === null) missing.push('before');
  if (e.afterSha256 !== null && after === null) missing.push('after');
  if (missing.length > 0) {
    return `No diff: the ${missing.join(' and ')} text is not stored (over 5 MB, or missing from the journal's blobs).\n`;
  }
  if (words) {
    const out = wordDiffOf(before ?? '', after ?? '');
    return out.endsWith('\n') ? out : `${out}\n`;
  }
  return diffOf(before, after, { name: e.note });
}

/** The owner's decision an entry records, in words: "you rejected staged change ID (reason: …)". */
export function decisionText(e: JournalEntry): string {
  const d = e.decision;
  if (d === undefined) return '';
  const change = d.pending === undefined ? '' : ` staged change ${d.pending}`;
  switch (d.action) {
    case 'approve': {
      const h = d.hunks;
      const part =
        h === undefined || h.kept.length === h.total ? '' : ` (hunks ${h.kept.join(', ')} of ${h.total})`;
      return `you approved${change}${part}${d.merged === true ? ', merged onto your later edits' : ''}`;
    }
    case 'reject':
      return `you rejected${change}${d.reason === undefined ? '' : ` (reason: ${d.reason})`}`;
    case 'put_back':
      return `you put${change} back to pending`;
    case 'undo':
      return 'your undo';
  }
}
