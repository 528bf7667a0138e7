/**
 * @module
 * Deleting to the trash and restoring from it, through the gate (SPEC 2.5).
 */

import { positionOf } from '../common/cursor.js';
import { NotedError } from '../common/errors.js';
import { hasEnding, withoutEnding } from '../common/note-ending.js';
import { type Keyset, type Page, type PageRequest, pageOf } from '../common/paging.js';
import { htmlNoteToMarkdown, markdownNoteToHtml } from '../format/convert-note.js';
import { rewriteHtmlLinks } from '../format/html-links.js';
import { resolveLinkTargets } from '../index/queries/links.js';
import { type NewLinkpath, rewriteLinks } from '../markdown/link-rewrite.js';
import { baseNameOf, normalizeNoteName } from '../vault/names.js';
import {
  isPastRetention,
  listTrash as listTrashItems,
  moveToTrash,
  newestFirst,
  restoreConvertedFromTrash,
  restoreFromTrash,
  type TrashItem,
  trashedBytes,
} from '../vault/trash.js';
import { type AccessContext, MAX_NOTE_BYTES, type Writer } from './context.js';
import { requireCopied } from './copied-to.js';
import { idField } from './note-ids.js';
import { recordThenMake } from './recorded-write.js';
import { existingCaseVariant, notFound, resolveExisting } from './resolve.js';
import { stage, writableAccess } from './rules/permission.js';
import type { Rules } from './rules/rules.js';
import type { DeleteResult, RestoreResult, StagedResult } from './types.js';
import { checkExpected } from './write.js';

const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function deleteNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: { name: string; expectedEtag?: string; copiedTo?: string },
): Promise<DeleteResult | StagedResult> {
  const name = resolveExisting(ctx, rules, input.name);
  const access = writableAccess(rules, name, 'deleted');
  // Taken before the note leaves the index: the result names the note the agent may have held by id.
  const id = idField(ctx, name);
  const trashId = await ctx.vault.withNoteLock(name, () => {
    const stored = ctx.vault.read(name, rules.sight);
    if (stored === null) throw notFound(name);
    checkExpected(stored, { expectedEtag: input.expectedEtag });
    if (input.copiedTo !== undefined) requireCopied(ctx, rules, name, stored.text, input.copiedTo);
    if (access === 'staged') {
      return stage(ctx, who, {
        tool: 'delete_note',
        note: name,
        kind: 'delete',
        baseEtag: stored.etag,
        baseText: stored.text,
        newText: null,
      });
    }
    return recordThenMake(
      ctx,
      { ...who, tool: 'delete_note', note: name, kind: 'delete', before: stored.bytes, after: null },
      () => moveToTrash(ctx.vault, name, ctx.now(), rules.writable),
    );
  });
  if (typeof trashId !== 'string') return trashId;
  ctx.index.touched([name]);
  return { name, ...id, trashId };
}

/**
 * Deletions the agent may see, newest first: a note from a hidden folder is not in the trash either,
 * and a deletion past the retention period is as good as purged (the purge itself runs on start and
 * on a timer, never in a read).
 */
export function listTrash(ctx: AccessContext, rules: Rules): TrashItem[] {
  const now = ctx.now();
  return listTrashItems(ctx.vault).filter(
    (item) =>
      visibleName(rules, item.name) &&
      !isPastRetention(new Date(item.deletedAt), ctx.trashRetentionDays, now),
  );
}

/** One page of the trash (SPEC 3.3). */
export function trashPage(ctx: AccessContext, rules: Rules, request: PageRequest): Page<TrashItem> {
  return pageOf(listTrash(ctx, rules), request, TRASH_ORDER);
}

const TRASH_ORDER: Keyset<TrashItem, { id: string; n: string }> = {
  kind: 'trash',
  position: (item) => ({ id: item.id, n: item.name }),
  isPosition: positionOf<{ id: string; n: string }>({ id: 'string', n: 'string' }),
  compare: (item, p) => newestFirst(item, { id: p.id, name: p.n, deletedAt: '' }),
};

function visibleName(rules: Rules, name: string): boolean {
  if (rules.policy === null) return true;
  try {
    return rules.accessOf(name) !== 'hidden';
  } catch {
    return false; // a path that no longer resolves inside the vault is nothing to show
  }
}

export async function restoreNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: { name: string; id?: string },
): Promise<RestoreResult> {
  const item = findTrashed(ctx, rules, input.name, input.id);
  if (writableAccess(rules, item.name, 'restored') === 'staged') {
    throw new NotedError(
      'staged',
      `"${item.name}" is in a folder where agents' changes wait for the owner's review, and restore_note is not available there. Nothing was restored. Ask the vault's owner to restore it.`,
      { name: item.name, committed: false },
    );
  }
  const existing = existingCaseVariant(ctx, rules, item.name);
  if (existing !== null) {
    throw new NotedError(
      'already_exists',
      `A note "${existing}" exists again, so the trashed version was not restored over it. Rename or delete the existing note first, or read both and merge them by hand.`,
      { name: existing },
    );
  }
  const losses = await ctx.vault.withNoteLock(item.name, () => {
    const trashed = trashedBytes(ctx.vault, item);
    const converted = item.deletedAs === undefined ? null : convertTrashed(ctx, rules, item, trashed);
    recordThenMake(
      ctx,
      {
        ...who,
        tool: 'restore_note',
        note: item.name,
        kind: 'restore',
        before: null,
        after: converted?.bytes ?? trashed,
      },
      () =>
        converted === null
          ? restoreFromTrash(ctx.vault, item, rules.writable)
          : restoreConvertedFromTrash(ctx.vault, item, converted.bytes, rules.writable),
    );
    return converted?.losses ?? null;
  });
  ctx.index.touched([item.name]);
  const stored = ctx.vault.read(item.name, rules.sight);
  if (stored === null) throw notFound(item.name);
  // A restored note is a new note to the index: it gets a new id (SPEC 17.3).
  const result = { name: item.name, ...idField(ctx, item.name), etag: stored.etag, trashId: item.id };
  return item.deletedAs === undefined || losses === null
    ? result
    : { ...result, deletedAs: item.deletedAs, losses };
}

/**
 * A note deleted before the vault was converted, in the vault's format now, as `noted-mcp convert`
 * would have converted it: a link naming a note with the old ending (`[x](Plan.md)`) gets the new
 * one when the note it names is there, converted, and visible.
 */
function convertTrashed(
  ctx: AccessContext,
  rules: Rules,
  item: TrashItem,
  trashed: Buffer,
): { bytes: Buffer; losses: string[] } {
  let text: string;
  try {
    text = utf8Strict.decode(trashed);
  } catch {
    throw new NotedError(
      'not_supported',
      `"${item.deletedAs}" was deleted before the vault was converted, and it is not valid UTF-8 text, so it cannot be converted to restore it as "${item.name}". Nothing was restored; the owner finds it in .noted/trash/${item.id}/.`,
      { name: item.name, committed: false },
    );
  }
  const from = ctx.vault.ending === '.md' ? '.html' : '.md';
  const rewrite = from === '.md' ? rewriteLinks : rewriteHtmlLinks;
  // The links naming a note by the old ending, resolved in one batch under their new ending.
  const renamed = new Map<string, string>();
  rewrite(text, (link) => {
    if (hasEnding(link.linkpath, from)) {
      renamed.set(link.linkpath, withoutEnding(link.linkpath, from) + ctx.vault.ending);
    }
    return null;
  });
  const targets = resolveLinkTargets(ctx.index.db, renamed.values(), item.name, visibility(rules));
  const relink: NewLinkpath = (link) => {
    const linkpath = renamed.get(link.linkpath);
    if (linkpath === undefined) return null;
    const target = targets.get(linkpath) ?? null;
    return target !== null && hasEnding(target, ctx.vault.ending) ? linkpath : null;
  };
  const converted = from === '.md' ? markdownNoteToHtml(text, relink) : htmlNoteToMarkdown(text, relink);
  const bytes = Buffer.from(converted.text, 'utf8');
  if (bytes.length > MAX_NOTE_BYTES) {
    throw new NotedError(
      'too_large',
      `"${item.deletedAs}" was deleted before the vault was converted, and converted it would be ${(bytes.length / 1048576).toFixed(1)} MB, over the 5 MB a note may hold. Nothing was restored; the owner finds it in .noted/trash/${item.id}/.`,
      { sizeBytes: bytes.length, maxBytes: MAX_NOTE_BYTES },
    );
  }
  return { bytes, losses: converted.losses };
}

function visibility(rules: Rules): { visible?: (path: string) => boolean } {
  return rules.visible === undefined ? {} : { visible: rules.visible };
}

/**
 * The deletion to restore: by exact original path (case-insensitively), else by a bare file name
 * that only one trashed path has; the latest deletion unless `id` picks one.
 */
function findTrashed(ctx: AccessContext, rules: Rules, input: string, id: string | undefined): TrashItem {
  const name = normalizeNoteName(input, ctx.vault.ending);
  const all = listTrash(ctx, rules).filter((item) => id === undefined || item.id === id);
  const lower = name.toLowerCase();
  let matches = all.filter((item) => item.name === name);
  if (matches.length === 0) matches = all.filter((item) => item.name.toLowerCase() === lower);
  if (matches.length === 0) {
    // The name a note had when it was deleted before the vault was converted (list_trash's deletedAs).
    const given = input.toLowerCase();
    matches = all.filter((item) => item.deletedAs?.toLowerCase() === given);
  }
  if (matches.length === 0 && !name.includes('/')) {
    const base = baseNameOf(name, ctx.vault.ending).toLowerCase();
    matches = all.filter((item) => baseNameOf(item.name, ctx.vault.ending).toLowerCase() === base);
    const paths = [...new Set(matches.map((m) => m.name))];
    if (paths.length > 1) {
      throw new NotedError(
        'ambiguous',
        `Several trashed notes are called "${input}": ${paths.map((p) => `"${p}"`).join(', ')}. Call again with the full path.`,
        { candidates: paths },
      );
    }
  }
  const latest = matches[0];
  if (latest === undefined) {
    const where = id === undefined ? 'in the trash' : `in the trash under id "${id}"`;
    throw new NotedError(
      'not_found',
      `No deleted note named "${name}" is ${where}. Call list_trash to see what can be restored.`,
      { name },
    );
  }
  return latest;
}
