/**
 * @module
 * One journal entry (SPEC 6.1, 6.2): its fields, its id, and the hash that chains it to the entry
 * before. Pure: no file-system access, so the rules of the chain are readable in one place.
 *
 * On disk an entry is one line of JSON in the day's file, fields in the order of `JournalEntry`.
 * `hash` is the hex SHA-256 of the entry's canonical JSON without `hash` and `mac`: keys sorted, no
 * spaces, optional fields left out when absent. Canonical form makes the hash independent of how a
 * line happens to be laid out, so only a change of content breaks it. `mac` authenticates `hash`
 * with the user's journal key (journal-key.ts), named by `keyId`; entries written before the journal
 * had a key carry neither.
 */
import { createHash, randomBytes } from 'node:crypto';

/**
 * `not_applied` is not a change: the start-up check (reconcile.ts) appends it when an entry was
 * recorded but its note was never written (the process died in between); it names that entry in
 * `voids` and leaves the note as it is.
 */
export const JOURNAL_KINDS = [
  'create',
  'update',
  'delete',
  'restore',
  'undo',
  'not_applied',
  'decision',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * What the vault owner decided (SPEC 9.4): approving a staged change (on the entry that writes it),
 * undoing (on the `undo` entry), and rejecting a staged change or putting a rejected one back to
 * pending. The last two change no note: they are entries of kind `decision`, whose before and after
 * are both the note as it was then (like `not_applied`), so the chain holds them and undo skips them.
 */
export const DECISION_ACTIONS = ['approve', 'reject', 'put_back', 'undo'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export interface OwnerDecision {
  readonly by: 'owner';
  readonly action: DecisionAction;
  /** The staged change decided on (approve, reject, put_back). */
  readonly pending?: string;
  /** For an approval of an update: how many hunks it had and which were applied. */
  readonly hunks?: { readonly total: number; readonly kept: readonly number[] };
  /** For an approval: the kept hunks were merged onto the owner's later edits (three-way). */
  readonly merged?: boolean;
  /** For a rejection: the owner's reason, when given. */
  readonly reason?: string;
}

/** Texts larger than this are recorded by hash only (SPEC 6.3). */
export const MAX_STORED_TEXT_BYTES = 5 * 1024 * 1024;

export interface JournalEntry {
  /** `<UTC time>-<seq>-<random>`, e.g. `20261201T033617123Z-00000042-9f3a1c`: sortable, unique. */
  readonly id: string;
  /** 1, 2, 3… across every day file, without gaps. */
  readonly seq: number;
  /** ISO 8601 time of the entry. */
  readonly time: string;
  /** The server run (or HTTP session) that made the change. */
  readonly session: string;
  /** The client's self-declared name (unverified), or null when it gave none. */
  readonly client: string | null;
  /** The tool that made the change (`edit_note`, `undo`, …). */
  readonly tool: string;
  /** Canonical vault-relative name of the note. */
  readonly note: string;
  readonly kind: JournalKind;
  /** Hex SHA-256 of the text before the change, null when the note did not exist. */
  readonly beforeSha256: string | null;
  /** Hex SHA-256 of the text after the change, null when the note no longer exists. */
  readonly afterSha256: string | null;
  /** False when there is no before-text, or it was over 5 MB and is recorded by hash only. */
  readonly beforeStored: boolean;
  readonly afterStored: boolean;
  /** Shared by the entries of one operation that changed several notes (SPEC 6.3). */
  readonly group?: string;
  /** For kind `undo`: the id of the entry it undid. */
  readonly undoOf?: string;
  /** For kind `not_applied`: the id of the entry whose change was recorded but never made. */
  readonly voids?: string;
  /** The owner's decision this entry records (absent on agents' changes and older entries). */
  readonly decision?: OwnerDecision;
  /** The previous entry's `hash`, null for the very first entry. */
  readonly prev: string | null;
  /** Which journal key authenticated the entry (journal-key.ts); hashed with the rest. */
  readonly keyId?: string;
  readonly hash: string;
  /** HMAC-SHA256 of `hash` under the key `keyId` names; absent on entries written without a key. */
  readonly mac?: string;
}

export type UnhashedEntry = Omit<JournalEntry, 'hash' | 'mac'>;

const HEX64 = /^[0-9a-f]{64}$/;
const KEY_ID = /^[0-9a-f]{16}$/;
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const ID_PATTERN = /^(\d{4})(\d{2})(\d{2})T\d{9}Z-\d{8,}-[0-9a-f]{6}$/;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function isSha256Hex(value: string): boolean {
  return HEX64.test(value);
}

/** JSON with object keys sorted at every level and undefined fields left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}

/** The hash an entry must carry: SHA-256 of its canonical JSON without `hash` and `mac`. */
export function entryHash(entry: UnhashedEntry | JournalEntry): string {
  const { hash: _hash, mac: _mac, ...rest } = entry as JournalEntry;
  return sha256Hex(canonicalJson(rest));
}

/** A new entry id: the time to the millisecond, the sequence number, and 24 random bits. */
export function newEntryId(time: Date, seq: number): string {
  const compact = time.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${compact}-${String(seq).padStart(8, '0')}-${randomBytes(3).toString('hex')}`;
}

/**
 * A new id for the entries of one operation that changes several notes (SPEC 6.3), e.g.
 * `g-20261201T033617123Z-1a2b3c4d`.
 */
export function newGroupId(time: Date): string {
  const compact = time.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `g-${compact}-${randomBytes(4).toString('hex')}`;
}

/** Whether `value` has the shape newGroupId makes (safe as a file name). */
export function isGroupId(value: string): boolean {
  return /^g-\d{8}T\d{9}Z-[0-9a-f]{8}$/.test(value);
}

/** The UTC day (`YYYY-MM-DD`) an id was made on, or null when it is not an entry id. */
export function dayOfId(id: string): string | null {
  const m = ID_PATTERN.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** The day of a day file's name, or null for anything else in the journal folder. */
export function dayOfFile(fileName: string): string | null {
  return DAY_FILE.exec(fileName)?.[1] ?? null;
}

/** Lays an entry out as its line (without the line break), fields in a fixed, readable order. */
export function entryLine(entry: JournalEntry): string {
  const ordered: Record<string, unknown> = {
    id: entry.id,
    seq: entry.seq,
    time: entry.time,
    session: entry.session,
    client: entry.client,
    tool: entry.tool,
    note: entry.note,
    kind: entry.kind,
    beforeSha256: entry.beforeSha256,
    afterSha256: entry.afterSha256,
    beforeStored: entry.beforeStored,
    afterStored: entry.afterStored,
    group: entry.group,
    undoOf: entry.undoOf,
    voids: entry.voids,
    decision: entry.decision,
    prev: entry.prev,
    keyId: entry.keyId,
    hash: entry.hash,
    mac: entry.mac,
  };
  return JSON.stringify(ordered);
}

/**
 * Reads one line back into an entry. Returns a reason instead when the line is not JSON or lacks a
 * field of the right type; the hash is not checked here (see verify.ts).
 */
export function parseEntryLine(line: string): JournalEntry | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: 'the line is not JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'the line is not a JSON object' };
  }
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  const str = (k: string) => typeof v[k] === 'string' || problems.push(k);
  const strOrNull = (k: string) => v[k] === null || typeof v[k] === 'string' || problems.push(k);
  const shaOrNull = (k: string) =>
    v[k] === null || (typeof v[k] === 'string' && HEX64.test(v[k] as string)) || problems.push(k);
  const optStr = (k: string) => v[k] === undefined || typeof v[k] === 'string' || problems.push(k);
  const bool = (k: string) => typeof v[k] === 'boolean' || problems.push(k);
  str('id');
  if (!Number.isSafeInteger(v.seq) || (v.seq as number) < 1) problems.push('seq');
  str('time');
  str('session');
  strOrNull('client');
  str('tool');
  str('note');
  if (!(JOURNAL_KINDS as readonly unknown[]).includes(v.kind)) problems.push('kind');
  shaOrNull('beforeSha256');
  shaOrNull('afterSha256');
  bool('beforeStored');
  bool('afterStored');
  optStr('group');
  optStr('undoOf');
  // Only a `not_applied` entry voids another, and it always names the one it voids.
  if (v.kind === 'not_applied' ? typeof v.voids !== 'string' : v.voids !== undefined) problems.push('voids');
  if (v.kind === 'decision' ? !isDecision(v.decision) : v.decision !== undefined && !isDecision(v.decision)) {
    problems.push('decision');
  }
  shaOrNull('prev');
  if (typeof v.hash !== 'string' || !HEX64.test(v.hash)) problems.push('hash');
  // An authenticated entry names its key and carries its code; an entry from before keys has neither.
  if (v.keyId !== undefined || v.mac !== undefined) {
    if (typeof v.keyId !== 'string' || !KEY_ID.test(v.keyId)) problems.push('keyId');
    if (typeof v.mac !== 'string' || !HEX64.test(v.mac)) problems.push('mac');
  }
  if (problems.length > 0) return { error: `the entry lacks valid fields: ${problems.join(', ')}` };
  return v as unknown as JournalEntry;
}

function isDecision(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const d = value as Record<string, unknown>;
  return d.by === 'owner' && (DECISION_ACTIONS as readonly unknown[]).includes(d.action);
}

/** An entry that changed no note: a `not_applied` note or an owner's `decision` (reject, put back). */
export function changesNothing(entry: Pick<JournalEntry, 'kind'>): boolean {
  return entry.kind === 'not_applied' || entry.kind === 'decision';
}

export function isEntry(parsed: JournalEntry | { error: string }): parsed is JournalEntry {
  return !('error' in parsed);
}
