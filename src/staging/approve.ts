/**
 * @module
 * The owner's decisions on staged changes (SPEC 5.2). Approving writes the note under its lock, but
 * only if the note is still exactly what the agent saw: otherwise nothing is written and the change
 * stays pending, so approval can never overwrite an edit made meanwhile. `onWrite` runs before the
 * write (the journal records the change there) and may throw to stop it.
 */
import { isNotedError, NotedError } from '../common/errors.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import { refuseDuringConversion } from '../vault/conversion-marker.js';
import { moveToTrash } from '../vault/trash.js';
import type { Vault } from '../vault/vault.js';
import { applyHunks, hunksOf } from './hunks.js';
import type { PendingStore } from './pending-store.js';
import { mergeHunks, mergePlan } from './three-way.js';
import type { ChangeKind, PendingChange, PendingSummary } from './types.js';
import { withoutTexts } from './without-texts.js';

/** What is about to be written, for the journal. `before` null: a create; `after` null: a delete. */
export interface ApprovedWrite {
  readonly change: PendingSummary;
  readonly note: string;
  readonly kind: ChangeKind;
  readonly before: string | null;
  readonly after: string | null;
  /** For an update: how many hunks it had and which were applied (the owner's decision). */
  readonly hunks?: ApproveResult['hunks'];
  /** The kept hunks were merged onto the owner's later edits (three-way). */
  readonly merged?: boolean;
}

/** The owner rejected a change, or put a rejected one back to pending: no note is written. */
export interface DecisionInfo {
  readonly change: PendingSummary;
  /** `approve` here only when the kept hunks changed nothing (no note is written, nothing else records it). */
  readonly action: 'approve' | 'reject' | 'put_back';
  readonly reason: string | null;
}

/** Called before a rejection or a put-back is carried out (the journal records it); throwing stops it. */
export type OnDecision = (info: DecisionInfo) => void;

/**
 * Called under the note's lock just before the write; throwing stops it (nothing is written). It may
 * return a function to call when the write then did not happen after all (a file saved or created by
 * an editor at that moment), given the note's bytes as found: the journal voids its entry there.
 */
export type OnApprovedWrite = (info: ApprovedWrite) => NotMade | undefined;
export type NotMade = (now: Buffer | null) => void;

export interface ApproveOptions {
  /** For an update: the hunk numbers to apply (from 1); the rest are dropped. Default: all. */
  readonly keep?: readonly number[];
  /**
   * For an outdated update: the etag of the note as the owner saw it when the merge was shown. The
   * kept hunks (default: every clean one) are merged three ways onto the note, which must still have
   * this etag; a hunk that overlaps the owner's later edits is refused, never applied.
   */
  readonly onto?: string;
  readonly onWrite: OnApprovedWrite;
  /** Records an approval that writes nothing (the kept hunks leave the note as it is). */
  readonly onDecision?: OnDecision;
  /** The clock for the trash id of an approved deletion. */
  readonly now?: () => Date;
}

export interface ApproveResult {
  readonly id: string;
  readonly note: string;
  readonly kind: ChangeKind;
  /** `unchanged`: the kept hunks left the note as it was, so nothing was written. */
  readonly outcome: 'created' | 'updated' | 'trashed' | 'unchanged';
  /** The note's etag after a create or update. */
  readonly etag: string | null;
  /** The trash deletion id after a delete. */
  readonly trashId: string | null;
  /** For an update: how many hunks it had and which were applied. */
  readonly hunks: { readonly total: number; readonly kept: readonly number[] } | null;
  /** The kept hunks were merged onto the note as the owner left it (`onto`). */
  readonly merged?: boolean;
}

/**
 * Approves one pending change: checks the note is as the agent saw it, calls `onWrite`, writes
 * (or trashes), then removes the change. Refusals are `NotedError`s (`conflict` when the note changed
 * or is gone, `already_exists` when a create's note exists now, `not_found` for an unknown id,
 * `validation_error` for a bad `keep`); after a refusal nothing is written and the change is kept.
 */
export async function approve(
  vault: Vault,
  store: PendingStore,
  id: string,
  options: ApproveOptions,
): Promise<ApproveResult> {
  refuseDuringConversion(vault.stateDir, 'approve a change');
  const change = store.get(id);
  const { note, kind } = change;
  let hunks: ApproveResult['hunks'] = null;
  let after = change.newText;
  if (options.onto !== undefined && kind !== 'update') {
    throw new NotedError(
      'validation_error',
      `Change ${id} is a ${kind === 'create' ? 'new note' : 'deletion'}, which cannot be merged onto later edits. Nothing was written; approve it whole or reject it.`,
      { id },
    );
  }
  if (kind === 'update') {
    const base = change.baseText as string;
    const next = change.newText as string;
    const total = hunksOf(base, next).length;
    const keep = options.keep === undefined ? range(total) : [...new Set(options.keep)].sort((a, b) => a - b);
    if (options.keep !== undefined && keep.length === 0) {
      throw new NotedError(
        'validation_error',
        `Keeping no hunk would approve nothing. Nothing was written; reject change ${id} instead, or keep at least one hunk.`,
        { id },
      );
    }
    after = applyHunks(base, next, keep);
    hunks = { total, kept: keep };
  } else if (options.keep !== undefined) {
    throw new NotedError(
      'validation_error',
      `Change ${id} is a ${kind === 'create' ? 'new note' : 'deletion'}, which has no hunks to choose from. Nothing was written; approve it whole or reject it.`,
      { id },
    );
  }
  const now = options.now ?? (() => new Date());

  return vault.withNoteLock(note, (): ApproveResult => {
    // Another reviewer (the console, a second terminal) may have decided on it while we waited.
    store.summary(id);
    const current = vault.read(note, ANYWHERE);
    const summary: PendingSummary = withoutTexts(change);
    let merged = false;
    if (kind === 'create') {
      if (current !== null) throw existsNow(id, note);
    } else if (current === null) {
      throw changedSince(id, note, 'was deleted or moved', null);
    } else if (current.etag !== change.baseEtag) {
      if (options.onto === undefined) throw changedSince(id, note, 'was changed', current.etag);
      const onto = mergedOnto(change, current, options.onto, options.keep);
      after = onto.after;
      hunks = onto.hunks;
      merged = true;
    }
    const result = { id, note, kind, etag: null, trashId: null, hunks, ...(merged ? { merged } : {}) };
    if (current !== null && !current.lossless && hunks !== null && hunks.kept.length < hunks.total) {
      // The unchanged parts would be written back from decoded text, losing the bytes that are not UTF-8.
      throw new NotedError(
        'not_supported',
        `Change ${id} cannot be approved in part: "${note}" holds bytes that are not valid UTF-8, which a partial approval would not keep. Nothing was written and the change is still pending; approve it whole or reject it.`,
        { id, note, committed: false },
      );
    }
    if (current !== null && after === current.text) {
      options.onDecision?.({ change: summary, action: 'approve', reason: null });
      store.remove(id);
      return { ...result, outcome: 'unchanged' };
    }
    const notMade = options.onWrite({
      change: summary,
      note,
      kind,
      before: current?.text ?? null,
      after,
      hunks,
      merged,
    });
    const refuse = (err: NotedError): NotedError => {
      if (typeof notMade === 'function') notMade(vault.read(note, ANYWHERE)?.bytes ?? null);
      return err;
    };
    let done: ApproveResult;
    if (kind === 'delete') {
      done = { ...result, outcome: 'trashed', trashId: moveToTrash(vault, note, now()) };
    } else if (kind === 'create') {
      const written = vault.create(note, after as string);
      // Someone created it between the check and here (outside the lock: an editor); never replace it.
      if (written === null) throw refuse(existsNow(id, note));
      done = { ...result, outcome: 'created', etag: written.etag };
    } else {
      done = {
        ...result,
        outcome: 'updated',
        etag: writeIfStill(vault, note, after as string, current, refuse, id),
      };
    }
    store.remove(id);
    return done;
  });
}

export type BatchOutcome =
  | { readonly id: string; readonly note: string; readonly ok: true; readonly result: ApproveResult }
  | { readonly id: string; readonly note: string; readonly ok: false; readonly error: NotedError };

/** One change to approve, with the hunks to keep (all when absent). */
export interface ApproveChoice {
  readonly id: string;
  readonly keep?: readonly number[];
}

/**
 * Approves the given changes in the order given, each on its own with its own hunks: a refused one is
 * reported and the others go on. Two changes to one note: once the first is written the second is
 * stale and refused. A change not listed is left pending, so an owner approves only what was shown.
 */
export async function approveEach(
  vault: Vault,
  store: PendingStore,
  choices: readonly ApproveChoice[],
  options: Omit<ApproveOptions, 'keep'>,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  for (const { id, keep } of choices) {
    let note = '';
    try {
      note = store.summary(id).note;
    } catch {
      // Unknown or damaged: approve says why, below.
    }
    try {
      const result = await approve(vault, store, id, { ...options, ...(keep === undefined ? {} : { keep }) });
      outcomes.push({ id, note: result.note, ok: true, result });
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      outcomes.push({ id, note, ok: false, error: err });
    }
  }
  return outcomes;
}

/** Approves every pending change, oldest first, whole (see `approveEach`). */
export function approveAll(
  vault: Vault,
  store: PendingStore,
  options: Omit<ApproveOptions, 'keep'>,
): Promise<BatchOutcome[]> {
  return approveEach(
    vault,
    store,
    store.list().map(({ id }) => ({ id })),
    options,
  );
}

/**
 * An outdated update merged onto the note as the owner left it: only when the note is still the one
 * whose merge the owner saw (`onto`), and only with hunks that do not touch the owner's edits.
 */
function mergedOnto(
  change: PendingChange,
  current: { etag: string; text: string; lossless: boolean },
  onto: string,
  keep: readonly number[] | undefined,
): { after: string; hunks: { total: number; kept: number[] } } {
  const { id, note } = change;
  if (current.etag !== onto) {
    throw new NotedError(
      'conflict',
      `Change ${id} was not approved: "${note}" changed again after you looked at it, so the hunks you chose may no longer fit. Nothing was written and the change is still pending; look at it again.`,
      { id, note, currentEtag: current.etag, committed: false },
    );
  }
  if (!current.lossless) {
    throw new NotedError(
      'not_supported',
      `Change ${id} cannot be merged: "${note}" holds bytes that are not valid UTF-8, which a merge would not keep. Nothing was written and the change is still pending; reject it, or let the agent redo it.`,
      { id, note, committed: false },
    );
  }
  const base = change.baseText as string;
  const next = change.newText as string;
  const plan = mergePlan(base, current.text, next);
  const kept =
    keep === undefined
      ? plan.filter((h) => !h.conflict).map((h) => h.index)
      : [...new Set(keep)].sort((a, b) => a - b);
  if (kept.length === 0) {
    throw new NotedError(
      'validation_error',
      `Every hunk of change ${id} overlaps edits made to "${note}" after the agent read it, so nothing can be applied. Nothing was written; reject the change, or let the agent redo it on the current text.`,
      { id, note, committed: false },
    );
  }
  return { after: mergeHunks(base, current.text, next, kept), hunks: { total: plan.length, kept } };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/**
 * Writes the approved text only if the note still holds the version checked above, right before the
 * rename: an editor takes no lock and may save while the journal records the change.
 */
function writeIfStill(
  vault: Vault,
  note: string,
  text: string,
  current: { etag: string } | null,
  refuse: (err: NotedError) => NotedError,
  id: string,
): string {
  try {
    return vault.write(note, text, current === null ? {} : { ifStill: current.etag }).etag;
  } catch (err) {
    if (!isNotedError(err) || err.details.changedOnDisk !== true) throw err;
    const etag = vault.read(note, ANYWHERE)?.etag ?? null;
    throw refuse(changedSince(id, note, etag === null ? 'was deleted or moved' : 'was changed', etag));
  }
}

function changedSince(id: string, note: string, what: string, currentEtag: string | null): NotedError {
  return new NotedError(
    'conflict',
    `Change ${id} was not approved: "${note}" ${what} since the agent saw it, and approving would overwrite that. Nothing was written and the change is still pending. Look at the note, then reject the change (noted-mcp review reject ${id}) or let the agent redo it on the current text.`,
    { id, note, currentEtag, committed: false },
  );
}

function existsNow(id: string, note: string): NotedError {
  return new NotedError(
    'already_exists',
    `Change ${id} was not approved: it creates "${note}", but a note of that name exists now and would be replaced. Nothing was written and the change is still pending. Rename or remove the existing note, or reject the change (noted-mcp review reject ${id}).`,
    { id, note, committed: false },
  );
}
