/**
 * @module
 * Which of the server's diagnostics a client may hear (issue 35 finding 9). A diagnostic is the owner's
 * (stderr gets every one), but each connection also sends them to its client as log messages, the last
 * few replayed to clients that connect later: one that names a note agents may not see now (an agent's
 * change found never applied to a note the owner has since hidden) would tell them it exists. So every
 * name a message holds goes through the policy as it stands when the message is sent: the names the
 * writer gave (`Diagnostic.names`), every quoted piece of the message (names are quoted, "inbox/a.md"),
 * and every path inside the vault (file system errors give absolute paths). A message naming anything
 * hidden is not sent to clients; nor is any message naming something while the policy cannot be read.
 */
import path from 'node:path';
import type { Diagnostic } from '../common/diagnostics.js';
import { isNotedError } from '../common/errors.js';
import { relativeToRoot } from '../vault/confine.js';
import type { Rules } from './rules/rules.js';

/** Whether `d` names nothing `rules` hide; `rules` is null when the policy cannot be read. */
export function namesNothingHidden(d: Diagnostic, root: string, rules: Rules | null): boolean {
  const names = namesIn(d, root);
  if (names.length === 0) return true;
  if (rules === null) return false;
  return names.every((name) => {
    try {
      return rules.accessOf(name) !== 'hidden';
    } catch (err) {
      // A link into a hidden folder answers as a dangling one (rules.ts): not told either.
      if (isNotedError(err) && err.details.reason === 'dangling_symlink') return false;
      // Otherwise not a name the vault could hold: it names no note.
      return true;
    }
  });
}

/** The names `d` may hold, vault-relative. */
export function namesIn(d: Diagnostic, root: string): string[] {
  const names = [...(d.names ?? [])];
  for (const m of d.message.matchAll(/"([^"\n]{1,4096})"|'([^'\n]{1,4096})'/g)) {
    const quoted = (m[1] ?? m[2]) as string;
    names.push(path.isAbsolute(quoted) ? (relativeToRoot(root, quoted) ?? '') : quoted);
  }
  const prefix = `${root}${path.sep}`;
  for (let at = d.message.indexOf(prefix); at >= 0; at = d.message.indexOf(prefix, at + 1)) {
    const rest = d.message.slice(at + prefix.length).split(/[\s'"`,;)]/, 1)[0] ?? '';
    names.push(rest.split(path.sep).join('/'));
  }
  return names.filter((n) => n !== '');
}
