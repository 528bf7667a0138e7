/**
 * @module
 * The text a write tool answers with, shared by create_note, update_note and edit_note.
 */
import type { WriteResult } from '../../access/types.js';

export function describeWrite(verb: string, result: WriteResult): string {
  if (result.changed === false) {
    return `The note ${result.name} already had exactly this text; nothing was written. etag: ${result.etag}`;
  }
  return `${verb} ${result.name}. New etag: ${result.etag} (modified ${result.modified}). Pass this etag as expected_etag to your next write of this note.`;
}
