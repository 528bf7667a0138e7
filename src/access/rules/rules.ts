/**
 * @module
 * The owner's access policy as the gate applies it to one request (SPEC 4): read from
 * `.noted/mcp-policy.yaml` on every request (as a regular file only: vault/state-file.ts), judged on
 * each note's real location.
 */
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../../index/store/visibility.js';
import {
  accessFor,
  hasHidden,
  isVisible,
  noteVisibility,
  PolicyMemo,
  visibilityKey,
} from '../../policy/access.js';
import {
  type Access,
  MAX_POLICY_BYTES,
  POLICY_FILE_NAME,
  type Policy,
  unreadablePolicy,
} from '../../policy/policy.js';
import { ANYWHERE, type Sight } from '../../vault/checked-folder.js';
import { refuseAsDangling, relativeToRoot } from '../../vault/confine.js';
import { readConversionMarker } from '../../vault/conversion-marker.js';
import type { FormatName } from '../../vault/format-name.js';
import { readStateFile } from '../../vault/state-file.js';
import type { Vault } from '../../vault/vault.js';
import { FormatCheck } from './format-check.js';

/** A folder named by a guard: its canonical name, and its comparison key. */
export interface GuardFolder {
  readonly folder: string;
  readonly key: string;
}

/**
 * The folders writes are limited to (SPEC 12.5, 17.1): inside `folder` at any depth (`in_folder`),
 * directly in `exact` (`exact_folder`), in none of `not` (`not_in_folders`). Each is optional.
 */
export interface Scope {
  readonly inside?: GuardFolder;
  readonly exact?: GuardFolder;
  readonly not?: readonly GuardFolder[];
}

export interface Rules {
  readonly policy: Policy | null;
  /** The access agents have to a note (canonical name), judged where it really is on disk. */
  accessOf(name: string): Access;
  /**
   * A predicate over indexed paths for queries, or undefined when nothing is hidden (so queries
   * skip the check entirely).
   */
  readonly visible: ((path: string) => boolean) | undefined;
  /** The same rules as the index applies them, by real path, with their name (index/store/visibility.ts). */
  readonly visibility: IndexVisibility;
  /** The folder this call's writes are limited to (`in_folder`, SPEC 12.5); see scope.ts. */
  readonly scope?: Scope;
  /** The vault-relative real path of a note (symbolic links resolved), or null outside the vault. */
  realPathOf(name: string): string | null;
  /**
   * Whether a file may be read at its real vault-relative place: what the vault asks of the file it
   * actually opened (vault/confine.ts), so that a folder swapped for a link into a hidden one between
   * the check and the read shows nothing (issue 25).
   */
  readonly sight: Sight;
  /** Whether agents may write a file at its real place: asked of the folder a write actually opened. */
  readonly writable: Sight;
  /** The format `noted-mcp convert` is converting the vault to, while it runs (SPEC 11.5). */
  readonly converting?: FormatName | null;
}

export class PolicyReader {
  private readonly memo = new PolicyMemo();
  private readonly formatCheck: FormatCheck;

  constructor(
    private readonly vault: Vault,
    /** Indexed notes reached through a symbolic link, by path, with the real path they lead to. */
    private readonly linkedPaths: () => ReadonlyMap<string, string>,
  ) {
    this.formatCheck = new FormatCheck(vault);
  }

  /** The rules for this request; `policy_error` when the file cannot be read or understood. */
  load(): Rules {
    this.formatCheck.check();
    const converting = readConversionMarker(this.vault.stateDir)?.to ?? null;
    const policy = this.memo.parse(this.readText());
    const root = this.vault.root;
    const vault = this.vault;
    const realPathOf = (name: string): string | null => relativeToRoot(root, vault.pathOf(name));
    const accessOf = (name: string): Access => {
      if (policy === null) return 'read-write';
      const real = realPathOf(name) ?? name;
      const access = accessFor(policy, real);
      // Security (issue 35 finding 10): a name in a visible place that a symbolic link takes into a
      // hidden one answers as if the link led nowhere, exactly as a dangling link does: otherwise the
      // answer (not_found rather than invalid_name) would tell that the hidden target exists.
      if (access === 'hidden' && real !== name && accessFor(policy, name) !== 'hidden')
        refuseAsDangling(name);
      return access;
    };
    let visible: ((path: string) => boolean) | undefined;
    let visibility = EVERYTHING_VISIBLE;
    if (hasHidden(policy)) {
      const linked = this.linkedPaths();
      visible = (p: string) => isVisible(policy, linked.get(p) ?? p);
      visibility = { key: visibilityKey(policy), visible: noteVisibility(policy) };
    }
    const sight: Sight = policy === null ? ANYWHERE : (real) => accessFor(policy, real) !== 'hidden';
    const writable: Sight = policy === null ? ANYWHERE : (real) => accessFor(policy, real) === 'read-write';
    return { policy, accessOf, visible, visibility, realPathOf, sight, writable, converting };
  }

  private readText(): string | null {
    try {
      return readStateFile(this.vault.statePath(POLICY_FILE_NAME), MAX_POLICY_BYTES, { followLink: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw unreadablePolicy(`${code ?? ''} ${(err as Error).message}`.trim());
    }
  }
}
