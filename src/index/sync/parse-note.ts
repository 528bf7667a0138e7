/**
 * @module
 * Reads one note file and derives its index record: the work a parser thread does.
 */
import type { NoteFormat } from '../../format/note-format.js';
import { type CheckedFile, readInside } from '../../vault/confine.js';
import { etagOf } from '../../vault/etag.js';
import type { FileEntry } from '../../vault/walk.js';
import { type DerivedNote, deriveNote } from '../store/derive.js';

export interface ParsedNote {
  readonly file: FileEntry;
  readonly etag: string;
  readonly derived: DerivedNote;
}

/**
 * Null when the file vanished, is out of sight by now, is no longer where the walk found it, or cannot
 * be read (it is then left out of the index). `root` is the vault's real root.
 */
export function parseNoteFile(root: string, file: FileEntry, format: NoteFormat): ParsedNote | null {
  let read: CheckedFile | null;
  try {
    read = readInside(root, file.name);
  } catch {
    return null;
  }
  // Security: the walk judged the note at its real place (hidden or not, by policy, at query time);
  // a file read from anywhere else (a folder swapped for a link since) is not this note (issue 25).
  if (read === null || read.real !== (file.real ?? file.name)) return null;
  const { bytes } = read;
  return { file, etag: etagOf(bytes), derived: deriveNote(file.name, bytes.toString('utf8'), format) };
}
