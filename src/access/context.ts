/**
 * @module
 * What every gate operation works with. Built once by the entry point.
 */
import type { Diagnostics } from '../common/diagnostics.js';
import type { NoteIndex } from '../index/sync/note-index.js';
import type { Journal } from '../journal/journal.js';
import type { PendingStore } from '../staging/pending-store.js';
import type { Vault } from '../vault/vault.js';

export interface AccessContext {
  readonly vault: Vault;
  readonly index: NoteIndex;
  readonly journal: Journal;
  readonly pending: PendingStore;
  readonly trashRetentionDays: number;
  readonly now: () => Date;
  /** The server's diagnostics (stderr, and log messages to clients). */
  readonly diagnostics: Diagnostics;
}

/** The most a note body written through the tools may weigh (SPEC 3.3). */
export const MAX_NOTE_BYTES = 5 * 1024 * 1024;

/** Who is writing, as the journal records it. */
export interface Writer {
  readonly session: string;
  readonly client: string | null;
}

export function iso(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}
