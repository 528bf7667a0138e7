/**
 * @module
 * Undo (SPEC 6.3): puts a note back to the text it had before an agent's change, but only while the
 * note is still exactly what the agent left. A session's changes are undone newest first; the entries
 * of one group are undone together or not at all. Every undo is itself journaled (kind `undo`), before
 * the note is written and under the note's lock, and is never undone in turn.
 *
 * Decisions where the spec is silent:
 * - `--session` skips changes already undone and undo entries, so running it twice is harmless; a
 *   group inside the session is still undone as one unit (and refused whole when a member of it was
 *   already undone on its own).
 * - A single entry of a group may be undone on its own when named by id: the person asked for it.
 * - An entry whose before- or after-text was recorded by hash only (over 5 MB) is not undone.
 * - A change recorded but never made (voided by a `not_applied` entry, see reconcile.ts) is not
 *   undone, nor is the `not_applied` entry itself: nothing happened. Named alone it is refused with
 *   that reason; inside a session or group it is left out, and the rest is undone as usual.
 *
 * Security: only an entry the journal proves is undone (SPEC 6.2): one in the intact part of the chain
 * whose own code this machine's key checked (verify.ts), in a journal that does not fail as a whole. An
 * entry made up by whoever had only the vault (a `delete` with a text beside it, to have undo create a
 * note anywhere) is refused, also when planted without a code before the first authenticated entry
 * (which chains to it but proves nothing about it), as is every entry of a journal replaced wholesale
 * (another vault's, signed with the same key), and entries this machine cannot authenticate.
 */
import fs from 'node:fs';
import { isNotedError, NotedError } from '../common/errors.js';
import { setVaultConfigFormat } from '../vault/config.js';
import { CONVERSION_TOOL, refuseDuringConversion } from '../vault/conversion-marker.js';
import { etagOf } from '../vault/etag.js';
import { ENDING_OF, FORMAT_NAMES } from '../vault/format-name.js';
import { moveToTrash } from '../vault/trash.js';
import { dayOfId, entryHash, type JournalEntry, newGroupId, sha256Hex } from './entry.js';
import { withNoteLocks } from './note-locks.js';
import { endOperation } from './operations.js';
import { isMove, removeEmptyFolders } from './undo-folders.js';
import type { UndoJournal, UndoTarget } from './undo-journal.js';
import { unitsOf, voidedEntries } from './undo-units.js';
import type { VerifyResult } from './verify.js';

/** What verify found, with the hashes of the intact entries in order. */
interface Verified {
  readonly result: VerifyResult;
  readonly hashes: readonly string[];
  /** The hashes of the intact entries whose own code this machine's key checked. */
  readonly checked: ReadonlySet<string>;
}

/** Who undoes: recorded on the undo entries like any other change. */
export interface UndoContext {
  readonly session: string;
  readonly client: string | null;
  /** The vault owner undoes (the CLI, the console): the undo entries record it as the owner's decision. */
  readonly owner?: boolean;
}

/**
 * Why an undo was refused, for a reader that words it its own way (the console says what to do without
 * naming commands): the note changed since, is gone, or a note stands where a deleted one would return;
 * the change was undone already, is itself an undo, was never made, or is a decision that changed no
 * note; a text is too large or missing; the journal does not prove it; another change of its operation
 * is refused (`with_group`); or the write failed.
 */
export type UndoRefusal =
  | 'changed_since'
  | 'gone'
  | 'exists_again'
  | 'already_undone'
  | 'is_undo'
  | 'not_applied'
  | 'decision'
  | 'too_large'
  | 'missing_text'
  | 'unproven'
  | 'with_group'
  | 'failed';

export interface UndoOutcome {
  /** The entry that was (or was not) undone. */
  readonly entry: string;
  readonly note: string;
  readonly outcome: 'undone' | 'refused';
  /** Why it was refused. */
  readonly reason?: string;
  /** Why it was refused, as a code. */
  readonly why?: UndoRefusal;
  /** The id of the `undo` entry that records it, when undone. */
  readonly undoEntry?: string;
}

export interface UndoResult {
  /** In the order they were undone (newest change first). */
  readonly outcomes: UndoOutcome[];
}

/** A note's bytes as the undo sees them: on disk, or as an earlier step of the same unit left them. */
type NoteState = Buffer | null;

type Plan =
  | { readonly ok: true; readonly entry: JournalEntry; readonly current: Buffer; readonly action: 'trash' }
  | {
      readonly ok: true;
      readonly entry: JournalEntry;
      readonly current: NoteState;
      readonly action: 'write' | 'create';
      readonly text: Buffer;
    }
  | { readonly ok: false; readonly entry: JournalEntry; readonly reason: string; readonly why: UndoRefusal };

export async function undoChanges(
  journal: UndoJournal,
  target: UndoTarget,
  ctx: UndoContext,
): Promise<UndoResult> {
  refuseDuringConversion(journal.vault.stateDir, 'undo');
  const outcomes: UndoOutcome[] = [];
  const units = unitsOf(journal, target);
  for (const unit of units) outcomes.push(...(await undoUnit(journal, unit, ctx)));
  followUndoneConversion(journal, units.flat(), outcomes);
  // An interrupted operation undone whole is repaired: it is no longer reported (operations.ts).
  if ('group' in target && outcomes.length > 0 && outcomes.every((o) => o.outcome === 'undone')) {
    endOperation(journal.vault, target.group);
  }
  return { outcomes };
}

/**
 * Undoing a conversion (noted-mcp convert) brings back the notes it converted from: the vault's
 * recorded format follows them, or servers would go on looking for the other format's notes, now gone.
 */
function followUndoneConversion(
  journal: UndoJournal,
  entries: readonly JournalEntry[],
  outcomes: readonly UndoOutcome[],
): void {
  // The undone entries are among those planned: looked up there, not read again from the journal
  // (a day file read per outcome would make a large undo quadratic).
  const undone = new Set(outcomes.filter((o) => o.outcome === 'undone').map((o) => o.entry));
  for (const entry of entries) {
    if (!undone.has(entry.id) || entry.tool !== CONVERSION_TOOL || entry.kind !== 'delete') continue;
    const format = FORMAT_NAMES.find((f) => entry.note.toLowerCase().endsWith(ENDING_OF[f]));
    if (format !== undefined) {
      setVaultConfigFormat(journal.vault.stateDir, format);
      return;
    }
  }
}

/**
 * Undoes the given entries together, or none of them (the entries one operation recorded before it
 * was cancelled: see access/moves/rollback.ts). `entries` in the order they were recorded.
 */
export function undoEntries(
  journal: UndoJournal,
  entries: readonly JournalEntry[],
  ctx: UndoContext,
): Promise<UndoOutcome[]> {
  return undoUnit(journal, [...entries].reverse(), ctx);
}

async function undoUnit(
  journal: UndoJournal,
  unit: JournalEntry[],
  ctx: UndoContext,
): Promise<UndoOutcome[]> {
  const notes = unit.map((e) => e.note);
  return withNoteLocks(journal.vault, notes, () => {
    // Checked again under the locks: another process may have undone or changed something meanwhile.
    const hashes: string[] = [];
    const checked = new Set<string>();
    const result = journal.verify({ texts: false, hashes, checked });
    const plans = planUnit(journal, unit, { result, hashes, checked });
    const blocker = plans.find((p) => !p.ok);
    if (blocker !== undefined && !blocker.ok) {
      return plans.map((p) =>
        p.ok
          ? refused(
              p.entry,
              `not undone, because the changes of group ${p.entry.group} are undone together or not at all, and the change to "${blocker.entry.note}" (entry ${blocker.entry.id}) cannot be undone: ${blocker.reason}`,
              'with_group',
            )
          : refused(p.entry, p.reason, p.why),
      );
    }
    const group = unit.length > 1 ? newGroupId(journal.now()) : undefined;
    const outcomes: UndoOutcome[] = [];
    let failure: string | null = null;
    for (const plan of plans) {
      if (!plan.ok) continue;
      if (failure !== null) {
        outcomes.push(
          refused(plan.entry, `not undone, because an earlier undo of this set failed: ${failure}`, 'failed'),
        );
        continue;
      }
      try {
        outcomes.push(apply(journal, plan, ctx, group));
      } catch (err) {
        failure = isNotedError(err) || err instanceof Error ? err.message : String(err);
        outcomes.push(refused(plan.entry, failure, 'failed'));
      }
    }
    if (isMove(unit)) {
      for (const plan of plans) {
        if (plan.ok && plan.action === 'trash') removeEmptyFolders(journal, plan.entry.note);
      }
    }
    return outcomes;
  });
}

/** Decides, for each entry of a unit in order, whether and how it can be undone. */
function planUnit(journal: UndoJournal, unit: JournalEntry[], verified: Verified): Plan[] {
  const days = unit.map((e) => dayOfId(e.id)).filter((d): d is string => d !== null);
  const from = days.length === unit.length ? days.sort()[0] : undefined;
  const later = journal.entries(from);
  const voided = voidedEntries(later);
  const undoneBy = new Map<string, string>();
  for (const e of later) if (e.undoOf !== undefined && !voided.has(e.id)) undoneBy.set(e.undoOf, e.id);
  const states = new Map<string, NoteState>();
  const stateOf = (note: string): NoteState => {
    if (!states.has(note)) states.set(note, readCurrent(journal, note));
    return states.get(note) as NoteState;
  };
  return unit.map((entry): Plan => {
    const no = (reason: string, why: UndoRefusal): Plan => ({ ok: false, entry, reason, why });
    try {
      const unproven = unprovenReason(journal, verified, entry);
      if (unproven !== null) return no(unproven, 'unproven');
      if (entry.kind === 'undo') {
        return no(`entry ${entry.id} is itself an undo, and an undo is not undone.`, 'is_undo');
      }
      if (entry.kind === 'decision') {
        return no(
          `entry ${entry.id} records your decision on a staged change (${entry.decision?.action ?? 'a decision'}); it changed no note, so there is nothing to undo.`,
          'decision',
        );
      }
      if (entry.kind === 'not_applied') {
        return no(
          `entry ${entry.id} only notes that entry ${entry.voids} was recorded but never applied; it changed nothing, so there is nothing to undo.`,
          'not_applied',
        );
      }
      const never = voided.get(entry.id);
      if (never !== undefined) {
        return no(
          `recorded but never applied: nothing to undo. The writer stopped between recording this change and making it, so "${entry.note}" never received it (found at start-up, entry ${never}).`,
          'not_applied',
        );
      }
      const by = undoneBy.get(entry.id);
      if (by !== undefined)
        return no(
          `this change was already undone (by entry ${by}); a change is undone once.`,
          'already_undone',
        );
      if (
        (entry.beforeSha256 !== null && !entry.beforeStored) ||
        (entry.afterSha256 !== null && !entry.afterStored)
      ) {
        return no(
          'a text of this change is over 5 MB and was recorded by hash only, so it cannot be undone. Restore the note by hand (from a backup or git).',
          'too_large',
        );
      }
      const current = stateOf(entry.note);
      let plan: Plan;
      if (entry.afterSha256 === null) {
        if (current !== null) {
          return no(
            `a note exists at "${entry.note}" again, so the deleted version was not put back over it. Rename or delete that note first, or restore the text with "noted-mcp journal show ${entry.id}".`,
            'exists_again',
          );
        }
        const text = earlierText(journal, entry);
        if (typeof text === 'string') return no(text, 'missing_text');
        plan = { ok: true, entry, current, action: 'create', text };
      } else {
        if (current === null) {
          return no(
            `the note "${entry.note}" no longer exists (it was deleted or moved since); nothing was undone.`,
            'gone',
          );
        }
        if (sha256Hex(current) !== entry.afterSha256) {
          return no(
            `the note "${entry.note}" changed since the agent wrote it, so undoing would lose those later changes; it was left untouched. Compare with "noted-mcp journal show ${entry.id}" and edit it by hand.`,
            'changed_since',
          );
        }
        if (entry.beforeSha256 === null) {
          plan = { ok: true, entry, current, action: 'trash' };
        } else {
          const text = earlierText(journal, entry);
          if (typeof text === 'string') return no(text, 'missing_text');
          plan = { ok: true, entry, current, action: 'write', text };
        }
      }
      states.set(entry.note, plan.action === 'trash' ? null : plan.text);
      return plan;
    } catch (err) {
      if (isNotedError(err)) return no(err.message, 'failed');
      throw err;
    }
  });
}

/** Why the journal does not prove `entry`, or null when it does (see the module comment). */
function unprovenReason(journal: UndoJournal, verified: Verified, entry: JournalEntry): string | null {
  const refuse = 'an entry that does not verify is not undone. Run "noted-mcp journal verify" for details';
  const { result } = verified;
  // The entry must be the very one the walk found at its place: a copy of a real entry's seq elsewhere
  // in the files is not.
  const walked = verified.hashes[entry.seq - 1] === entry.hash && entryHash(entry) === entry.hash;
  if (!result.ok && result.scope === 'vault') {
    return `the journal does not verify as a whole (${result.reason}), so none of its entries is undone. Run "noted-mcp journal verify" for details`;
  }
  if (!walked && !result.ok) {
    return `the journal does not verify from ${result.brokenAt.id === undefined ? `${result.brokenAt.file} line ${result.brokenAt.line}` : `entry ${result.brokenAt.id}`} on (${result.reason}), and ${refuse}.`;
  }
  if (walked && verified.checked.has(entry.hash)) return null;
  const state = journal.key;
  if (state.key === null) {
    return `the journal cannot be authenticated on this machine (${state.reason}), and ${refuse}.`;
  }
  if (entry.mac === undefined) {
    return `this entry carries no authentication code (written by an earlier version before the journal had a key, or planted by someone without the key), so nothing proves it was an agent's change, and ${refuse}.`;
  }
  return `this entry is not authenticated by this machine's journal key (it was written on another machine, or before the journal had a key, or added by someone without the key), and ${refuse}.`;
}

/** The before-text from the blobs, or why it is not there. */
function earlierText(journal: UndoJournal, entry: JournalEntry): Buffer | string {
  const bytes = journal.bytesOf(entry.beforeSha256 as string);
  return (
    bytes ??
    `the earlier text (sha256 ${entry.beforeSha256}) is missing from the journal's blobs or damaged, so it cannot be put back.`
  );
}

/** Records the undo, then writes: the journal always knows of a change before it happens. */
function apply(
  journal: UndoJournal,
  plan: Extract<Plan, { ok: true }>,
  ctx: UndoContext,
  group: string | undefined,
): UndoOutcome {
  const { entry } = plan;
  const recorded = journal.record({
    session: ctx.session,
    client: ctx.client,
    tool: 'undo',
    note: entry.note,
    kind: 'undo',
    before: plan.current,
    after: plan.action === 'trash' ? null : plan.text,
    undoOf: entry.id,
    ...(group === undefined ? {} : { group }),
    ...(ctx.owner === true ? { decision: { by: 'owner' as const, action: 'undo' as const } } : {}),
  });
  const vault = journal.vault;
  if (plan.action === 'trash') {
    moveToTrash(vault, entry.note, journal.now());
  } else if (plan.action === 'write') {
    // An editor may have saved the note while the undo was journaled: keep that save.
    if (!vault.replaceIfStill(entry.note, plan.text, etagOf(plan.current as Buffer))) {
      journal.voidEntries([{ entry: recorded, now: readCurrent(journal, entry.note) }]);
      throw new NotedError(
        'conflict',
        `the note "${entry.note}" was saved on disk (by an editor or another program) while it was being undone, so that save was kept and nothing was undone (journal entry ${recorded.id} is noted as not applied).`,
      );
    }
  } else if (vault.create(entry.note, plan.text) === null) {
    throw new NotedError(
      'already_exists',
      `a note appeared at "${entry.note}" while undoing, so nothing was written over it (journal entry ${recorded.id} records an undo that did not happen).`,
    );
  }
  return { entry: entry.id, note: entry.note, outcome: 'undone', undoEntry: recorded.id };
}

/** The note's exact bytes, or null when no file is there. */
function readCurrent(journal: UndoJournal, note: string): NoteState {
  const abs = journal.vault.pathOf(note);
  try {
    const st = fs.statSync(abs);
    if (!st.isFile()) {
      throw new NotedError('not_supported', `"${note}" is no longer a file, so it was left alone.`);
    }
    return fs.readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

function refused(entry: JournalEntry, reason: string, why: UndoRefusal): UndoOutcome {
  return { entry: entry.id, note: entry.note, outcome: 'refused', reason, why };
}
