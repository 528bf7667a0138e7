/**
 * @module
 * move_folder through the gate: a folder moves or is renamed with every note and attachment agents
 * may see in it, and links to them anywhere are rewritten as for a note move (move.ts). What agents
 * may not see (a hidden sub-folder, dot-files) stays where it is, unmentioned, and keeps the old
 * folder in existence. Folders are not moved into, out of or inside staged folders (`staged`).
 *
 * Long moves take a Work handle (common/work.ts): progress is reported, other requests run between
 * steps, and a cancelled move is undone (moves/rollback.ts).
 */
import { isNotedError, NotedError } from '../../common/errors.js';
import { isCancelled, unobservedWork, type Work } from '../../common/work.js';
import { newGroupId } from '../../journal/entry.js';
import { underWay } from '../../journal/operations.js';
import { existsAny, listFolderTree, removeEmptyTree } from '../../vault/folder-ops.js';
import { folderOf } from '../../vault/names.js';
import type { AccessContext, Writer } from '../context.js';
import {
  requireFolderWritable,
  requireNamed,
  requireNoHiddenInside,
  requireVisibleFolder,
} from '../folders.js';
import type { Rules } from '../rules/rules.js';
import {
  applyRewrites,
  type LinkChange,
  linkChanges,
  type MoveWriter,
  moveAttachment,
  moveOneNote,
  moveWriter,
  type NotUpdated,
  uniqueProblems,
} from './apply.js';
import { MAX_LISTED_CHANGES, requireMovable, requireWritable } from './move.js';
import { filesUnder, pathsWithLowerPrefix } from './move-index.js';
import { type MovePlan, type NowResolved, planMove } from './plan.js';
import { cancelledBeforeWriting, cancelledMove, rollBack } from './rollback.js';

export interface FolderMoveResult {
  readonly folder: string;
  readonly newFolder: string;
  readonly dryRun: boolean;
  readonly committed: boolean;
  readonly group?: string;
  /** Notes moved (or to move), old and new names; at most MAX_LISTED_CHANGES listed. */
  readonly notes: { name: string; newName: string }[];
  readonly notesTotal: number;
  readonly attachmentsTotal: number;
  /** Files that could not be moved, and why. */
  readonly notMoved: { name: string; code: string; message: string }[];
  readonly changes: LinkChange[];
  readonly changesTotal: number;
  readonly updated: string[];
  readonly staged: { note: string; pendingId: string }[];
  readonly notUpdated: NotUpdated[];
  readonly nowResolved: NowResolved[];
}

/**
 * Moves a folder with what agents may see in it. Cancelled while planning, nothing is changed;
 * cancelled later, what was moved and rewritten is put back (moves/rollback.ts); either way the answer
 * is a `cancelled` error that says which.
 */
export async function moveFolder(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: { folder: string; newFolder: string; updateLinks?: boolean; dryRun?: boolean },
  work: Work = unobservedWork(),
): Promise<FolderMoveResult> {
  const from = requireNamed(input.folder);
  requireVisibleFolder(ctx, rules, from);
  const to = requireNamed(input.newFolder);
  const caseOnly = to.toLowerCase() === from.toLowerCase();
  if (to === from || (!caseOnly && to.toLowerCase().startsWith(`${from.toLowerCase()}/`))) {
    throw new NotedError('validation_error', `A folder cannot be moved to "${to}", into itself.`, {
      committed: false,
    });
  }
  requireFolderWritable(rules, from, 'moved');
  requireFolderWritable(rules, to, 'created');
  requireNoHiddenInside(rules, from, 'moved');
  ctx.index.refresh();
  // Security: only what agents may see can be in the way; a hidden note under another letter case of
  // the name must not turn the answer into already_exists (issue 25).
  const visible = rules.visible ?? (() => true);
  if (
    !caseOnly &&
    (existsAny(ctx.vault.pathOf(to)) ||
      pathsWithLowerPrefix(ctx.index.db, `${to.toLowerCase()}/`).some((p) => visible(p)))
  ) {
    throw new NotedError('already_exists', `"${to}" already exists. Choose another folder name.`, {
      name: to,
      committed: false,
    });
  }
  const inside = filesUnder(ctx.index.db, from);
  const mapped = (p: string) => to + p.slice(from.length);
  const moves = new Map<string, string>();
  for (const p of [...inside.notes, ...inside.attachments]) {
    if (!visible(p)) continue;
    requireMovable(rules, p, mapped(p));
    moves.set(p, mapped(p));
  }
  const group = newGroupId(ctx.now());
  const what = `The move of the folder "${from}" to "${to}"`;
  const plan = await planMove(ctx, rules, moves, input.updateLinks ?? true, work).catch(
    cancelledBeforeWriting(what, group),
  );
  requireWritable(plan.unwritable);
  const notes = inside.notes.filter((n) => moves.has(n)).map((n) => ({ name: n, newName: mapped(n) }));
  const base = {
    folder: from,
    newFolder: to,
    notes: notes.slice(0, MAX_LISTED_CHANGES),
    notesTotal: notes.length,
    attachmentsTotal: inside.attachments.filter((a) => moves.has(a)).length,
    changesTotal: plan.sources.reduce((n, s) => n + s.edits.length, 0),
    nowResolved: uniqueProblems(plan.nowResolved),
  };
  if (input.dryRun) {
    return {
      ...base,
      dryRun: true,
      committed: false,
      notMoved: [],
      changes: linkChanges(plan.sources, MAX_LISTED_CHANGES),
      updated: plan.sources.filter((s) => s.edits.length > 0).map((s) => s.newName),
      staged: [],
      notUpdated: [],
    };
  }
  await work.checkpoint().catch(cancelledBeforeWriting(what, group));
  const writer = moveWriter(who, 'move_folder', group);
  const movedAttachments: [string, string][] = [];
  // The folders the move creates above its destination, deepest first, to take away again if undone.
  const madeAbove: string[] = [];
  for (let f = folderOf(to); f !== '' && !existsAny(ctx.vault.pathOf(f)); f = folderOf(f)) madeAbove.push(f);
  // Killed in the middle, the move is reported at the next start with its repair (operations.ts).
  const record = { group, tool: 'move_folder', started: ctx.now().toISOString() };
  return underWay(ctx.vault, record, isNotedError, async () => {
    try {
      return await applyFolderMove(
        ctx,
        rules,
        writer,
        { from, to, plan, moves, inside, base },
        movedAttachments,
        work,
      );
    } catch (err) {
      if (!isCancelled(err)) throw err;
      const rollback = await rollBack(ctx, rules, writer, movedAttachments);
      for (const made of [to, ...madeAbove]) removeEmptyTree(ctx.vault.pathOf(made));
      throw cancelledMove(what, err.message, rollback, group);
    }
  });
}

/** The writing half of moveFolder: notes, then attachments, then the links elsewhere. */
async function applyFolderMove(
  ctx: AccessContext,
  rules: Rules,
  writer: MoveWriter,
  move: {
    from: string;
    to: string;
    plan: MovePlan;
    moves: Map<string, string>;
    inside: { notes: string[]; attachments: string[] };
    base: Omit<
      FolderMoveResult,
      'dryRun' | 'committed' | 'notMoved' | 'changes' | 'updated' | 'staged' | 'notUpdated'
    >;
  },
  movedAttachments: [string, string][],
  work: Work,
): Promise<FolderMoveResult> {
  const { from, to, plan, moves, inside, base } = move;
  const { group } = writer;
  const mapped = (p: string) => to + p.slice(from.length);
  const movedSources = plan.sources.filter((s) => moves.has(s.name));
  const others = plan.sources.filter((s) => !moves.has(s.name));
  const notMoved: FolderMoveResult['notMoved'] = [];
  const updated: string[] = [];
  const ownChanges: LinkChange[] = [];
  // Sub-folders agents see come along even when empty.
  const fromAbs = ctx.vault.pathOf(from);
  ctx.vault.makeFolder(to, rules.writable);
  for (const sub of listFolderTree(fromAbs, (rel) => rules.accessOf(`${from}/${rel}`) !== 'hidden')) {
    ctx.vault.makeFolder(`${to}/${sub}`, rules.writable);
  }
  const steps = movedSources.length + inside.attachments.length;
  for (const [i, source] of movedSources.entries()) {
    work.report(i, steps, `moving notes: ${i} of ${movedSources.length}`);
    await work.checkpoint();
    try {
      const moved = await moveOneNote(ctx, rules, writer, plan, source, undefined);
      if (moved.edits.length > 0) updated.push(source.newName);
      ownChanges.push(...moved.edits.map((e) => ({ note: source.name, ...e })));
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      notMoved.push({ name: source.name, code: err.code, message: err.message });
    }
  }
  for (const attachment of inside.attachments.filter((a) => moves.has(a))) {
    await work.checkpoint();
    try {
      await moveAttachment(ctx, rules, attachment, mapped(attachment));
      movedAttachments.push([attachment, mapped(attachment)]);
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      notMoved.push({ name: attachment, code: err.code, message: err.message });
    }
  }
  const outcome = await applyRewrites(ctx, rules, writer, others, work);
  removeEmptyTree(fromAbs);
  // The old paths of attachments are named one by one: the index drops notes below a folder that
  // is gone, but an attachment only by its own path.
  ctx.index.touched([from, to, ...movedAttachments.map(([old]) => old), ...outcome.updated]);
  work.report(steps, steps, 'moved');
  const written = new Set(outcome.updated);
  return {
    ...base,
    dryRun: false,
    committed: true,
    group,
    notMoved,
    changes: [
      ...ownChanges,
      ...linkChanges(
        others.filter((s) => written.has(s.name)),
        MAX_LISTED_CHANGES,
      ),
    ].slice(0, MAX_LISTED_CHANGES),
    updated: [...updated, ...outcome.updated],
    staged: outcome.staged,
    notUpdated: outcome.notUpdated,
  };
}
