/**
 * @module
 * The note format of the vault an index database belongs to (SPEC 11.1): it reads each note, and its
 * ending is what link keys and name look-ups append to a name without a dot. Whoever opens the
 * database for a vault says it once (NoteIndex.open); a database nobody told is a Markdown vault's.
 */
import type { NoteEnding } from '../../common/note-ending.js';
import { markdownFormat } from '../../format/markdown-format.js';
import type { NoteFormat } from '../../format/note-format.js';
import type { Db } from '../db/database.js';

const formats = new WeakMap<Db, NoteFormat>();

export function setIndexFormat(db: Db, format: NoteFormat): void {
  formats.set(db, format);
}

export function indexFormat(db: Db): NoteFormat {
  return formats.get(db) ?? markdownFormat;
}

export function indexEnding(db: Db): NoteEnding {
  return indexFormat(db).ending;
}
