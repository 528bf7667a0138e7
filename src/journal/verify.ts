/**
 * @module
 * Tamper evidence (SPEC 6.2): walks every day file in order and names the first entry that does not
 * verify.
 *
 * - The chain: each entry must hash to its own `hash`, carry the next `seq`, and point with `prev` at
 *   the hash of the entry before it; an entry changed, made up, removed, inserted or moved breaks it.
 * - Authentication: each entry's `mac` must be the code of its hash under the user's journal key
 *   (journal-key.ts). A hash anyone can recompute; the code needs the key, which is kept outside the
 *   vault. So an entry appended, edited or inserted with the chain recomputed after it fails here.
 *   Once entries carry codes, every later one must (one without would have been added without the key).
 * - The anchor (anchor.ts): the head recorded outside the vault after each append must still be in the
 *   journal, so entries cut off the end, or a day file emptied or deleted, are found.
 * - The stored texts: each must still be there and hash to what its entry says.
 *
 * What cannot be proven is said, not taken for tampering: entries authenticated by a key this machine
 * does not have (the vault was written on another machine), entries written before the journal had a
 * key, or no key here at all. Those leave `ok: true` with `unverified` saying why.
 */
import {
  type Anchor,
  anchorFile,
  anchorOwnerStillThere,
  anchorsAt,
  readAnchor,
  readVaultId,
} from './anchor.js';
import type { PackIndex } from './blob-packs.js';
import { entryHash, isEntry, type JournalEntry, parseEntryLine } from './entry.js';
import { blobState, dayFiles, linesOf } from './files.js';
import type { JournalKeyState } from './journal-key.js';

export interface BrokenAt {
  /** The day file's name, e.g. `2026-12-01.jsonl`. */
  readonly file: string;
  /** 1-based line number in that file. */
  readonly line: number;
  /** The entry's id, when the line could be read as an entry. */
  readonly id?: string;
}

/** What verify could and could not prove about who wrote the entries. */
export interface Authentication {
  /** The id of this machine's journal key, or null when there is none here. */
  readonly keyId: string | null;
  /** Entries whose code this machine's key checked. */
  readonly checked: number;
  /** Entries written before the journal had a key: protected by the chain only. */
  readonly unauthenticated: number;
  /** Entries authenticated by keys this machine does not have, per key. */
  readonly otherKeys: { readonly keyId: string; readonly entries: number }[];
  /** Whether the head was found where this machine's anchor put it. */
  readonly anchored: boolean;
  /** Stored texts checked against their hashes. */
  readonly texts: number;
}

export type VerifyResult =
  | {
      readonly ok: true;
      readonly entries: number;
      /** See the other variant. */
      readonly authenticatedThrough: number;
      readonly authentication: Authentication;
      /** What could not be proven here, in words; null when everything was. */
      readonly unverified: string | null;
    }
  | {
      readonly ok: false;
      /** How many entries before the break are intact. */
      readonly entries: number;
      /**
       * The seq of the last intact entry whose code this machine's key checked (0: none). Every entry up
       * to it is proven: the chain binds each earlier entry to it. Undo takes only these.
       */
      readonly authenticatedThrough: number;
      readonly brokenAt: BrokenAt;
      readonly reason: string;
      /**
       * `vault`: the journal as a whole fails (replaced, cut short, rewritten, its id or anchor gone), so
       * no entry of it is proven and undo takes none (`authenticatedThrough` is 0); `entry`: the chain
       * breaks at `brokenAt`, and the entries before it stand.
       */
      readonly scope: 'entry' | 'vault';
    };

export interface VerifyOptions {
  readonly key: JournalKeyState;
  /** The vault's real root: the anchor records it. */
  readonly root: string;
  /** Where packed texts are. */
  readonly packs: PackIndex;
  /** Check every stored text against its hash (default true; undo checks only its own entries'). */
  readonly texts?: boolean;
  /** The journal folder of a vault at `root` (to tell a copied vault from a moved one). */
  readonly journalDirOf: (root: string) => string;
  /** Receives the hashes of the intact entries, in order (undo checks an entry is the one walked). */
  readonly hashes?: string[];
  /**
   * Receives the hashes of the intact entries whose own code this machine's key checked. Only these are
   * proven: an entry without a code is never vouched for by an authenticated one after it (whoever had
   * only the vault could have planted it before the first authenticated entry chained to it).
   */
  readonly checked?: Set<string>;
  /** Receives the note of each intact entry, in order (get_vault_info counts those agents may see). */
  readonly notes?: string[];
}

interface Walk {
  intact: number;
  checked: number;
  lastChecked: number;
  unauthenticated: number;
  texts: number;
  otherKeys: Map<string, number>;
  hashes: string[];
  checkedHashes: Set<string>;
  lastFile: string | null;
  lastLine: number;
}

export function verifyJournal(dir: string, options: VerifyOptions): VerifyResult {
  const key = options.key.key;
  const vaultId = readVaultId(dir);
  const anchor = key === null || typeof vaultId !== 'string' ? null : readAnchor(key.dir, vaultId);
  // A copy of a vault shares the original's anchor until its first change gives it its own.
  const copyOf =
    anchor !== null && anchor !== 'damaged' && anchor.vault !== options.root
      ? anchorOwnerStillThere(anchor, options.journalDirOf)
        ? anchor.vault
        : null
      : null;
  const ownAnchor = anchor === 'damaged' || copyOf !== null ? null : anchor;
  const walk: Walk = {
    intact: 0,
    checked: 0,
    lastChecked: 0,
    unauthenticated: 0,
    texts: 0,
    otherKeys: new Map(),
    hashes: options.hashes ?? [],
    checkedHashes: options.checked ?? new Set(),
    lastFile: null,
    lastLine: 0,
  };
  const broken = walkChain(dir, options, ownAnchor, walk);
  if (broken !== null) return broken;
  const end: BrokenAt = { file: walk.lastFile ?? 'journal', line: walk.lastLine + 1 };
  // Security: a failure of the journal as a whole proves none of its entries, the authenticated ones
  // included (a journal replaced by another vault's, signed with the same key, is all "checked").
  const fail = (reason: string, at: BrokenAt = end): VerifyResult => {
    walk.checkedHashes.clear();
    return { ok: false, entries: walk.intact, authenticatedThrough: 0, brokenAt: at, reason, scope: 'vault' };
  };
  if (key !== null) {
    if (vaultId === 'damaged') {
      return fail(
        "the journal's vault id (journal/vault-id) is damaged, so its anchor cannot be found: it was changed by hand or by another program",
      );
    }
    // Another journal was anchored for this very folder and is gone: deleted, or replaced.
    for (const other of anchorsAt(key.dir, options.root)) {
      if (other.vaultId === vaultId || other.seq === 0) continue;
      return fail(
        `a journal of ${other.seq} entries was anchored for this vault (anchor ${anchorFile(key.dir, other.vaultId)}, last written ${other.updated}) and is no longer here: it was deleted or replaced. If you removed it yourself, delete that anchor file`,
      );
    }
    if (ownAnchor !== null) {
      const problem = anchorProblem(ownAnchor, walk);
      if (problem !== null) return fail(problem.reason, problem.at ?? end);
    } else if (walk.checked > 0 && copyOf === null && anchor !== 'damaged') {
      return fail(
        `entries are authenticated with this machine's key but the journal is not anchored here: its vault id (journal/vault-id) was changed or removed, or the anchor deleted from ${key.dir}`,
      );
    }
  }
  return {
    ok: true,
    entries: walk.intact,
    authenticatedThrough: walk.lastChecked,
    authentication: {
      keyId: key?.id ?? null,
      checked: walk.checked,
      unauthenticated: walk.unauthenticated,
      otherKeys: [...walk.otherKeys].map(([keyId, entries]) => ({ keyId, entries })),
      anchored: ownAnchor !== null && ownAnchor.seq > 0,
      texts: walk.texts,
    },
    unverified: unverifiedText(
      options.key,
      walk,
      copyOf,
      key !== null && anchor === 'damaged' ? anchorFile(key.dir, vaultId as string) : null,
    ),
  };
}

function walkChain(
  dir: string,
  options: VerifyOptions,
  anchor: Anchor | null,
  walk: Walk,
): VerifyResult | null {
  const key = options.key.key;
  let expectedPrev: string | null = null;
  let authenticated = false;
  for (const file of dayFiles(dir)) {
    for (const line of linesOf(file)) {
      walk.lastFile = line.file;
      walk.lastLine = line.line;
      const at = { file: line.file, line: line.line };
      const broken = (reason: string, id?: string): VerifyResult => ({
        ok: false,
        entries: walk.intact,
        authenticatedThrough: walk.lastChecked,
        brokenAt: id === undefined ? at : { ...at, id },
        reason,
        scope: 'entry',
      });
      if (line.torn) {
        return broken(
          'the last line is incomplete (a write was cut off); that change was never made, and the next journal write removes the cut-off line',
        );
      }
      if (line.text.trim() === '') return broken('an empty line where an entry should be');
      const parsed = parseEntryLine(line.text);
      if (!isEntry(parsed)) return broken(parsed.error);
      const e = parsed;
      if (entryHash(e) !== e.hash) {
        return broken(
          "the entry's hash does not match its content: the entry was changed after it was written, or made up",
          e.id,
        );
      }
      if (e.seq !== walk.intact + 1) {
        return broken(
          `its seq is ${e.seq} where ${walk.intact + 1} was expected: an entry before it was removed or inserted, or entries were reordered`,
          e.id,
        );
      }
      if (e.prev !== expectedPrev) {
        return broken(
          'its prev does not match the hash of the entry before it: an entry before it was removed, replaced or reordered',
          e.id,
        );
      }
      const auth = authenticate(e, key, authenticated, anchor);
      if (typeof auth === 'object' && 'fail' in auth) return broken(auth.fail, e.id);
      if (auth === 'checked') {
        walk.checked++;
        walk.lastChecked = e.seq;
        walk.checkedHashes.add(e.hash);
      } else if (auth === 'unauthenticated') walk.unauthenticated++;
      else walk.otherKeys.set(auth.other, (walk.otherKeys.get(auth.other) ?? 0) + 1);
      authenticated ||= auth !== 'unauthenticated';
      if (options.texts !== false) {
        const problem = textProblem(dir, e, options.packs, anchor?.prunedBefore ?? 0);
        if (problem !== null) return broken(problem, e.id);
        walk.texts += (e.beforeStored ? 1 : 0) + (e.afterStored ? 1 : 0);
      }
      walk.intact++;
      walk.hashes.push(e.hash);
      options.notes?.push(e.note);
      expectedPrev = e.hash;
    }
  }
  return null;
}

/** How an entry is authenticated, or why it fails. */
function authenticate(
  e: JournalEntry,
  key: JournalKeyState['key'],
  authenticatedBefore: boolean,
  anchor: Anchor | null,
): 'checked' | 'unauthenticated' | { other: string } | { fail: string } {
  if (e.mac === undefined || e.keyId === undefined) {
    if (authenticatedBefore || (anchor !== null && e.seq >= anchor.authenticatedFrom)) {
      return {
        fail: 'it carries no authentication code although the journal is authenticated from an earlier entry on: it was added or rewritten by someone without the journal key',
      };
    }
    return 'unauthenticated';
  }
  if (key === null || e.keyId !== key.id) return { other: e.keyId };
  if (!key.verifies(e.hash, e.mac)) {
    return {
      fail: 'its authentication code does not match: the entry was made up, or changed and its hashes recomputed, by someone without the journal key',
    };
  }
  return 'checked';
}

/** Why a stored text of `e` fails, or null; texts the owner pruned (anchor) may be gone. */
function textProblem(dir: string, e: JournalEntry, packs: PackIndex, prunedBefore: number): string | null {
  for (const [which, sha, stored] of [
    ['before', e.beforeSha256, e.beforeStored],
    ['after', e.afterSha256, e.afterStored],
  ] as const) {
    if (!stored || sha === null) continue;
    const state = blobState(dir, sha, packs);
    if (state === 'missing' && e.seq < prunedBefore) continue;
    if (state === 'missing') {
      return `the text from ${which} this change (sha256 ${sha}) is missing from journal/blobs: it was deleted`;
    }
    if (state === 'damaged') {
      return `the stored text from ${which} this change no longer matches its hash (sha256 ${sha}): it was changed`;
    }
  }
  return null;
}

/** Whether the anchored head is still the journal's entry at that place. */
function anchorProblem(anchor: Anchor, walk: Walk): { reason: string; at?: BrokenAt } | null {
  if (anchor.seq > walk.intact) {
    const missing = anchor.seq - walk.intact;
    return {
      reason: `the journal ends after entry ${walk.intact}, but its anchor (written ${anchor.updated}) records ${anchor.seq}: ${missing === 1 ? 'the last entry was' : `the last ${missing} entries were`} removed, or a day file emptied or deleted`,
    };
  }
  if (anchor.seq > 0 && walk.hashes[anchor.seq - 1] !== anchor.hash) {
    return {
      reason: `entry ${anchor.seq} is not the one anchored there (written ${anchor.updated}): the journal was rewritten from there on`,
    };
  }
  return null;
}

function unverifiedText(
  state: JournalKeyState,
  walk: Walk,
  copyOf: string | null,
  damagedAnchor: string | null,
): string | null {
  const parts: string[] = [];
  const total = walk.intact;
  if (state.key === null) {
    if (total > 0) {
      parts.push(
        `No journal key is available here (${state.reason}): the chain of ${plural(total, 'entry', 'entries')} is intact, but ${total === 1 ? 'it is' : 'they are'} not authenticated and a removed end would not show.`,
      );
    }
  } else {
    const others = [...walk.otherKeys];
    if (others.length > 0) {
      const n = others.reduce((sum, [, count]) => sum + count, 0);
      parts.push(
        `${plural(n, 'entry was', 'entries were')} authenticated with a journal key this machine does not have (${others.map(([id]) => `key ${id}`).join(', ')}): written on another machine or under another user's configuration. Their chain is intact, but they cannot be authenticated here; to check them, run verify where they were written, or copy that journal.key into ${state.key.dir}.`,
      );
    }
    if (walk.checked === 0 && others.length === 0 && walk.unauthenticated > 0) {
      parts.push(
        `${plural(walk.unauthenticated, 'entry was', 'entries were')} written without a journal key (by an earlier version, or planted by whoever had the vault): the chain is intact, but nothing is authenticated yet, and ${walk.unauthenticated === 1 ? 'it is' : 'they are'} never undone. The next agent change starts authentication and anchors the journal.`,
      );
    } else if (walk.unauthenticated > 0) {
      parts.push(
        `${plural(walk.unauthenticated, 'entry carries', 'entries carry')} no authentication code (written by an earlier version before the journal had a key, or planted by whoever had the vault before the first authenticated entry): the chain holds ${walk.unauthenticated === 1 ? 'it' : 'them'}, but only an entry's own code proves it, so ${walk.unauthenticated === 1 ? 'it is' : 'they are'} not authenticated and never undone.`,
      );
    }
    if (damagedAnchor !== null) {
      parts.push(
        `The anchor ${damagedAnchor} cannot be read (a crash while it was written can leave it empty), so a removed end would not show; the next agent change writes it anew.`,
      );
    }
    if (copyOf !== null) {
      parts.push(
        `This vault is a copy of the vault at ${copyOf} and still shares its anchor, so a removed end would not show; it gets an anchor of its own at its next agent change.`,
      );
    }
  }
  return parts.length === 0 ? null : parts.join(' ');
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
