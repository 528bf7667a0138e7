/**
 * @module
 * Folders through the gate: list them with note counts, create one, delete an empty one (moving one
 * is folder-move.ts).
 *
 * Decisions where the spec is silent:
 * - Folders hidden by policy, and every folder whose name starts with `.`, are not listed; a hidden
 *   folder answers like a missing one.
 * - delete_folder removes only a folder with no files in it at all, its empty sub-folders included.
 *   Files agents cannot see (dot-files, notes hidden by policy) also keep it: the answer then says
 *   only that the folder holds files agents cannot see, never what or how many. A dry run returns a
 *   `revision` of the folder's listing, which the real call must pass back.
 * - Folders are not created, moved or deleted in staged folders (`staged`): there is no pending form
 *   of a folder change.
 */
import { NotedError } from '../common/errors.js';
import { byCodeUnits, type Keyset, pageOf } from '../common/paging.js';
import { hidesInside } from '../policy/access.js';
import { existsAny, folderListing, isFolder, listFolderTree, removeEmptyTree } from '../vault/folder-ops.js';
import { folderOf, isHiddenPath, normalizeFolderName } from '../vault/names.js';
import type { AccessContext } from './context.js';
import { allNotePaths } from './moves/move-index.js';
import { writableAccess } from './rules/permission.js';
import type { Rules } from './rules/rules.js';

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
export function requireNamed(input: string): string {
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
export function requireVisibleFolder(ctx: AccessContext, rules: Rules, folder: string): void {
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
export function requireNoHiddenInside(rules: Rules, folder: string, action: string): void {
  if (!hidesInside(rules.policy, folder)) return;
  throw new NotedError(
    'read_only',
    `Agents may not have the folder "${folder}" ${action} (vault policy). Nothing was changed. Move or delete the notes in it one by one (move_notes, delete_notes), or ask the vault's owner.`,
    { name: folder, committed: false },
  );
}

export function requireFolderWritable(rules: Rules, folder: string, action: string): void {
  if (writableAccess(rules, folder, action) === 'staged') {
    throw new NotedError(
      'staged',
      `"${folder}" is a folder where agents' changes wait for the owner's review, and folder changes cannot wait for review. Nothing was changed. Ask the vault's owner.`,
      { name: folder, committed: false },
    );
  }
}
