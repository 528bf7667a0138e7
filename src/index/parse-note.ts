/**
 * @module
 * Reads one note file and derives its index record: the work a parser thread does.
 */
import type { NoteFormat } from '../format/note-format.js';
import { readInside } from '../vault/confine.js';
import { etagOf } from '../vault/etag.js';
import type { FileEntry } from '../vault/walk.js';
import { type DerivedNote, deriveNote } from './derive.js';

export interface ParsedNote {
  readonly file: FileEntry;
  readonly etag: string;
  readonly derived: DerivedNote;
}

/**
 * Null when the file vanished, is out of sight by now, or cannot be read (it is then left out of the
 * index). `root` is the vault's real root.
 */
export function parseNoteFile(root: string, file: FileEntry, format: NoteFormat): ParsedNote | null {
  let bytes: Buffer | null;
  try {
    bytes = readInside(root, file.name);
  } catch {
    return null;
  }
  if (bytes === null) return null;
  return { file, etag: etagOf(bytes), derived: deriveNote(file.name, bytes.toString('utf8'), format) };
}
