/**
 * @module
 * Batches: moving (`move_notes`) or deleting (`delete_notes`) several notes in one call. Items run one
 * after the other; a refused item does not stop the others and nothing is rolled back — a batch is
 * not a transaction, and each item says whether it was committed. The entries of one batch share a
 * journal group, so `noted-mcp undo --group ID` undoes the whole batch (or, when one of its notes
 * changed since, none of it).
 *
 * A cancelled batch stops between two items (SPEC 14.2): the items done stay done, a move cut short
 * is undone (move.ts), and the items not reached are listed as refused with code `cancelled`.
 */
import { NotedError } from '../../common/errors.js';
import { Cancelled, isCancelled, quiet, unobservedWork, type Work } from '../../common/work.js';
import { newGroupId } from '../../journal/entry.js';
import type { RecordInput } from '../../journal/record-input.js';
import { normalizeNoteName } from '../../vault/names.js';
import { moveToTrash } from '../../vault/trash.js';
import type { AccessContext, Writer } from '../context.js';
import { claimChanges } from '../feed/claims.js';
import { notFound, resolveExisting } from '../resolve.js';
import { stage, writableAccess } from '../rules/permission.js';
import type { Rules } from '../rules/rules.js';
import { requireInScope } from '../rules/scope.js';
import { checkExpected } from '../write.js';
import { type MoveNoteInput, type MoveResult, moveNote } from './move.js';

/** An item the batch could not do, with the error it got. */
export interface BatchRefusal {
  readonly name: string;
  readonly committed: false;
  readonly code: string;
  readonly message: string;
}

export interface BatchResult<T> {
  readonly results: (T | BatchRefusal)[];
  /** The journal group of every change the batch made; absent when it made none. */
  readonly group?: string;
  readonly committedCount: number;
  readonly refusedCount: number;
}

async function runBatch<I extends { name: string }, T extends { committed: boolean }>(
  items: readonly I[],
  group: string,
  work: Work,
  run: (item: I) => Promise<T>,
): Promise<BatchResult<T>> {
  const results: (T | BatchRefusal)[] = [];
  let stopped: string | null = null;
  for (const [i, item] of items.entries()) {
    if (stopped === null) {
      work.report(i, items.length, `${i} of ${items.length} done`);
      try {
        await work.checkpoint();
      } catch (err) {
        if (!isCancelled(err)) throw err;
        stopped = err.message;
      }
    }
    if (stopped !== null) {
      const message = `${stopped} This item was not reached, so nothing was done to it.`;
      results.push({ name: item.name, committed: false, code: 'cancelled', message });
      continue;
    }
    try {
      results.push(await run(item));
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      results.push({ name: item.name, committed: false, code: err.code, message: err.message });
      // A move cut short by the cancellation was undone (its message says so); the rest is not tried.
      if (err.code === 'cancelled') stopped = new Cancelled().message;
    }
  }
  work.report(items.length, items.length, `${items.length} of ${items.length} done`);
  const committedCount = results.filter((r) => r.committed).length;
  return {
    results,
    ...(committedCount > 0 ? { group } : {}),
    committedCount,
    refusedCount: results.filter((r) => 'code' in r).length,
  };
}

/**
 * A batch limited by `in_folder` is refused whole, before any item is done, when one of its notes
 * resolves outside the folder or one of its destinations lies outside (SPEC 12.5). A name that does
 * not resolve is left for its item to report; every item is checked again when it runs.
 */
function requireBatchInScope(
  ctx: AccessContext,
  rules: Rules,
  names: readonly string[],
  destinations: readonly string[] = [],
): void {
  if (rules.scope === undefined) return;
  for (const input of names) {
    let name: string;
    try {
      name = resolveExisting(ctx, rules, input);
    } catch (err) {
      if (err instanceof NotedError) continue;
      throw err;
    }
    requireInScope(rules, name);
  }
  for (const input of destinations) {
    let name: string;
    try {
      name = normalizeNoteName(input, ctx.vault.ending);
    } catch (err) {
      if (err instanceof NotedError) continue;
      throw err;
    }
    requireInScope(rules, name);
  }
}

/** Moves notes one after the other, each planned against the vault as the previous ones left it. */
export function moveNotes(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: { items: readonly MoveNoteInput[]; updateLinks?: boolean; dryRun?: boolean },
  work: Work = unobservedWork(),
): Promise<BatchResult<MoveResult>> {
  requireBatchInScope(
    ctx,
    rules,
    input.items.map((i) => i.name),
    input.items.map((i) => i.newName),
  );
  const group = newGroupId(ctx.now());
  return runBatch(input.items, group, work, (item) =>
    moveNote(
      ctx,
      rules,
      who,
      {
        ...item,
        ...(input.updateLinks === undefined ? {} : { updateLinks: input.updateLinks }),
        ...(input.dryRun === undefined ? {} : { dryRun: input.dryRun }),
      },
      { group, work: quiet(work) },
    ),
  );
}

export interface DeleteItemResult {
  readonly name: string;
  readonly committed: boolean;
  /** The deletion id list_trash shows, when moved to the trash. */
  readonly trashId?: string;
  /** When the folder is staged: the pending change waiting for review. */
  readonly staged?: true;
  readonly pendingId?: string;
}

/** Deletes notes to the trash one after the other (SPEC 2.5), as delete_note does, in one group. */
export function deleteNotes(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  items: readonly { name: string; expectedEtag?: string }[],
  work: Work = unobservedWork(),
): Promise<BatchResult<DeleteItemResult>> {
  requireBatchInScope(
    ctx,
    rules,
    items.map((i) => i.name),
  );
  const group = newGroupId(ctx.now());
  return runBatch(items, group, work, async (item) => {
    const name = resolveExisting(ctx, rules, item.name);
    const access = writableAccess(rules, name, 'deleted');
    const done = await ctx.vault.withNoteLock(name, (): DeleteItemResult => {
      const stored = ctx.vault.read(name, rules.sight);
      if (stored === null) throw notFound(name);
      checkExpected(stored, { expectedEtag: item.expectedEtag });
      if (access === 'staged') {
        const s = stage(ctx, who, {
          tool: 'delete_notes',
          note: name,
          kind: 'delete',
          baseEtag: stored.etag,
          baseText: stored.text,
          newText: null,
        });
        return { name, committed: false, staged: true, pendingId: s.pendingId };
      }
      const input: RecordInput = {
        ...who,
        tool: 'delete_notes',
        note: name,
        kind: 'delete',
        before: stored.bytes,
        after: null,
        group,
      };
      claimChanges(ctx, [input]);
      ctx.journal.record(input);
      return {
        name,
        committed: true,
        trashId: moveToTrash(ctx.vault, name, ctx.now(), rules.writable),
      };
    });
    if (done.committed) ctx.index.touched([name]);
    return done;
  });
}
