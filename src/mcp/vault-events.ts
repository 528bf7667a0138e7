/**
 * @module
 * The vault's changes for 2026-07-28 clients over HTTP (SPEC 14.3). Their servers live for one
 * request, so nothing per connection can watch the vault for them; instead the HTTP endpoint's
 * notifier, which the SDK's `subscriptions/listen` streams hear (each stream filtered to what its
 * client asked for), gets every change agents may see: resource list changes, updated resources,
 * prompt list changes, and a changed policy.
 */
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';
import { isNotedError } from '../common/errors.js';
import { listChangedBy } from './resource-changes.js';
import { noteUri } from './resources.js';

/** The publish side of the SDK's change-event bus (ServerNotifier). */
export interface ChangeNotifier {
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
  promptsChanged(): void;
}

/** How often the prompt notes and the policy file are looked at. */
export const VAULT_POLL_MS = 1000;

/** Publishes from now on; returns how to stop. */
export function publishVaultChanges(
  access: VaultAccess,
  session: AgentSession,
  notify: ChangeNotifier,
  pollMs = VAULT_POLL_MS,
): () => void {
  // Every change is published: the listen streams pass on only what each client asked for.
  const stopChanges = access.onChanges((changes, all) => {
    if (listChangedBy(changes, all)) notify.resourcesChanged();
    for (const c of changes) notify.resourceUpdated(noteUri(c.path));
  });
  const prompts = () => {
    try {
      return access.promptFingerprint(session);
    } catch (err) {
      if (isNotedError(err)) return `error: ${err.message}`;
      throw err;
    }
  };
  let seen = { policy: access.policyFingerprint(), prompts: prompts() };
  const timer = setInterval(() => {
    const now = { policy: access.policyFingerprint(), prompts: prompts() };
    if (now.policy !== seen.policy) notify.resourcesChanged();
    if (now.prompts !== seen.prompts) notify.promptsChanged();
    seen = now;
  }, pollMs);
  timer.unref();
  return () => {
    stopChanges();
    clearInterval(timer);
  };
}
