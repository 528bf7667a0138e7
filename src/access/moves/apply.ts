/**
 * @module
 * Carrying out a planned move: each moved note under the locks of its old and new names (re-read,
 * journaled as a `delete` of the old name plus a `create` of the new one, moved without ever
 * replacing a file), then each note whose links change under its own lock, written only while it is
 * still the version that was planned. Every journal entry carries the operation's group, so
 * `noted-mcp undo --group ID` puts the move and every rewrite back together (SPEC 6.3).
 */
import { NotedError } from '../../common/errors.js';
import type { Work } from '../../common/work.js';
import type { JournalEntry } from '../../journal/entry.js';
import { withNoteLocks } from '../../journal/note-locks.js';
import type { RecordInput } from '../../journal/record-input.js';
import type { LinkEdit } from '../../markdown/link-rewrite.js';
import { ANYWHERE } from '../../vault/checked-folder.js';
import { etagOf } from '../../vault/etag.js';
import { type AccessContext, MAX_NOTE_BYTES, type Writer } from '../context.js';
import { claimChanges } from '../feed/claims.js';
import { existingCaseVariant, notFound } from '../resolve.js';
import { stage } from '../rules/permission.js';
import type { Rules } from '../rules/rules.js';
import { checkExpected } from '../write.js';
import type { LinkProblem, MovePlan, SourcePlan } from './plan.js';

/** A link edit as results show it: which note, which line, the text before and after. */
export interface LinkChange extends LinkEdit {
  readonly note: string;
}

/** A note whose links were not rewritten, and why. */
export interface NotUpdated {
  readonly name: string;
  readonly reason: 'read_only' | 'changed' | 'not_supported' | 'too_large' | 'staging_full';
  readonly message: string;
}

/**
 * Who makes a move, and what it has done so far: the journal entries of the changes it made, in
 * order, and the pending changes it staged, so that a cancelled move can be undone exactly
 * (moves/rollback.ts).
 */
export interface MoveWriter extends Writer {
  readonly tool: string;
  readonly group: string;
  readonly recorded: JournalEntry[];
  readonly staged: string[];
}

/** A writer for one move operation, with nothing done yet. */
export function moveWriter(who: Writer, tool: string, group: string): MoveWriter {
  return { session: who.session, client: who.client, tool, group, recorded: [], staged: [] };
}

/** What rewriting the links of the notes that point at moved files did. */
export interface RewriteOutcome {
  readonly updated: string[];
  readonly staged: { note: string; pendingId: string }[];
  readonly notUpdated: NotUpdated[];
}

/**
 * Moves one note: re-reads it under the locks of both names, checks the caller's etag, rewrites its
 * own links again when it changed since planning, journals, then moves. Returns its new etag.
 */
export async function moveOneNote(
  ctx: AccessContext,
  rules: Rules,
  who: MoveWriter,
  plan: MovePlan,
  source: SourcePlan,
  expectedEtag: string | undefined,
): Promise<{ etag: string; edits: LinkEdit[] }> {
  const { name: from, newName: to } = source;
  return withNoteLocks(ctx.vault, [from, to], () => {
    const stored = ctx.vault.read(from, rules.sight);
    if (stored === null) throw notFound(from);
    checkExpected(stored, { expectedEtag });
    requireFreeFor(ctx, rules, from, to);
    let text = source.text;
    let edits = source.edits;
    if (stored.etag !== source.stored.etag) ({ text, edits } = plan.rewrite(from, stored.text));
    const rewritten = stored.lossless && text !== stored.text;
    const after = rewritten ? Buffer.from(text, 'utf8') : stored.bytes;
    if (after.length > MAX_NOTE_BYTES) {
      throw new NotedError('too_large', `"${from}" would be over 5 MB after its links are rewritten.`, {
        name: from,
        committed: false,
      });
    }
    // Recorded before the change (SPEC 6.1); the pair is what undo needs to put the note back.
    const base = { session: who.session, client: who.client, tool: who.tool, group: who.group };
    const inputs: RecordInput[] = [
      { ...base, note: from, kind: 'delete', before: stored.bytes, after: null },
      { ...base, note: to, kind: 'create', before: null, after },
    ];
    claimChanges(ctx, inputs);
    const entries = ctx.journal.recordMany(inputs);
    if (rewritten) {
      if (ctx.vault.create(to, after, rules.writable) === null) throw taken(to);
      // An editor may have saved the old file while the move was journaled: keep that save.
      if (!ctx.vault.removeIfStill(from, stored.etag, rules.writable)) {
        // Taken back the way it was written: only from where it was checked, only while it is ours.
        ctx.vault.removeIfStill(to, etagOf(after), rules.writable);
        const now = ctx.vault.read(from, rules.sight);
        const [fromEntry, toEntry] = entries as [JournalEntry, JournalEntry];
        ctx.journal.voidEntries([
          { entry: fromEntry, now: now?.bytes ?? null },
          { entry: toEntry, now: null },
        ]);
        throw savedMeanwhile(from, now);
      }
    } else if (!ctx.vault.move(from, to, rules.writable)) throw taken(to);
    who.recorded.push(...entries);
    return { etag: ctx.vault.read(to, rules.sight)?.etag ?? '', edits: rewritten ? edits : [] };
  });
}

function savedMeanwhile(from: string, now: { etag: string; text: string } | null): NotedError {
  if (now === null) {
    return new NotedError(
      'not_found',
      `The note "${from}" was deleted on disk while it was being moved. Nothing was moved.`,
      {
        name: from,
        committed: false,
      },
    );
  }
  return new NotedError(
    'conflict',
    `The note "${from}" was saved on disk (by an editor or another program) while it was being moved, so nothing was moved and the save is kept; the journal records that the move was not made. Its current text is included (etag ${now.etag}): move it again if you still want to.`,
    { name: from, currentEtag: now.etag, currentText: now.text, committed: false },
  );
}

/** Moves an attachment (not journaled: the journal records notes, SPEC 6.1). */
export async function moveAttachment(
  ctx: AccessContext,
  rules: Rules,
  from: string,
  to: string,
): Promise<void> {
  if (!ctx.vault.move(from, to, rules.writable)) throw taken(to);
}

/**
 * Notes rewritten under one set of locks, with one journal append and one batch of file syncs: a
 * thousand notes written one by one cost several fsyncs each, seconds in all.
 */
const REWRITE_BATCH = 200;

/**
 * Writes the planned rewrites of the notes that do not move. Each note is written under its lock and
 * only while it is the version planned: one changed meanwhile is left alone and reported, never
 * overwritten. Read-only notes are reported; in staged folders the rewrite becomes a pending change.
 * Every note of a batch is journaled before any of them is written (SPEC 6.1).
 */
export async function applyRewrites(
  ctx: AccessContext,
  rules: Rules,
  who: MoveWriter,
  sources: readonly SourcePlan[],
  work: Work,
): Promise<RewriteOutcome> {
  const out: RewriteOutcome = { updated: [], staged: [], notUpdated: [] };
  if (sources.length === 0) return out;
  const writable: { source: SourcePlan; staged: boolean }[] = [];
  for (const source of sources) {
    const access = rules.accessOf(source.name);
    if (access === 'read-only') {
      out.notUpdated.push({
        name: source.name,
        reason: 'read_only',
        message: 'read-only for agents by vault policy: its links were not rewritten',
      });
      continue;
    }
    if (access === 'hidden') continue;
    if (!source.stored.lossless) {
      out.notUpdated.push({
        name: source.name,
        reason: 'not_supported',
        message: 'holds bytes that are not valid UTF-8, so it was not rewritten',
      });
      continue;
    }
    if (Buffer.byteLength(source.text, 'utf8') > MAX_NOTE_BYTES) {
      out.notUpdated.push({ name: source.name, reason: 'too_large', message: 'would be over 5 MB' });
      continue;
    }
    writable.push({ source, staged: access === 'staged' });
  }
  for (let i = 0; i < writable.length; i += REWRITE_BATCH) {
    work.report(i, writable.length, `rewriting links: ${i} of ${writable.length} notes`);
    await work.checkpoint();
    const batch = writable.slice(i, i + REWRITE_BATCH);
    await withNoteLocks(
      ctx.vault,
      batch.map((b) => b.source.name),
      () => rewriteBatch(ctx, rules, who, batch, out),
    );
  }
  return out;
}

/** One batch of applyRewrites, under the locks of all its notes. */
function rewriteBatch(
  ctx: AccessContext,
  rules: Rules,
  who: MoveWriter,
  batch: readonly { source: SourcePlan; staged: boolean }[],
  out: RewriteOutcome,
): void {
  const direct: { name: string; before: Buffer; etag: string; text: string }[] = [];
  for (const { source, staged } of batch) {
    const stored = ctx.vault.read(source.name, rules.sight);
    if (stored === null || stored.etag !== source.stored.etag) {
      out.notUpdated.push({
        name: source.name,
        reason: 'changed',
        message: 'changed (or went away) after the move was planned, so it was not overwritten',
      });
      continue;
    }
    if (!staged) {
      direct.push({ name: source.name, before: stored.bytes, etag: stored.etag, text: source.text });
      continue;
    }
    try {
      const pending = stage(ctx, who, {
        tool: who.tool,
        note: source.name,
        kind: 'update',
        baseEtag: stored.etag,
        baseText: stored.text,
        newText: source.text,
      });
      out.staged.push({ note: source.name, pendingId: pending.pendingId });
      who.staged.push(pending.pendingId);
    } catch (err) {
      // A full staging area is the one expected refusal here; anything else is a real failure.
      if (!(err instanceof NotedError)) throw err;
      out.notUpdated.push({ name: source.name, reason: 'staging_full', message: err.message });
    }
  }
  if (direct.length === 0) return;
  const base = { session: who.session, client: who.client, tool: who.tool, group: who.group };
  const inputs = direct.map(
    (d): RecordInput => ({ ...base, note: d.name, kind: 'update', before: d.before, after: d.text }),
  );
  claimChanges(ctx, inputs);
  const entries = ctx.journal.recordMany(inputs);
  const { changedOnDisk } = ctx.vault.writeMany(
    direct.map((d) => ({ name: d.name, text: d.text, ifStill: d.etag })),
    rules.writable,
  );
  const skipped = new Set(changedOnDisk);
  who.recorded.push(...entries.filter((entry) => !skipped.has(entry.note)));
  for (const d of direct) {
    if (!skipped.has(d.name)) out.updated.push(d.name);
    else
      out.notUpdated.push({
        name: d.name,
        reason: 'changed',
        message: 'saved on disk while the move was being made, so it was not overwritten',
      });
  }
  ctx.journal.voidEntries(
    entries.flatMap((entry) =>
      skipped.has(entry.note) ? [{ entry, now: ctx.vault.read(entry.note, ANYWHERE)?.bytes ?? null }] : [],
    ),
  );
}

/** Refuses a destination taken by another note, also in another letter case. */
export function requireFreeFor(ctx: AccessContext, rules: Rules, from: string, to: string): void {
  const existing = existingCaseVariant(ctx, rules, to);
  if (existing !== null && existing !== from) {
    throw new NotedError(
      'already_exists',
      `A note "${existing}" already exists, so "${from}" was not moved there. Choose another name, or move or delete that note first.`,
      { name: existing, committed: false },
    );
  }
}

function taken(to: string): NotedError {
  return new NotedError(
    'already_exists',
    `A file appeared at "${to}" a moment ago, so nothing was moved over it. Choose another name.`,
    { name: to, committed: false },
  );
}

/** The link changes of a plan, as results list them, at most `limit`. */
export function linkChanges(sources: readonly SourcePlan[], limit: number): LinkChange[] {
  const out: LinkChange[] = [];
  for (const s of sources) {
    for (const e of s.edits) {
      if (out.length >= limit) return out;
      out.push({ note: s.name, ...e });
    }
  }
  return out;
}

/** Drops repeats (a note re-planned after it changed reports its links again). */
export function uniqueProblems<T extends LinkProblem>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((p) => {
    const key = `${p.note}\0${p.line}\0${p.raw}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
