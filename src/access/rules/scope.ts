/**
 * @module
 * What a request's rules limit: the `visible` predicate the index queries are told about (given only
 * when some folder is hidden, so that queries skip the check otherwise), and the folder an agent
 * limited its writes to with `in_folder` (SPEC 12.5).
 *
 * The scope is checked where every write asks the policy for its access (`writableAccess` in
 * permission.ts): the created, changed, deleted or restored note, and both ends of a move, so a write
 * path added later is guarded without code of its own. It protects an agent from a bare name that
 * resolves somewhere it did not expect, so a note is inside only when both its name and its real
 * location (symbolic links resolved) are: a link in the folder that leads elsewhere would write there.
 */
import { NotedError } from '../../common/errors.js';
import type { VisibilityOption } from '../../index/store/visibility.js';
import { covers, folderKey } from '../../policy/folder-key.js';
import { normalizeFolderName } from '../../vault/names.js';
import type { GuardFolder, Rules, Scope } from './rules.js';

export function visibleOption(rules: Rules): VisibilityOption {
  return rules.visible === undefined ? {} : { visible: rules.visible, visibilityKey: rules.visibility.key };
}

/** The guards one call asked for, as the tools take them. */
export interface ScopeGuards {
  readonly inFolder?: string;
  readonly exactFolder?: string;
  readonly notInFolders?: readonly string[];
}

const guardFolder = (name: string): GuardFolder => {
  const folder = normalizeFolderName(name);
  return { folder, key: folderKey(folder) };
};

/**
 * The rules with the writes of this call limited by its guards; the rules unchanged without any.
 * Folders compare as policy folders do: letter case, `\` and Unicode normalization ignored, whole
 * segments only (`inbox` does not hold `inbox2/x.md`). `in_folder` of the vault root limits nothing;
 * `exact_folder` of the root ("" or "/") means notes at the top of the vault.
 *
 * @throws NotedError `invalid_name` when a guard is not a folder name.
 */
export function withScope(rules: Rules, guards: ScopeGuards | string | undefined): Rules {
  const g: ScopeGuards = typeof guards === 'string' ? { inFolder: guards } : (guards ?? {});
  const inside = g.inFolder === undefined ? undefined : guardFolder(g.inFolder);
  const exact = g.exactFolder === undefined ? undefined : guardFolder(g.exactFolder);
  const not = (g.notInFolders ?? []).map(guardFolder);
  if (not.some((f) => f.folder === '')) {
    throw new NotedError(
      'validation_error',
      'not_in_folders cannot name the vault root: every note is inside it, so nothing could be written. Name the folders to keep out of, e.g. ["archive", "private"].',
    );
  }
  const scope: Scope = {
    ...(inside === undefined || inside.folder === '' ? {} : { inside }),
    ...(exact === undefined ? {} : { exact }),
    ...(not.length === 0 ? {} : { not }),
  };
  if (Object.keys(scope).length === 0) return rules;
  return { ...rules, scope };
}

/** The guard `key` (of a note or folder, or its real location) breaks, or null when it keeps them all. */
function brokenGuard(scope: Scope, key: string): 'in_folder' | 'exact_folder' | 'not_in_folders' | null {
  if (scope.inside !== undefined && !covers(scope.inside.key, key)) return 'in_folder';
  if (scope.exact !== undefined) {
    const slash = key.lastIndexOf('/');
    if ((slash < 0 ? '' : key.slice(0, slash)) !== scope.exact.key) return 'exact_folder';
  }
  if (scope.not?.some((f) => covers(f.key, key))) return 'not_in_folders';
  return null;
}

/** True when the note or folder `name` lies in the scope (for in_folder: or is the scope folder itself). */
export function inScope(rules: Rules, name: string): boolean {
  return scopeProblem(rules, name) === null;
}

function scopeProblem(rules: Rules, name: string): ReturnType<typeof brokenGuard> {
  const scope = rules.scope;
  if (scope === undefined) return null;
  const byName = brokenGuard(scope, folderKey(name));
  if (byName !== null) return byName;
  const real = rules.realPathOf(name);
  return real === null ? null : brokenGuard(scope, folderKey(real));
}

/**
 * Refuses a write to `name` outside the call's guards (`in_folder`, `exact_folder`, `not_in_folders`),
 * before anything is read or written.
 *
 * @throws NotedError `out_of_scope` with `committed: false`.
 */
export function requireInScope(rules: Rules, name: string): void {
  const scope = rules.scope;
  if (scope === undefined) return;
  const broken = scopeProblem(rules, name);
  if (broken === null) return;
  const then =
    'Check the name: a bare name finds the one note of that name anywhere in the vault. Pass the full path of the note you mean, or other guards.';
  const why =
    broken === 'in_folder'
      ? `is outside the folder "${scope.inside?.folder}" that in_folder limits this call to`
      : broken === 'exact_folder'
        ? `is not directly in the folder "${scope.exact?.folder === '' ? '/' : scope.exact?.folder}" that exact_folder limits this call to (a sub-folder is not)`
        : `is inside a folder that not_in_folders keeps this call out of (${(scope.not ?? []).map((f) => `"${f.folder}"`).join(', ')})`;
  throw new NotedError(
    'out_of_scope',
    `"${name}" ${why} (or leads there through a symbolic link), so nothing was written. ${then}`,
    {
      name,
      guard: broken,
      ...(scope.inside === undefined ? {} : { inFolder: scope.inside.folder }),
      ...(scope.exact === undefined ? {} : { exactFolder: scope.exact.folder }),
      ...(scope.not === undefined ? {} : { notInFolders: scope.not.map((f) => f.folder) }),
      committed: false,
    },
  );
}
