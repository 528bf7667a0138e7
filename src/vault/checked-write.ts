/**
 * @module
 * Writing notes where they were checked (issue 25 item 4): atomic replace, create, remove and move, each
 * made relative to a folder opened and checked once (checked-folder.ts), and each refused, with nothing
 * left behind, when the file's real place there is not one `allow` accepts (the gate passes the
 * policy: a folder swapped for a link into a hidden one between the policy check and the write).
 * The guarantees of atomic-write.ts stay: a temporary file in the same folder, fsync, rename, the
 * folder synced; an existing file is never replaced by a create or a move.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createFromTemp, renameTemps, type TempWrite, tempPathFor, writeTemps } from './atomic-write.js';
import { type OpenedFolder, openFolder, type Sight } from './checked-folder.js';

/** One note of a batch for `writeNotesChecked`. */
export interface NoteWrite {
  /** The note's name, for errors. */
  readonly name: string;
  /** Its path, as `resolveInside` gave it. */
  readonly abs: string;
  readonly data: Uint8Array;
  /** Asked right before this file's rename with the path to look at; false leaves the note as it is. */
  readonly still?: (at: string) => boolean;
  /** Whether the note may be written at its real place. */
  readonly allow: Sight;
}

/**
 * Opens the folder of `abs` (made when missing and `create`), refusing it, before anything is made,
 * unless `allow` accepts the file's real place there. The refusal is the answer a link that leads
 * nowhere gets, so a hidden folder there cannot be told from none.
 */
function folderFor(
  root: string,
  abs: string,
  name: string,
  allow: Sight,
  create: boolean,
): OpenedFolder | null {
  const base = path.basename(abs);
  return openFolder(root, path.dirname(abs), name, create, (real) =>
    allow(real === '' ? base : `${real}/${base}`),
  );
}

/**
 * Replaces several notes, each atomically, with one batch of syncs (atomic-write.ts `writeFilesAtomic`):
 * every temporary file is written and synced before any rename. Returns the writes skipped because
 * `still` said no. When it throws, no note changed and no temporary file is left.
 */
export function writeNotesChecked(root: string, files: readonly NoteWrite[]): NoteWrite[] {
  const folders: OpenedFolder[] = [];
  try {
    const temps: TempWrite<NoteWrite>[] = files.map((file) => {
      const folder = folderFor(root, file.abs, file.name, file.allow, true) as OpenedFolder;
      folders.push(folder);
      return {
        tmp: folder.at(path.basename(tempPathFor(file.abs))),
        target: folder.at(path.basename(file.abs)),
        data: file.data,
        of: file,
      };
    });
    writeTemps(temps);
    return renameTemps(temps, (file, target) => file.still?.(target) ?? true);
  } finally {
    for (const folder of folders) {
      folder.sync();
      folder.close();
    }
  }
}

/**
 * Creates a note only if nothing is at its name, atomically (the whole file appears or nothing);
 * false when something is there. Folders on the way are made.
 */
export function createNoteChecked(
  root: string,
  abs: string,
  name: string,
  data: Uint8Array,
  allow: Sight,
): boolean {
  const folder = folderFor(root, abs, name, allow, true) as OpenedFolder;
  try {
    const tmp = folder.at(path.basename(tempPathFor(abs)));
    if (!createFromTemp(tmp, folder.at(path.basename(abs)), data)) return false;
    folder.sync();
    return true;
  } finally {
    folder.close();
  }
}

/**
 * Removes a note only while `still` says yes (asked with the path to look at); false, and nothing
 * removed, when it says no or the folder is gone.
 */
export function removeNoteChecked(
  root: string,
  abs: string,
  name: string,
  allow: Sight,
  still: (at: string) => boolean,
): boolean {
  const folder = folderFor(root, abs, name, allow, false);
  if (folder === null) return false;
  try {
    const target = folder.at(path.basename(abs));
    if (!still(target)) return false;
    fs.rmSync(target, { force: true });
    folder.sync();
    return true;
  } finally {
    folder.close();
  }
}

/** One end of a move: a note's name, its path as `resolveInside` gave it, and where it may be. */
export interface MoveEnd {
  readonly name: string;
  readonly abs: string;
  readonly allow: Sight;
}

/**
 * Moves a note without ever replacing a file at the destination (link, then unlink); false when the
 * destination is taken. A move that only changes the letter case of the same file is a rename.
 */
export function moveNoteChecked(root: string, from: MoveEnd, to: MoveEnd): boolean {
  const source = folderFor(root, from.abs, from.name, from.allow, false);
  if (source === null) throw Object.assign(new Error(`ENOENT: ${from.name}`), { code: 'ENOENT' });
  let target: OpenedFolder | null = null;
  try {
    target = folderFor(root, to.abs, to.name, to.allow, true) as OpenedFolder;
    const a = source.at(path.basename(from.abs));
    const b = target.at(path.basename(to.abs));
    if (from.abs.toLowerCase() !== to.abs.toLowerCase()) return placeNoClobber(a, b);
    fs.renameSync(a, b);
    return true;
  } finally {
    target?.sync();
    target?.close();
    source.sync();
    source.close();
  }
}

/**
 * Moves a note out of the vault's notes to `destination` (the trash, in the state folder), from where
 * it was checked.
 */
export function moveOutChecked(
  root: string,
  abs: string,
  name: string,
  allow: Sight,
  destination: string,
): void {
  const source = folderFor(root, abs, name, allow, false);
  if (source === null) throw Object.assign(new Error(`ENOENT: ${name}`), { code: 'ENOENT' });
  try {
    fs.renameSync(source.at(path.basename(abs)), destination);
    source.sync();
  } finally {
    source.close();
  }
}

/** Moves `source` (outside the notes: a trashed file) to a note's place, never over a file; false when taken. */
export function moveInChecked(
  root: string,
  source: string,
  abs: string,
  name: string,
  allow: Sight,
): boolean {
  const folder = folderFor(root, abs, name, allow, true) as OpenedFolder;
  try {
    const placed = placeNoClobber(source, folder.at(path.basename(abs)));
    folder.sync();
    return placed;
  } finally {
    folder.close();
  }
}

/**
 * Puts the file `from` at `to` without ever replacing a file there: a hard link (which refuses an
 * existing target, unlike rename), then the old name removed. False when `to` is taken; a missing
 * `from` throws ENOENT.
 */
function placeNoClobber(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') throw err;
    // File systems without hard links: check, then rename (a narrow race, accepted there).
    if (fs.existsSync(to)) return false;
    fs.renameSync(from, to);
    return true;
  }
  fs.rmSync(from, { force: true });
  return true;
}
