/**
 * @module
 * What the gate hands the journal for one change: checked for the kinds' rules (a caller's mistake is a
 * bug, thrown as a plain Error), then turned into an entry's fields and the texts to store by hash.
 */
import {
  type JournalKind,
  MAX_STORED_TEXT_BYTES,
  type OwnerDecision,
  sha256Hex,
  type UnhashedEntry,
} from './entry.js';

export interface RecordInput {
  readonly session: string;
  readonly client: string | null;
  readonly tool: string;
  /** Canonical vault-relative name of the note. */
  readonly note: string;
  readonly kind: JournalKind;
  /** The note's text (or exact bytes) before the change; null when it did not exist. */
  readonly before: string | Uint8Array | null;
  /** The text (or bytes) about to be written; null when the note is about to be removed. */
  readonly after: string | Uint8Array | null;
  /** Shared by every entry of one operation that changes several notes. */
  readonly group?: string;
  /** For kind `undo`: the entry being undone. */
  readonly undoOf?: string;
  /** For kind `not_applied` (the start-up check, reconcile.ts): the entry never applied. */
  readonly voids?: string;
  /** The owner's decision this entry records; required for kind `decision`. */
  readonly decision?: OwnerDecision;
}

/** An entry's own fields: what `append` chains, numbers and hashes. */
export type EntryFields = Omit<UnhashedEntry, 'id' | 'seq' | 'time' | 'prev'>;

export interface Blob {
  readonly sha256: string;
  readonly bytes: Buffer;
}

/** Checks one input and works out its hashes, the texts to store, and its entry's fields. */
export function prepare(input: RecordInput): { fields: EntryFields; blobs: Blob[] } {
  checkRecordInput(input);
  const before = input.before === null ? null : Buffer.from(input.before);
  const after = input.after === null ? null : Buffer.from(input.after);
  const beforeSha256 = before === null ? null : sha256Hex(before);
  const afterSha256 = after === null ? null : sha256Hex(after);
  const beforeStored = before !== null && before.length <= MAX_STORED_TEXT_BYTES;
  const afterStored = after !== null && after.length <= MAX_STORED_TEXT_BYTES;
  const blobs: Blob[] = [];
  if (beforeStored) blobs.push({ sha256: beforeSha256 as string, bytes: before });
  if (afterStored) blobs.push({ sha256: afterSha256 as string, bytes: after });
  return {
    blobs,
    fields: {
      session: input.session,
      client: input.client,
      tool: input.tool,
      note: input.note,
      kind: input.kind,
      beforeSha256,
      afterSha256,
      beforeStored,
      afterStored,
      ...(input.group === undefined ? {} : { group: input.group }),
      ...(input.undoOf === undefined ? {} : { undoOf: input.undoOf }),
      ...(input.voids === undefined ? {} : { voids: input.voids }),
      ...(input.decision === undefined ? {} : { decision: input.decision }),
    },
  };
}

/** A mismatch here is a bug in the caller (the gate), not something an agent can act on. */
function checkRecordInput(input: RecordInput): void {
  checkNotApplied(input);
  const b = input.before !== null;
  const a = input.after !== null;
  const ok =
    input.kind === 'create' || input.kind === 'restore'
      ? !b && a
      : input.kind === 'delete'
        ? b && !a
        : input.kind === 'update'
          ? b && a
          : input.kind === 'not_applied' || input.kind === 'decision'
            ? true // checked by checkNotApplied: before and after are equal, both may be null
            : b || a;
  if (!ok) throw new Error(`journal.record: a ${input.kind} entry cannot have before=${b} and after=${a}`);
  if (input.session === '' || input.tool === '' || input.note === '') {
    throw new Error('journal.record: session, tool and note must not be empty');
  }
}

/**
 * A `not_applied` entry changes nothing: it names the entry it voids, and its before and after are the
 * same (the note as found, or both null when there is no note). So does a `decision` entry (the owner
 * rejected a staged change, or put one back), which names its decision.
 */
function checkNotApplied(input: RecordInput): void {
  if ((input.kind === 'not_applied') !== (input.voids !== undefined)) {
    throw new Error('journal.record: voids goes with kind not_applied, and only with it');
  }
  if (input.kind === 'decision' && input.decision === undefined) {
    throw new Error('journal.record: a decision entry names the decision');
  }
  if (input.kind !== 'not_applied' && input.kind !== 'decision') return;
  const same =
    input.before === null || input.after === null
      ? input.before === input.after
      : Buffer.from(input.before).equals(Buffer.from(input.after));
  if (!same) throw new Error(`journal.record: a ${input.kind} entry must have the same before and after`);
}
