/**
 * @module
 * The journal as an undo sees it (undo.ts, undo-units.ts): what to undo ({@link UndoTarget}) and the
 * members of the journal it reads and records through ({@link UndoJournal}), which `Journal`
 * implements. Kept apart so that the undo can be read without the journal's storage, and the journal
 * without the undo.
 */

import type { Vault } from '../vault/vault.js';
import type { JournalEntry } from './entry.js';
import type { JournalKeyState } from './journal-key.js';
import type { RecordInput } from './record-input.js';
import type { VerifyResult } from './verify.js';

/** One entry, every entry of a session, or every entry of one operation (a group). */
export type UndoTarget =
  | { readonly entry: string }
  | { readonly session: string }
  | { readonly group: string };

export interface UndoJournal {
  readonly vault: Vault;
  readonly now: () => Date;
  readonly key: JournalKeyState;
  record(input: RecordInput): JournalEntry;
  voidEntries(voided: readonly { entry: JournalEntry; now: Uint8Array | null }[]): boolean;
  verify(options?: { texts?: boolean; hashes?: string[]; checked?: Set<string> }): VerifyResult;
  get(id: string): JournalEntry | null;
  bytesOf(sha256: string): Buffer | null;
  entries(fromDay?: string): JournalEntry[];
}
