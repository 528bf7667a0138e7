/**
 * @module
 * Deciding access from a parsed policy (SPEC 4): the most specific folder rule covering a note's real
 * location wins, else `default`; with no policy file everything is read-write. Paths are compared with
 * `folderKey` (case, NFC, `\`, whole segments). Any path segment starting with `.` is hidden whatever
 * the policy says (SPEC 1.1), as a second line of defence behind name validation.
 */
import { covers, depthOf, folderKey } from './folder-key.js';
import { type Access, type Policy, parsePolicy } from './policy.js';

/**
 * The access agents have to a note or folder, given its real vault-relative path (symbolic links
 * already resolved by the caller, so a link into a hidden folder is judged where it really is).
 *
 * @example
 * accessFor(null, 'a/b.md') // 'read-write'
 * accessFor(parsePolicy('folders:\n  inbox: staged\n'), 'Inbox/idea.md') // 'staged'
 * accessFor(parsePolicy('folders:\n  inbox: staged\n'), 'inbox2/idea.md') // 'read-write'
 */
export function accessFor(policy: Policy | null, realPath: string): Access {
  const key = folderKey(realPath);
  if (key.split('/').some((segment) => segment.startsWith('.'))) return 'hidden';
  if (policy === null) return 'read-write';
  // Rules are stored deepest first, and two rules of one depth cannot both cover a path.
  for (const rule of policy.folders) if (covers(rule.key, key)) return rule.access;
  return policy.default;
}

/** True when agents may see the note or folder at all (any access but `hidden`). */
export function isVisible(policy: Policy | null, realPath: string): boolean {
  return accessFor(policy, realPath) !== 'hidden';
}

/**
 * {@link isVisible}, remembered per folder for note paths (`….md`): a rule covers a note exactly when
 * it covers the note's folder, unless a rule names the note itself (a rule ending in `.md`; then
 * every path is judged on its own). The index judges every note by it when a policy hides something
 * (100k notes: about 0.1–0.2 s judged one by one).
 *
 * @example
 * const visible = noteVisibility(parsePolicy('folders:\n  private: hidden\n'));
 * visible('private/a.md') // false
 */
export function noteVisibility(policy: Policy | null): (notePath: string) => boolean {
  if (policy === null || policy.folders.some((rule) => rule.key.endsWith('.md'))) {
    return (notePath) => isVisible(policy, notePath);
  }
  const byFolder = new Map<string, boolean>();
  return (notePath) => {
    if (notePath.slice(-3).toLowerCase() !== '.md') return isVisible(policy, notePath);
    const cut = Math.max(notePath.lastIndexOf('/'), notePath.lastIndexOf('\\'));
    // A note whose own name starts with `.` is hidden like a dot-folder (SPEC 1.1).
    if (notePath[cut + 1] === '.') return false;
    const folder = cut < 0 ? '' : notePath.slice(0, cut);
    let visible = byFolder.get(folder);
    if (visible === undefined) {
      visible = isVisible(policy, folder);
      byFolder.set(folder, visible);
    }
    return visible;
  };
}

/**
 * True when some note could be hidden by the policy, so queries must filter; false lets the gate
 * skip the filter entirely (dot-folders are never indexed, so they need no filter).
 */
export function hasHidden(policy: Policy | null): boolean {
  if (policy === null) return false;
  return policy.default === 'hidden' || policy.folders.some((rule) => rule.access === 'hidden');
}

/**
 * A name for what {@link isVisible} answers under `policy`: two policies with the same name hide
 * exactly the same paths. Only which folders are hidden counts (a rule's folder, and whether it
 * hides), so changing read-only into read-write keeps the name; every policy that hides nothing is
 * `'all'`.
 *
 * @example
 * visibilityKey(null) // 'all'
 * visibilityKey(parsePolicy('folders:\n  private: hidden\n')) // '{"default":false,"folders":[["private",true]]}'
 */
export function visibilityKey(policy: Policy | null): string {
  if (policy === null || !hasHidden(policy)) return 'all';
  let key = visibilityKeys.get(policy);
  if (key === undefined) {
    const folders = policy.folders
      .map((rule) => [rule.key, rule.access === 'hidden'] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    key = JSON.stringify({ default: policy.default === 'hidden', folders });
    visibilityKeys.set(policy, key);
  }
  return key;
}

/** The gate asks on every request, for the one parsed policy PolicyMemo keeps while the file is unchanged. */
const visibilityKeys = new WeakMap<Policy, string>();

/**
 * True when a rule below `folder` (not the folder itself) hides a folder from agents: whatever it
 * holds, agents must not be able to tell, so operations on `folder` as a whole are refused.
 *
 * @example
 * hidesInside(parsePolicy('folders:\n  proj/secret: hidden\n'), 'Proj') // true
 * hidesInside(parsePolicy('folders:\n  proj/secret: hidden\n'), 'proj/secret') // false (the folder itself)
 */
export function hidesInside(policy: Policy | null, folder: string): boolean {
  if (policy === null) return false;
  const key = folderKey(folder);
  return policy.folders.some((rule) => rule.access === 'hidden' && rule.key !== key && covers(key, rule.key));
}

/** What each access level lets agents do, in words for the owner. */
export const ACCESS_MEANING: Readonly<Record<Access, string>> = {
  hidden: 'invisible to agents, as if absent',
  'read-only': 'agents may list, read and search; every write is refused',
  'read-write': 'agents may read and change notes',
  staged: 'agents may read; their changes wait for your review (noted-mcp review)',
};

export interface FolderAccess {
  readonly folder: string;
  readonly access: Access;
  /** The rule's line in the policy file. */
  readonly line: number;
  /** What would apply here without this rule: the enclosing rule's folder, or null for `default`. */
  readonly within: { readonly folder: string | null; readonly access: Access };
}

export interface AccessSummary {
  /** Whether a policy file is in force at all. */
  readonly policyFile: boolean;
  readonly default: Access;
  /** False when `default` is read-write because nothing set it. */
  readonly defaultGiven: boolean;
  /** Every folder rule in folder-tree order (a folder before what lies inside it). */
  readonly folders: readonly FolderAccess[];
}

/**
 * The policy as the owner should see it (CLI, console): the default and every folder rule with the
 * level it overrides.
 */
export function describeAccess(policy: Policy | null): AccessSummary {
  if (policy === null) return { policyFile: false, default: 'read-write', defaultGiven: false, folders: [] };
  const folders = policy.folders
    .map((rule): FolderAccess => {
      const parent = policy.folders.find(
        (other) => depthOf(other.key) < depthOf(rule.key) && covers(other.key, rule.key),
      );
      return {
        folder: rule.folder,
        access: rule.access,
        line: rule.line,
        within: parent
          ? { folder: parent.folder, access: parent.access }
          : { folder: null, access: policy.default },
      };
    })
    .sort((a, b) => compareSegments(folderKey(a.folder), folderKey(b.folder)));
  return { policyFile: true, default: policy.default, defaultGiven: policy.defaultGiven, folders };
}

/**
 * Remembers the last policy text and what it parsed to, since the gate reads the file on every
 * request and it rarely changes. A text that failed keeps failing with the same error.
 */
export class PolicyMemo {
  private lastText: string | null | undefined;
  private lastResult: { policy: Policy | null } | { error: unknown } = { policy: null };

  /** `null` text means there is no policy file. */
  parse(text: string | null): Policy | null {
    if (text !== this.lastText) {
      try {
        this.lastResult = { policy: text === null ? null : parsePolicy(text) };
      } catch (error) {
        this.lastResult = { error };
      }
      this.lastText = text;
    }
    if ('error' in this.lastResult) throw this.lastResult.error;
    return this.lastResult.policy;
  }
}

function compareSegments(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] !== bs[i]) return (as[i] as string) < (bs[i] as string) ? -1 : 1;
  }
  return as.length - bs.length;
}
