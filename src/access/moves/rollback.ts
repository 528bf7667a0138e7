/**
 * @module
 * Undoing a move that was cancelled halfway (SPEC 14.2: a move group is left fully applied or undone).
 * The notes it moved or rewrote are put back by the journal's own undo, as one unit: each only while
 * it is still exactly what the move left, every step journaled (so a moved note's copy at the new name
 * goes to the trash, as every undone creation does). Attachments it moved go back where they were, and
 * the link rewrites it staged for review are withdrawn.
 *
 * When something cannot be put back (an editor saved a moved note in the meantime), the answer says
 * exactly which notes are left as the move made them; nothing is overwritten to force it.
 */
import { NotedError } from '../../common/errors.js';
import { isCancelled } from '../../common/work.js';
import { undoEntries } from '../../journal/undo.js';
import type { AccessContext } from '../context.js';
import type { Rules } from '../rules/rules.js';
import type { MoveWriter } from './apply.js';

export interface RollbackOutcome {
  /** True when everything the move did was put back. */
  readonly undone: boolean;
  /** Notes and attachments left as the move made them, and why. */
  readonly left: { name: string; reason: string }[];
}

/** Puts back what `who` did; `attachments` are the [from, to] moves of attachments made so far. */
export async function rollBack(
  ctx: AccessContext,
  rules: Rules,
  who: MoveWriter,
  attachments: readonly (readonly [string, string])[] = [],
): Promise<RollbackOutcome> {
  const left: { name: string; reason: string }[] = [];
  for (const id of who.staged) ctx.pending.remove(id);
  if (who.recorded.length > 0) {
    const outcomes = await undoEntries(ctx.journal, who.recorded, {
      session: who.session,
      client: who.client,
    });
    for (const o of outcomes) if (o.outcome !== 'undone') left.push({ name: o.note, reason: o.reason ?? '' });
  }
  for (const [from, to] of [...attachments].reverse()) {
    if (!ctx.vault.move(to, from, rules.writable))
      left.push({ name: to, reason: `a file appeared at "${from}" meanwhile` });
  }
  ctx.index.touched([...new Set([...who.recorded.map((e) => e.note), ...attachments.flat()])]);
  return { undone: left.length === 0, left };
}

/**
 * The `cancelled` error a move answers with once it stopped: nothing had been changed yet, or what it
 * had changed was undone, or (rarely) some of it could not be undone.
 */
export function cancelledMove(
  what: string,
  reason: string,
  rollback: RollbackOutcome | null,
  group: string,
): NotedError {
  if (rollback === null) {
    return new NotedError('cancelled', `${reason} ${what} was stopped before anything was changed.`, {
      committed: false,
      undone: true,
    });
  }
  if (rollback.undone) {
    return new NotedError(
      'cancelled',
      `${reason} ${what} was stopped and what it had already done was undone: the vault is as it was before the call (journal group ${group} and its undo record both steps).`,
      { committed: false, undone: true, group },
    );
  }
  const names = rollback.left.map((l) => `${l.name} (${l.reason})`).join('; ');
  return new NotedError(
    'cancelled',
    `${reason} ${what} was stopped, but not all of it could be undone: ${rollback.left.length} file(s) stay as the move left them: ${names}. The rest was put back. Look at those files before going on.`,
    { committed: true, undone: false, group, left: rollback.left },
  );
}

/**
 * A `.catch` for the steps of a move before it writes anything: a cancellation there changed nothing
 * and answers so; any other failure passes through.
 */
export function cancelledBeforeWriting(what: string, group: string): (err: unknown) => never {
  return (err) => {
    throw isCancelled(err) ? cancelledMove(what, err.message, null, group) : err;
  };
}
