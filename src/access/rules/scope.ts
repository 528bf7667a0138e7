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
import type { Rules } from './rules.js';

export function visibleOption(rules: Rules): VisibilityOption {
  return rules.visible === undefined ? {} : { visible: rules.visible, visibilityKey: rules.visibility.key };
}

/**
 * The rules with the writes of this call limited to `inFolder`; the rules unchanged without it, or for
 * the vault root (everything is inside it). Folders compare as policy folders do: letter case, `\` and
 * Unicode normalization ignored, whole segments only (`inbox` does not hold `inbox2/x.md`).
 *
 * @throws NotedError `invalid_name` when `inFolder` is not a folder name.
 */
export function withScope(rules: Rules, inFolder: string | undefined): Rules {
  if (inFolder === undefined) return rules;
  const folder = normalizeFolderName(inFolder);
  if (folder === '') return rules;
  return { ...rules, scope: { folder, key: folderKey(folder) } };
}

/** True when the note or folder `name` lies in the scope (or is the scope folder itself). */
export function inScope(rules: Rules, name: string): boolean {
  const scope = rules.scope;
  if (scope === undefined) return true;
  if (!covers(scope.key, folderKey(name))) return false;
  const real = rules.realPathOf(name);
  return real === null || covers(scope.key, folderKey(real));
}

/**
 * Refuses a write to `name` outside the call's `in_folder`, before anything is read or written.
 *
 * @throws NotedError `out_of_scope` with `committed: false`.
 */
export function requireInScope(rules: Rules, name: string): void {
  const scope = rules.scope;
  if (scope === undefined || inScope(rules, name)) return;
  throw new NotedError(
    'out_of_scope',
    `"${name}" is outside the folder "${scope.folder}" that in_folder limits this call to (or leads there through a symbolic link), so nothing was written. Check the name: a bare name finds the one note of that name anywhere in the vault. Pass the full path of the note you mean, or another in_folder.`,
    { name, inFolder: scope.folder, committed: false },
  );
}
