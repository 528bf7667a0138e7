/**
 * @module
 * What a note's row in `notes` takes from its file: the folded folder and file name, and when the file
 * was made.
 */
import type { FileEntry } from '../../vault/walk.js';

/**
 * The folder and file parts of a folded path. Folding never adds or removes a `/` (NFC does not
 * compose across it, and no lower-case mapping yields it), so the parts of the folded path are the
 * folded parts.
 */
export function foldedParts(pathLower: string): { folder: string; file: string } {
  const slash = pathLower.lastIndexOf('/');
  return { folder: slash === -1 ? '' : pathLower.slice(0, slash), file: pathLower.slice(slash + 1) };
}

/**
 * A file's `file.ctime` as query_notes and bases read it: its birth time, or, on a file system that
 * keeps none (0), the earlier of its change and modification times.
 */
export function fileCtime(birthtimeMs: number, ctimeMs: number, mtimeMs: number): number {
  return birthtimeMs > 0 ? birthtimeMs : Math.min(ctimeMs, mtimeMs);
}

/**
 * When the note was created, as list_notes and search_notes give it: {@link fileCtime}, but never
 * later than its modification (a file copied or synced with its time kept was born after it was last
 * written, and a note is not created after it was modified).
 */
export function birthTime(file: FileEntry): number {
  return Math.min(fileCtime(file.birthtimeMs, file.ctimeMs, file.mtimeMs), file.mtimeMs);
}
