/**
 * @module
 * The recoverable trash (SPEC 2.5): `<vault>/.noted/trash/<id>/<original path>`, one folder a deletion,
 * where the id is the UTC time of the deletion. Restoring never overwrites a note that exists again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { hasEnding, type NoteEnding, withoutEnding } from '../common/note-ending.js';
import { fsyncDir } from './atomic-write.js';
import { ANYWHERE, type Sight } from './checked-folder.js';
import { moveInChecked, moveOutChecked } from './checked-write.js';
import { readChecked } from './confine.js';
import type { Vault } from './vault.js';
import { walkVault } from './walk.js';

export interface TrashItem {
  /** The deletion's id, e.g. `2026-12-01T03-36-17-123Z` (with `_2`, `_3` for deletions in the same ms). */
  readonly id: string;
  /** The note's original vault-relative name. */
  readonly name: string;
  /** When it was deleted (ISO 8601). */
  readonly deletedAt: string;
  /**
   * Set when the note was deleted in the vault's other format, before the vault was converted
   * (`noted-mcp convert`): its name as kept in the trash, e.g. `a/b.md` in an HTML vault. `name` is
   * then the name in the vault's format, which it is restored under, converted.
   */
  readonly deletedAs?: string;
}

const ID_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z(?:_\d+)?$/;

function trashRoot(vault: Vault): string {
  return vault.statePath('trash');
}

/** The deletion time encoded in an id, or null for a folder that is not a deletion. */
export function deletedAtOf(id: string): Date | null {
  const m = ID_PATTERN.exec(id);
  if (!m) return null;
  const date = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Moves a note into a new deletion folder and returns the deletion's id. The note is taken from the
 * folder it was checked in, and only where `allow` accepts its real place (checked-write.ts).
 */
export function moveToTrash(vault: Vault, name: string, now: Date, allow: Sight = ANYWHERE): string {
  const root = trashRoot(vault);
  fs.mkdirSync(root, { recursive: true });
  const base = now.toISOString().replace(/[:.]/g, '-');
  let id = base;
  // mkdir without `recursive` fails on an existing folder, which makes each id unique across processes.
  for (let n = 2; ; n++) {
    try {
      fs.mkdirSync(path.join(root, id));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      id = `${base}_${n}`;
    }
  }
  const target = path.join(root, id, ...name.split('/'));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    moveOutChecked(vault.root, vault.pathOf(name), name, allow, target);
  } catch (err) {
    fs.rmSync(path.join(root, id), { recursive: true, force: true });
    throw err;
  }
  fsyncDir(path.dirname(target));
  return id;
}

/** Every trashed note, newest deletion first. */
export function listTrash(vault: Vault): TrashItem[] {
  const root = trashRoot(vault);
  let ids: string[];
  try {
    ids = fs.readdirSync(root);
  } catch {
    return [];
  }
  const items: TrashItem[] = [];
  for (const id of ids) {
    const at = deletedAtOf(id);
    if (!at) continue;
    const deletedAt = at.toISOString();
    const walked = walkVault(path.join(root, id), vault.ending);
    const names = new Set(walked.notes.map((note) => note.name));
    for (const name of names) items.push({ id, name, deletedAt });
    // The trash is not converted with the vault: a note deleted before keeps its format there.
    const other = otherEnding(vault.ending);
    for (const file of walked.attachments) {
      if (!hasEnding(file.name, other)) continue;
      const name = withoutEnding(file.name, other) + vault.ending;
      if (!names.has(name)) items.push({ id, name, deletedAt, deletedAs: file.name });
    }
  }
  items.sort(newestFirst);
  return items;
}

function otherEnding(ending: NoteEnding): NoteEnding {
  return ending === '.md' ? '.html' : '.md';
}

function storedPath(vault: Vault, item: TrashItem): string {
  return path.join(trashRoot(vault), item.id, ...(item.deletedAs ?? item.name).split('/'));
}

/**
 * The trash's order: newest deletion first, then by name in code-unit order (the same on every
 * machine, which a page cursor needs).
 */
export function newestFirst(a: TrashItem, b: TrashItem): number {
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** True when a deletion made at `deletedAt` is past the retention period (0 days keeps it). */
export function isPastRetention(deletedAt: Date, retentionDays: number, now: Date): boolean {
  return retentionDays > 0 && deletedAt.getTime() < now.getTime() - retentionDays * 86_400_000;
}

/** The stored bytes of a trashed note (for the journal, before it is restored). */
export function trashedBytes(vault: Vault, item: TrashItem): Buffer {
  // Read as a note is read: a file swapped for a link since the trash was listed is not followed
  // (confine.ts), so no file from elsewhere is restored into the vault, nor recorded in the journal.
  const root = trashRoot(vault);
  const rel = `${item.id}/${item.deletedAs ?? item.name}`;
  const read = readChecked(root, rel, storedPath(vault, item));
  if (read === null) {
    throw new NotedError('not_found', `The deletion ${item.id} of "${item.name}" is no longer in the trash.`);
  }
  return read.bytes;
}

/**
 * Puts a trashed note back at its original path. Without `id`, the latest deletion of that name.
 * Refuses with `already_exists` when a note is at that path again; nothing is overwritten.
 */
export function restoreFromTrash(vault: Vault, item: TrashItem, allow: Sight = ANYWHERE): void {
  if (item.deletedAs !== undefined)
    throw new Error('A note deleted in the other format is restored converted.');
  const source = storedPath(vault, item);
  let restored: boolean;
  try {
    // Never over a file: a note created in the meantime is never replaced (checked-write.ts).
    restored = moveInChecked(vault.root, source, vault.pathOf(item.name), item.name, allow);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new NotedError(
        'not_found',
        `The deletion ${item.id} of "${item.name}" is no longer in the trash.`,
      );
    }
    throw err;
  }
  if (!restored) throw alreadyThere(item.name);
  removeEmptyDeletion(vault, item.id);
}

/**
 * Restores a note deleted in the vault's other format (`item.deletedAs`) as `bytes`, its conversion,
 * under `item.name`; then removes the trashed file. Never over a note: `already_exists` when one is
 * there. A crash between the two steps leaves the trashed copy, which then cannot be restored over
 * the restored note.
 */
export function restoreConvertedFromTrash(
  vault: Vault,
  item: TrashItem,
  bytes: Uint8Array,
  allow: Sight = ANYWHERE,
): void {
  const source = storedPath(vault, item);
  if (!fs.existsSync(source)) {
    throw new NotedError('not_found', `The deletion ${item.id} of "${item.name}" is no longer in the trash.`);
  }
  if (vault.create(item.name, bytes, allow) === null) throw alreadyThere(item.name);
  fs.rmSync(source, { force: true });
  removeEmptyDeletion(vault, item.id);
}

function alreadyThere(name: string): NotedError {
  return new NotedError(
    'already_exists',
    `A note "${name}" exists again, so the trashed version was not restored over it. Rename or delete the existing note first, or read both and merge them by hand.`,
    { name },
  );
}

function removeEmptyDeletion(vault: Vault, id: string): void {
  const dir = path.join(trashRoot(vault), id);
  const left = walkVault(dir, vault.ending);
  // Files of the other format are deletions too (listTrash).
  if (left.notes.length === 0 && left.attachments.length === 0)
    fs.rmSync(dir, { recursive: true, force: true });
}

/** Removes deletions older than `retentionDays` (0 keeps everything). Returns how many were purged. */
export function purgeTrash(vault: Vault, retentionDays: number, now: Date): number {
  if (retentionDays <= 0) return 0;
  const root = trashRoot(vault);
  let ids: string[];
  try {
    ids = fs.readdirSync(root);
  } catch {
    return 0;
  }
  let purged = 0;
  for (const id of ids) {
    const at = deletedAtOf(id);
    if (at && isPastRetention(at, retentionDays, now)) {
      fs.rmSync(path.join(root, id), { recursive: true, force: true });
      purged++;
    }
  }
  return purged;
}
