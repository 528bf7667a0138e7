/**
 * @module
 * Reads one note file and derives its index record: the work a parser thread does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { etagOf } from '../vault/etag.js';
import type { FileEntry } from '../vault/walk.js';
import { type DerivedNote, deriveNote } from './derive.js';

export interface ParsedNote {
  readonly file: FileEntry;
  readonly etag: string;
  readonly derived: DerivedNote;
}

/** Null when the file vanished or cannot be read (it is then left out of the index). */
export function parseNoteFile(root: string, file: FileEntry): ParsedNote | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(root, ...file.name.split('/')));
  } catch {
    return null;
  }
  return { file, etag: etagOf(bytes), derived: deriveNote(file.name, bytes.toString('utf8')) };
}
