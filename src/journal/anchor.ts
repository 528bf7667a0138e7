/**
 * @module
 * Anchoring a journal's head outside the vault (SPEC 6.2). A hash chain shows an entry changed in
 * place, but not entries cut off its end, nor a day file emptied or removed: what remains is a valid,
 * shorter chain. So after every append the journal writes its newest entry's `seq` and `hash` to
 * `<configuration folder>/anchors/<vault id>.json`, beside the key; verify then finds a journal that
 * ends before its anchor, or holds another entry at the anchored `seq`.
 *
 * A vault is known by a random id kept in its journal folder (`vault-id`), so that moving or renaming
 * the vault keeps its anchor. A copy of a vault (a backup restored beside it) shares the id; the first
 * change to the copy gives it an id of its own (see `Journal`), so the two never fight over one anchor.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { replaceFile, writeFileAtomic } from '../vault/atomic-write.js';
import { readStateFile, SMALL_STATE_FILE_BYTES } from '../vault/state-file.js';

export const VAULT_ID_FILE = 'vault-id';
const VAULT_ID = /^[0-9a-f]{32}$/;

export interface Anchor {
  readonly vaultId: string;
  /** The vault's real path when the anchor was last written: tells a moved vault from a copy. */
  readonly vault: string;
  /** The newest entry when the anchor was written. */
  readonly seq: number;
  readonly hash: string;
  /** The first entry written with a key for this vault: every entry from there on must carry a code. */
  readonly authenticatedFrom: number;
  /**
   * The owner pruned the stored texts of entries before this one (prune.ts): their texts may be gone.
   * Kept here, outside the vault, so that deleting texts in the vault cannot pass for a prune.
   */
  readonly prunedBefore?: number;
  readonly updated: string;
}

/** The vault id in `journalDir`: null when there is none, `damaged` when the file holds no valid id. */
export function readVaultId(journalDir: string): string | null | 'damaged' {
  let text: string;
  try {
    text = readStateFile(path.join(journalDir, VAULT_ID_FILE), SMALL_STATE_FILE_BYTES).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'damaged';
  }
  return VAULT_ID.test(text) ? text : 'damaged';
}

/**
 * Gives the journal a new id, replacing any (a copy's, or a damaged one). Called under the journal
 * lock; the file is replaced atomically.
 */
export function newVaultId(journalDir: string): string {
  const id = randomBytes(16).toString('hex');
  fs.mkdirSync(journalDir, { recursive: true });
  writeFileAtomic(path.join(journalDir, VAULT_ID_FILE), `${id}\n`);
  return id;
}

function anchorsDir(keyDir: string): string {
  return path.join(keyDir, 'anchors');
}

/** The anchor of a vault id, `damaged` when its file cannot be understood, null when there is none. */
export function readAnchor(keyDir: string, vaultId: string): Anchor | null | 'damaged' {
  if (!VAULT_ID.test(vaultId)) return null;
  let text: string;
  try {
    text = fs.readFileSync(path.join(anchorsDir(keyDir), `${vaultId}.json`), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'damaged';
  }
  return parseAnchor(text) ?? 'damaged';
}

/**
 * Writes a vault's anchor (owner-only, atomically by rename), not synced: every append holds the journal
 * lock while it does this, and a crash can only leave the anchor before (behind the journal, which
 * verify takes for what it is) or, on some file systems, an empty file (verify says the anchor was
 * damaged and cannot vouch for the end; the next append writes it anew).
 */
export function writeAnchor(keyDir: string, anchor: Anchor): void {
  const dir = anchorsDir(keyDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  replaceFile(path.join(dir, `${anchor.vaultId}.json`), `${JSON.stringify(anchor)}\n`, { sync: false });
}

/** The anchors last written by a vault at `root` (its journal may since have lost or changed its id). */
export function anchorsAt(keyDir: string, root: string): Anchor[] {
  let names: string[];
  try {
    names = fs.readdirSync(anchorsDir(keyDir));
  } catch {
    return [];
  }
  const out: Anchor[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const anchor = parseAnchor(fs.readFileSync(path.join(anchorsDir(keyDir), name), 'utf8'));
      if (anchor !== null && anchor.vault === root) out.push(anchor);
    } catch {
      // An anchor that vanished or cannot be read belongs to no vault we can name.
    }
  }
  return out;
}

/** The path of a vault's anchor file, for messages. */
export function anchorFile(keyDir: string, vaultId: string): string {
  return path.join(anchorsDir(keyDir), `${vaultId}.json`);
}

/**
 * True when the vault the anchor was written for still stands at its recorded place with the same id:
 * the vault at hand is then a copy of it, not the same vault moved.
 */
export function anchorOwnerStillThere(anchor: Anchor, journalDirOf: (root: string) => string): boolean {
  return readVaultId(journalDirOf(anchor.vault)) === anchor.vaultId;
}

function parseAnchor(text: string): Anchor | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  const ok =
    typeof a.vaultId === 'string' &&
    VAULT_ID.test(a.vaultId) &&
    typeof a.vault === 'string' &&
    Number.isSafeInteger(a.seq) &&
    (a.seq as number) >= 0 &&
    typeof a.hash === 'string' &&
    Number.isSafeInteger(a.authenticatedFrom) &&
    (a.prunedBefore === undefined || Number.isSafeInteger(a.prunedBefore)) &&
    typeof a.updated === 'string';
  return ok ? (a as unknown as Anchor) : null;
}

/**
 * This vault's id and where its authentication starts, for the anchor written after an append whose
 * first entry is `firstSeq`. A vault without an id gets one; so does a copy of another vault that
 * still stands where the anchor was last written from (a moved vault keeps its id and its anchor).
 * Called under the journal lock.
 */
export function anchoringFor(
  journalDir: string,
  root: string,
  key: { readonly dir: string },
  firstSeq: number,
): { vaultId: string; authenticatedFrom: number; prunedBefore?: number } {
  let vaultId = readVaultId(journalDir);
  if (typeof vaultId !== 'string') vaultId = newVaultId(journalDir);
  let anchor = readAnchor(key.dir, vaultId);
  if (
    anchor !== null &&
    anchor !== 'damaged' &&
    anchor.vault !== root &&
    anchorOwnerStillThere(anchor, (other) => path.join(other, '.noted', 'journal'))
  ) {
    vaultId = newVaultId(journalDir);
    anchor = null;
  }
  if (anchor === null || anchor === 'damaged') return { vaultId, authenticatedFrom: firstSeq };
  return {
    vaultId,
    authenticatedFrom: anchor.authenticatedFrom,
    ...(anchor.prunedBefore === undefined ? {} : { prunedBefore: anchor.prunedBefore }),
  };
}
