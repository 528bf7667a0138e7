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
import { idField, type NoteRef, nameOfRef } from '../note-ids.js';
import { notFound, resolveExisting } from '../resolve.js';
import { stage, writableAccess } from '../rules/permission.js';
import type { Rules } from '../rules/rules.js';
import { requireInScope } from '../rules/scope.js';
import { checkExpected } from '../write.js';
import { type MoveNoteInput, type MoveResult, moveNote } from './move.js';

/** An item the batch could not do, with the error it got. */
export interface BatchRefusal {
  /** The note's name: as given, or the path its id named; absent when an id named no note. */
  readonly name?: string;
  /** The id the item gave, when it gave one. */
  readonly id?: string;
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

/**
 * An item names its note by name or by id (SPEC 17.3). An id is resolved when the item's turn comes,
 * so it finds the note where the items before left it, and one naming no note refuses that item alone.
 */
type ByRef<I extends { name: string }> = Omit<I, 'name'> & NoteRef;

async function runBatch<I extends { name: string }, T extends { committed: boolean }>(
  ctx: AccessContext,
  rules: Rules,
  items: readonly ByRef<I>[],
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
    const { id, ...rest } = item;
    const given = {
      ...(item.name === undefined ? {} : { name: item.name }),
      ...(id === undefined ? {} : { id }),
    };
    if (stopped !== null) {
      const message = `${stopped} This item was not reached, so nothing was done to it.`;
      results.push({ ...given, committed: false, code: 'cancelled', message });
      continue;
    }
    let named = given;
    try {
      const name = nameOfRef(ctx, () => rules, item);
      named = { ...given, name };
      results.push(await run({ ...rest, name } as unknown as I));
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      results.push({ ...named, committed: false, code: err.code, message: err.message });
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
 * Each item names its note by name or by id, exactly one: a batch with an item that gives neither or
 * both is refused whole, before anything is done, as a misspelt argument is.
 */
function requireOneRefEach(items: readonly NoteRef[]): void {
  for (const [i, item] of items.entries()) {
    if ((item.name === undefined) !== (item.id === undefined)) continue;
    throw new NotedError(
      'validation_error',
      item.name === undefined
        ? `items[${i}] says no note: pass name (its path, e.g. "inbox/idea") or id (as a result gave it, e.g. "n1f3k2a"). Nothing was done.`
        : `items[${i}] gives both name "${item.name}" and id "${item.id}": pass only one. Nothing was done.`,
    );
  }
}

/**
 * A batch limited by `in_folder` is refused whole, before any item is done, when one of its notes
 * resolves outside the folder or one of its destinations lies outside (SPEC 12.5). A name that does
 * not resolve is left for its item to report; every item is checked again when it runs.
 */
function requireBatchInScope(
  ctx: AccessContext,
  rules: Rules,
  refs: readonly NoteRef[],
  destinations: readonly string[] = [],
): void {
  if (rules.scope === undefined) return;
  for (const ref of refs) {
    let name: string;
    try {
      name = resolveExisting(
        ctx,
        rules,
        nameOfRef(ctx, () => rules, ref),
      );
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
  input: { items: readonly ByRef<MoveNoteInput>[]; updateLinks?: boolean; dryRun?: boolean },
  work: Work = unobservedWork(),
): Promise<BatchResult<MoveResult>> {
  requireOneRefEach(input.items);
  requireBatchInScope(
    ctx,
    rules,
    input.items,
    input.items.map((i) => i.newName),
  );
  const group = newGroupId(ctx.now());
  return runBatch<MoveNoteInput, MoveResult>(ctx, rules, input.items, group, work, (item) =>
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
  /** The note's id (SPEC 17.3), as it was before the deletion. */
  readonly id?: string;
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
  items: readonly (NoteRef & { expectedEtag?: string })[],
  work: Work = unobservedWork(),
): Promise<BatchResult<DeleteItemResult>> {
  requireOneRefEach(items);
  requireBatchInScope(ctx, rules, items);
  const group = newGroupId(ctx.now());
  return runBatch<{ name: string; expectedEtag?: string }, DeleteItemResult>(
    ctx,
    rules,
    items,
    group,
    work,
    async (item) => {
      const name = resolveExisting(ctx, rules, item.name);
      const access = writableAccess(rules, name, 'deleted');
      // Taken before the note leaves the index: the result names the note the agent may have held by id.
      const id = idField(ctx, name);
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
          return { name, ...id, committed: false, staged: true, pendingId: s.pendingId };
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
          ...id,
          committed: true,
          trashId: moveToTrash(ctx.vault, name, ctx.now(), rules.writable),
        };
      });
      if (done.committed) ctx.index.touched([name]);
      return done;
    },
  );
}
