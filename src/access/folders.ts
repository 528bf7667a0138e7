/**
 * @module
 * Folders through the gate: list them with note counts, create one, move or rename one with every
 * note and attachment inside (links kept, as for a note move), delete an empty one.
 *
 * Decisions where the spec is silent:
 * - Folders hidden by policy, and every folder whose name starts with `.`, are not listed; a hidden
 *   folder answers like a missing one.
 * - A folder move takes the notes and attachments agents may see. What they may not see (a hidden
 *   sub-folder, dot-files) stays where it is, unmentioned, and keeps the old folder in existence.
 * - delete_folder removes only a folder with no files in it at all, its empty sub-folders included.
 *   Files agents cannot see (dot-files, notes hidden by policy) also keep it: the answer then says
 *   only that the folder holds files agents cannot see, never what or how many. A dry run returns a
 *   `revision` of the folder's listing, which the real call must pass back.
 * - Folders are not created, moved or deleted in staged folders (`staged`): there is no pending form
 *   of a folder change.
 */
import { NotedError } from '../common/errors.js';
import { byCodeUnits, type Keyset, pageOf } from '../common/paging.js';
import { newGroupId } from '../journal/entry.js';
import { hidesInside } from '../policy/access.js';
import { existsAny, folderListing, isFolder, listFolderTree, removeEmptyTree } from '../vault/folder-ops.js';
import { folderOf, isHiddenPath, normalizeFolderName } from '../vault/names.js';
import type { AccessContext, Writer } from './context.js';
import { MAX_LISTED_CHANGES, requireMovable, requireWritable } from './move.js';
import {
  applyRewrites,
  type LinkChange,
  linkChanges,
  moveAttachment,
  moveOneNote,
  type NotUpdated,
  uniqueProblems,
} from './move-apply.js';
import { allNotePaths, filesUnder, pathsWithLowerPrefix } from './move-index.js';
import { type NowResolved, planMove } from './move-plan.js';
import { writableAccess } from './permission.js';
import type { Rules } from './rules.js';

export interface FolderInfo {
  readonly path: string;
  /** Notes directly in the folder. */
  readonly notes: number;
  /** Notes in the folder and every folder below it. */
  readonly totalNotes: number;
}

export interface FolderList {
  readonly folder: string;
  readonly folders: FolderInfo[];
  readonly total: number;
  /** True when more folders follow this page (`truncated` says the same, for older clients). */
  readonly more: boolean;
  readonly truncated: boolean;
  readonly nextCursor?: string;
}

/** Every folder agents may see below `folder` ('' for the whole vault), in path order. */
export function listFolders(
  ctx: AccessContext,
  rules: Rules,
  input: { folder?: string; limit?: number; cursor?: string },
): FolderList {
  const folder = input.folder === undefined ? '' : normalizeFolderName(input.folder);
  if (folder !== '') requireVisibleFolder(ctx, rules, folder);
  const abs = folder === '' ? ctx.vault.root : ctx.vault.pathOf(folder);
  const prefix = folder === '' ? '' : `${folder}/`;
  const paths = listFolderTree(abs, (rel) => rules.accessOf(prefix + rel) !== 'hidden').map(
    (rel) => prefix + rel,
  );
  ctx.index.refresh();
  const direct = new Map<string, number>();
  const total = new Map<string, number>();
  const visible = rules.visible;
  for (const note of allNotePaths(ctx.index.db)) {
    if (visible && !visible(note)) continue;
    const dir = folderOf(note);
    direct.set(dir, (direct.get(dir) ?? 0) + 1);
    for (let d = dir; d !== ''; d = folderOf(d)) total.set(d, (total.get(d) ?? 0) + 1);
  }
  const page = pageOf(paths, { limit: input.limit ?? 500, cursor: input.cursor }, FOLDER_ORDER);
  const folders = page.items.map((p) => ({
    path: p,
    notes: direct.get(p) ?? 0,
    totalNotes: total.get(p) ?? 0,
  }));
  return {
    folder,
    folders,
    total: page.total,
    more: page.more,
    truncated: page.more,
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/** Folders in code-unit order of their paths (listFolderTree's), so the cursor keeps the last path. */
const FOLDER_ORDER: Keyset<string, string> = {
  kind: 'folders',
  position: (p) => p,
  isPosition: (d): d is string => typeof d === 'string',
  compare: byCodeUnits,
};

/** Creates a folder and its parents; an existing folder is fine (`created: false`). */
export function createFolder(
  ctx: AccessContext,
  rules: Rules,
  input: { folder: string },
): { folder: string; created: boolean } {
  const folder = requireNamed(input.folder);
  requireFolderWritable(rules, folder, 'created');
  const abs = ctx.vault.pathOf(folder);
  if (!isFolder(abs) && existsAny(abs)) {
    throw new NotedError(
      'already_exists',
      `A file "${folder}" is in the way, so no folder was created there.`,
      {
        name: folder,
        committed: false,
      },
    );
  }
  return { folder, created: ctx.vault.makeFolder(folder, rules.writable) };
}

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

export async function moveFolder(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: { folder: string; newFolder: string; updateLinks?: boolean; dryRun?: boolean },
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
  const plan = planMove(ctx, rules, moves, input.updateLinks ?? true);
  requireWritable(plan.unwritable);
  const movedSources = plan.sources.filter((s) => moves.has(s.name));
  const others = plan.sources.filter((s) => !moves.has(s.name));
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
  const group = newGroupId(ctx.now());
  const writer = { ...who, tool: 'move_folder', group };
  const notMoved: FolderMoveResult['notMoved'] = [];
  const updated: string[] = [];
  const ownChanges: LinkChange[] = [];
  // Sub-folders agents see come along even when empty.
  const fromAbs = ctx.vault.pathOf(from);
  ctx.vault.makeFolder(to, rules.writable);
  for (const sub of listFolderTree(fromAbs, (rel) => rules.accessOf(`${from}/${rel}`) !== 'hidden')) {
    ctx.vault.makeFolder(`${to}/${sub}`, rules.writable);
  }
  for (const source of movedSources) {
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
    try {
      await moveAttachment(ctx, rules, attachment, mapped(attachment));
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      notMoved.push({ name: attachment, code: err.code, message: err.message });
    }
  }
  const outcome = await applyRewrites(ctx, rules, writer, others);
  removeEmptyTree(fromAbs);
  // The old paths of attachments are named one by one: the index drops notes below a folder that
  // is gone, but an attachment only by its own path.
  const movedAttachments = inside.attachments.filter((a) => moves.has(a));
  ctx.index.touched([from, to, ...movedAttachments, ...outcome.updated]);
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

export interface FolderDeleteResult {
  readonly folder: string;
  readonly dryRun: boolean;
  readonly committed: boolean;
  /** A fingerprint of the folder's listing: pass it back to delete. */
  readonly revision: string;
}

/** Deletes an empty folder: a dry run first gives the revision the real call must pass back. */
export function deleteFolder(
  ctx: AccessContext,
  rules: Rules,
  input: { folder: string; dryRun?: boolean; revision?: string },
): FolderDeleteResult {
  const folder = requireNamed(input.folder);
  requireVisibleFolder(ctx, rules, folder);
  requireFolderWritable(rules, folder, 'deleted');
  requireNoHiddenInside(rules, folder, 'deleted');
  const abs = ctx.vault.pathOf(folder);
  const listing = folderListing(abs, folder);
  const seen = listing.files.filter((f) => !isHiddenPath(f) && rules.accessOf(f) !== 'hidden');
  if (seen.length > 0) {
    const notes = seen.filter((f) => f.toLowerCase().endsWith('.md')).length;
    throw new NotedError(
      'validation_error',
      `The folder "${folder}" is not empty: it holds ${notes} note(s) and ${seen.length - notes} other file(s). Nothing was deleted. Move or delete them first (delete_notes, move_folder), or list them with list_notes.`,
      { name: folder, committed: false },
    );
  }
  if (listing.files.length > 0) {
    throw new NotedError(
      'validation_error',
      `The folder "${folder}" holds files agents cannot see, so it was not deleted. Ask the vault's owner to remove it.`,
      { name: folder, committed: false },
    );
  }
  if (input.dryRun) return { folder, dryRun: true, committed: false, revision: listing.revision };
  if (input.revision === undefined) {
    throw new NotedError(
      'validation_error',
      `Call delete_folder with dry_run: true first, then again with the revision it returns, so that a folder that changed in between is not deleted.`,
      { name: folder, committed: false },
    );
  }
  if (input.revision !== listing.revision) {
    throw new NotedError(
      'conflict',
      `The folder "${folder}" changed since the dry run (its revision is now ${listing.revision}). Nothing was deleted. Look at it again, then pass the new revision.`,
      { name: folder, currentRevision: listing.revision, committed: false },
    );
  }
  if (!removeEmptyTree(abs)) {
    throw new NotedError(
      'conflict',
      `Something appeared in "${folder}" a moment ago, so it was not deleted.`,
      {
        name: folder,
        committed: false,
      },
    );
  }
  ctx.index.touched([folder]);
  return { folder, dryRun: false, committed: true, revision: listing.revision };
}

/** A folder name that is not the vault root. */
function requireNamed(input: string): string {
  const folder = normalizeFolderName(input);
  if (folder === '') {
    throw new NotedError(
      'invalid_name',
      'Name a folder inside the vault; the vault root itself cannot be changed.',
      {
        committed: false,
      },
    );
  }
  return folder;
}

/** An existing folder agents may see, else `not_found` exactly as for a folder that is not there. */
function requireVisibleFolder(ctx: AccessContext, rules: Rules, folder: string): void {
  if (!isFolder(ctx.vault.pathOf(folder)) || rules.accessOf(folder) === 'hidden') {
    throw new NotedError('not_found', `No folder "${folder}" exists. Call list_folders to see the folders.`, {
      name: folder,
    });
  }
}

/**
 * Refuses a folder the policy hides something inside of. Whether the hidden folder holds notes, or
 * exists at all, must not change the answer (SPEC 4; issue 25): moving or deleting the folder would
 * leave those notes behind, keeping the folder in existence, or succeed when there are none. So the
 * policy alone decides, and the message names no hidden folder.
 */
function requireNoHiddenInside(rules: Rules, folder: string, action: string): void {
  if (!hidesInside(rules.policy, folder)) return;
  throw new NotedError(
    'read_only',
    `Agents may not have the folder "${folder}" ${action} (vault policy). Nothing was changed. Move or delete the notes in it one by one (move_notes, delete_notes), or ask the vault's owner.`,
    { name: folder, committed: false },
  );
}

function requireFolderWritable(rules: Rules, folder: string, action: string): void {
  if (writableAccess(rules, folder, action) === 'staged') {
    throw new NotedError(
      'staged',
      `"${folder}" is a folder where agents' changes wait for the owner's review, and folder changes cannot wait for review. Nothing was changed. Ask the vault's owner.`,
      { name: folder, committed: false },
    );
  }
}
