/**
 * @module
 * What the policy lets an agent do to one note, as errors and staged changes (SPEC 4, 5.1).
 */
import { NotedError } from '../../common/errors.js';
import type { Access } from '../../policy/policy.js';
import type { ChangeKind } from '../../staging/types.js';
import { refuseUnlessFormatSettled } from '../../vault/conversion-marker.js';
import type { AccessContext, Writer } from '../context.js';
import type { StagedResult } from '../types.js';
import type { Rules } from './rules.js';
import { requireInScope } from './scope.js';

/**
 * A write's access: `read-write` or `staged`; anything else is refused here, and so is a note outside
 * the call's `in_folder` (`out_of_scope`, scope.ts). Every write asks this for each note it creates,
 * changes, deletes, restores or moves (both ends), so the scope guard needs no code of its own.
 */
export function writableAccess(rules: Rules, name: string, action: string): 'read-write' | 'staged' {
  // First: a call limited to a folder learns nothing about what lies outside it.
  requireInScope(rules, name);
  refuseWhileConverting(rules);
  const access: Access = rules.accessOf(name);
  if (access === 'read-write' || access === 'staged') return access;
  if (access === 'read-only') {
    throw new NotedError(
      'read_only',
      `"${name}" is read-only for agents by vault policy (.noted/mcp-policy.yaml), so it cannot be ${action}. Nothing was written. You can still read and search it; ask the vault's owner if it must change.`,
      { name, committed: false },
    );
  }
  // Hidden: the caller answers as for a missing note where one is expected; a new note is refused.
  throw new NotedError(
    'read_only',
    `Agents may not create notes at "${name}" (vault policy). Nothing was written. Choose another folder.`,
    { name, committed: false },
  );
}

/** Refuses every write while `noted-mcp convert` runs on the vault (SPEC 11.5); reads go on. */
export function refuseWhileConverting(rules: Rules): void {
  if (rules.converting === undefined || rules.converting === null) return;
  throw new NotedError(
    'busy',
    `The vault is being converted to ${rules.converting === 'html' ? 'HTML' : 'Markdown'} notes (noted-mcp convert); try again in a minute. Nothing was written. Reading and searching still work meanwhile.`,
    { committed: false },
  );
}

/** Keeps a computed change for the owner's review instead of writing it. Call under the note's lock. */
export function stage(
  ctx: AccessContext,
  who: Writer,
  change: {
    tool: string;
    note: string;
    kind: ChangeKind;
    baseEtag: string | null;
    baseText: string | null;
    newText: string | null;
  },
): StagedResult {
  // Under the note's lock, like a journaled write (journal.ts): a change staged for a format the vault
  // is leaving would be approved into a note no server of the converted vault reads.
  refuseUnlessFormatSettled(ctx.vault.stateDir, ctx.vault.format, `stage a change to "${change.note}"`);
  const pending = ctx.pending.add({
    ...change,
    session: who.session,
    client: who.client ?? 'unnamed client',
  });
  return { staged: true, pendingId: pending.id, note: change.note, kind: change.kind };
}
