/**
 * @module
 * The vault's changes as agents may hear of them (SPEC 14.3): the index's applied changes with every
 * path the policy hides left out, judged by the policy as it is when the change is passed on (a
 * broken policy file closes the vault: nothing is passed on then). A fingerprint of the policy file
 * tells when what agents may see changed as a whole.
 */
import { createHash } from 'node:crypto';
import { isNotedError } from '../../common/errors.js';
import type { IndexChange } from '../../index/store/store.js';
import { MAX_POLICY_BYTES, POLICY_FILE_NAME } from '../../policy/policy.js';
import { isHiddenPath } from '../../vault/names.js';
import { readStateFile } from '../../vault/state-file.js';
import type { AccessContext } from '../context.js';
import type { PolicyReader } from '../rules/rules.js';

/** A change to a note or attachment agents may see. */
export interface VaultChange {
  readonly path: string;
  readonly kind: 'added' | 'changed' | 'removed';
}

export type VaultChangesListener = (changes: readonly VaultChange[], all: boolean) => void;

export function listenToChanges(
  ctx: AccessContext,
  policy: PolicyReader,
  listener: VaultChangesListener,
): () => void {
  return ctx.index.onChanges((changes, all) => {
    let visible: readonly VaultChange[];
    try {
      visible = visibleChanges(changes, policy);
    } catch (err) {
      // A broken policy closes the vault (policy_error): nothing can be said about any note.
      if (isNotedError(err)) return;
      throw err;
    }
    if (visible.length > 0 || all) listener(visible, all);
  });
}

function visibleChanges(changes: readonly IndexChange[], policy: PolicyReader): VaultChange[] {
  const rules = policy.load();
  return changes
    .filter((c) => !isHiddenPath(c.path) && rules.accessOf(c.path) !== 'hidden')
    .map((c) => ({ path: c.path, kind: c.kind }));
}

/** Changes when the policy file does: its text's hash, or that there is none. */
export function policyFingerprint(ctx: AccessContext): string {
  try {
    return createHash('sha256')
      .update(readStateFile(ctx.vault.statePath(POLICY_FILE_NAME), MAX_POLICY_BYTES, { followLink: true }))
      .digest('hex');
  } catch (err) {
    return `none: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`;
  }
}
