/**
 * @module
 * The text a write tool answers with, shared by create_note, update_note and edit_note.
 */
import type { StagedResult, WriteResult } from '../../access/types.js';

export function describeStaged(result: StagedResult): string {
  const what = { create: 'creation of', update: 'change to', delete: 'deletion of' }[result.kind];
  return `Staged, not applied: the ${what} ${result.note} waits for the vault owner's review (pending change ${result.pendingId}). The note stays as it was until the owner approves it; do not repeat the change.`;
}

export function describeWrite(verb: string, result: WriteResult | StagedResult): string {
  if ('staged' in result) return describeStaged(result);
  if (result.changed === false) {
    return `The note ${result.name} already had exactly this text; nothing was written. etag: ${result.etag}`;
  }
  return `${verb} ${result.name}. New etag: ${result.etag} (modified ${result.modified}). Pass this etag as expected_etag to your next write of this note.`;
}
