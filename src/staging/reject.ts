/**
 * @module
 * The owner's decisions that write no note (SPEC 5.2, 9.4): rejecting a staged change, which keeps it
 * under "Rejected" for 30 days and journals the decision, and putting a rejected change back to
 * pending. Approving, which writes, is approve.ts.
 */
import { NotedError } from '../common/errors.js';
import type { OnDecision } from './approve.js';
import type { PendingStore } from './pending-store.js';
import { MAX_REASON_CHARS, type RejectedStore } from './rejected-store.js';
import type { PendingSummary } from './types.js';
import { withoutTexts } from './without-texts.js';

export interface RejectOptions {
  /** Where the rejected change is kept for 30 days (absent: it is only removed; tests of old paths). */
  readonly keep?: RejectedStore;
  /** The owner's reason, kept with it and journaled. */
  readonly reason?: string | null;
  /** Records the decision (the journal) before the change leaves pending; throwing stops it. */
  readonly onDecision?: OnDecision;
}

/**
 * Rejects a pending change without touching the note: it is journaled as the owner's decision, kept
 * under "Rejected" for 30 days and removed from pending. `not_found` for an unknown id. A damaged file
 * cannot be kept or named in the journal; rejecting it only removes it.
 */
export function reject(
  store: PendingStore,
  id: string,
  options: RejectOptions = {},
): { id: string; note: string | null } {
  const reason = reasonOf(options.reason);
  let claim: ReturnType<PendingStore['claim']>;
  try {
    claim = store.claim(id);
  } catch (err) {
    if (err instanceof NotedError && err.code === 'not_found') {
      throw new NotedError(
        'not_found',
        `There is no pending change ${JSON.stringify(id)}; nothing was rejected.`,
        { id },
      );
    }
    throw err;
  }
  const { change } = claim;
  try {
    // A damaged file can still be rejected: that is how the owner gets rid of it (nothing to keep).
    if (change !== null) {
      options.onDecision?.({ change: withoutTexts(change), action: 'reject', reason });
      options.keep?.keep(change, reason);
    }
  } catch (err) {
    claim.restore();
    throw err;
  }
  claim.done();
  return { id, note: change?.note ?? null };
}

/**
 * Puts a rejected change back to pending, under its own id, and journals it. Refused with
 * `already_exists` when a creation of the same note waits already (approving one of two would refuse
 * the other), `too_large` when 200 changes wait.
 */
export function putBack(
  store: PendingStore,
  rejected: RejectedStore,
  id: string,
  options: { readonly onDecision?: OnDecision } = {},
): { id: string; note: string } {
  const kept = rejected.get(id);
  const { rejectedAt: _at, reason: _reason, keptUntil: _until, ...change } = kept;
  if (change.kind === 'create') {
    const twin = store
      .list()
      .find((c) => c.kind === 'create' && c.note.toLowerCase() === change.note.toLowerCase());
    if (twin !== undefined) {
      throw new NotedError(
        'already_exists',
        `The new note "${change.note}" was not put back: another new note of that name is waiting already. Approve or reject that one first.`,
        { id, note: change.note, pending: twin.id },
      );
    }
  }
  options.onDecision?.({ change: withoutTexts(change), action: 'put_back', reason: null });
  if (store.restore(change)) rejected.remove(id);
  else rejected.remove(id); // already pending under that id (a crash between keep and remove)
  return { id, note: change.note };
}

function reasonOf(reason: string | null | undefined): string | null {
  const text = (reason ?? '').trim();
  if (text === '') return null;
  if (text.length > MAX_REASON_CHARS) {
    throw new NotedError(
      'validation_error',
      `The reason is ${text.length} characters long; say it in at most ${MAX_REASON_CHARS}. Nothing was rejected.`,
      { length: text.length },
    );
  }
  return text;
}

/** Rejects every readable pending change (each kept and journaled); returns them. Damaged files stay. */
export function rejectAll(store: PendingStore, options: RejectOptions = {}): PendingSummary[] {
  return store.list().filter((change) => {
    try {
      reject(store, change.id, options);
      return true;
    } catch (err) {
      if (err instanceof NotedError && err.code === 'not_found') return false;
      throw err;
    }
  });
}
