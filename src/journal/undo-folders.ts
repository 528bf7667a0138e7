/**
 * @module
 * Undoing a move leaves no folder the move made: when the note leaves a folder that is empty then, that
 * folder and each empty one above it are removed (issue 30).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JournalEntry } from './entry.js';
import type { UndoJournal } from './undo-journal.js';

/** An operation that moved a note: a note deleted at one name and created at another, together. */
export function isMove(unit: readonly JournalEntry[]): boolean {
  return unit.some((e) => e.kind === 'delete') && unit.some((e) => e.kind === 'create');
}

/**
 * Undoing a move takes the note out of the folder it was moved into: that folder, and each one above it
 * up to the vault, is removed when it is empty now (the move made it; nothing else is in it).
 */
export function removeEmptyFolders(journal: UndoJournal, note: string): void {
  const parts = note.split('/').slice(0, -1);
  for (let n = parts.length; n > 0; n--) {
    try {
      fs.rmdirSync(path.join(journal.vault.root, ...parts.slice(0, n)));
    } catch {
      return; // not empty (or already gone): the folders above are not empty either
    }
  }
}
