/**
 * @module
 * The shapes of staged changes (SPEC 5): a write an agent made in a staged folder, computed at once
 * and kept until the vault owner approves or rejects it.
 */

export type ChangeKind = 'create' | 'update' | 'delete';

export interface PendingChange {
  /** Sortable by time and unique across processes, e.g. `20260314-091502-123-4f9a2c`. */
  readonly id: string;
  /** Canonical vault-relative name of the note, e.g. `drafts/plan.md`. */
  readonly note: string;
  readonly kind: ChangeKind;
  /** The etag of the note the agent saw; null for a create (no note was there). */
  readonly baseEtag: string | null;
  /** The note's text the agent saw; null for a create. */
  readonly baseText: string | null;
  /** The note's text after the change; null for a delete. */
  readonly newText: string | null;
  /** The server run (MCP session) that asked. */
  readonly session: string;
  /** The client's self-declared name: shown to the owner as unverified, never trusted. */
  readonly client: string;
  /** The tool that made the change, e.g. `edit_note`. */
  readonly tool: string;
  /** When it was staged (ISO 8601). */
  readonly createdAt: string;
}

/** A pending change without its texts: what a listing needs, cheap to read. */
export type PendingSummary = Omit<PendingChange, 'baseText' | 'newText'>;

/** What the gate hands to `PendingStore.add`; the store assigns `id` and `createdAt`. */
export type NewPendingChange = Omit<PendingChange, 'id' | 'createdAt'>;
