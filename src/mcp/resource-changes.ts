/**
 * @module
 * Resource notifications (SPEC 14.3): `notifications/resources/list_changed` when notes or
 * attachments agents may see appear or go (or the owner's policy changes what they may see), and
 * `resources/subscribe` / `unsubscribe` with `notifications/resources/updated` when a subscribed one
 * changes, from any source (this server's tools, an editor, git, another server process). Nothing is
 * said about what the policy hides: the gate leaves those changes out (access/feed/changes.ts).
 *
 * A subscription is taken for any well-formed URI of this server, whether a file is there or not, so
 * that subscribing tells nothing about hidden notes either; a note created later at that path is
 * announced then.
 *
 * A 2026-07-28 connection on stdio (live mode `connected`) has no `resources/subscribe`: its client
 * names the resources in its `subscriptions/listen` filter, which the SDK's stdio entry holds and
 * applies to what this server sends. So such a connection sends `updated` for every changed note
 * agents may see, and the entry passes on those a listen filter names (issue 36.2: only notes
 * subscribed the 2025 way were sent, so a 2026-07-28 client on stdio never heard one).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultChange } from '../access/feed/change-events.js';
import type { VaultAccess } from '../access/gate.js';
import { type LiveMode, whenLive } from './live.js';
import { invalidParams } from './protocol-errors.js';
import { noteUri, pathOfUri } from './resources.js';

/** The most resources one connection may be subscribed to at once. */
export const MAX_SUBSCRIPTIONS = 1000;
/** How often a live connection looks whether the owner's policy file changed. */
export const POLICY_POLL_MS = 1000;

/** Whether a set of changes changes the resource list: something appeared or went. */
export function listChangedBy(changes: readonly VaultChange[], all: boolean): boolean {
  return all || changes.some((c) => c.kind !== 'changed');
}

/** What to send for a set of changes: whether the list changed, and which subscribed paths did. */
export function notificationsFor(
  changes: readonly VaultChange[],
  all: boolean,
  subscribed: ReadonlySet<string>,
): { listChanged: boolean; updated: string[] } {
  const listChanged = listChangedBy(changes, all);
  const updated = all
    ? [...subscribed]
    : [...new Set(changes.map((c) => c.path))].filter((p) => subscribed.has(p));
  return { listChanged, updated };
}

export function registerResourceChanges(
  server: McpServer,
  access: VaultAccess,
  live: LiveMode,
  pollMs = POLICY_POLL_MS,
): void {
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  const subscribed = new Set<string>();

  server.server.setRequestHandler('resources/subscribe', (request) => {
    const path = pathOfUri(request.params.uri);
    if (!subscribed.has(path) && subscribed.size >= MAX_SUBSCRIPTIONS) {
      throw invalidParams(
        `This connection is subscribed to ${MAX_SUBSCRIPTIONS} resources, the most it may be. Unsubscribe from some first (resources/unsubscribe).`,
        { code: 'too_large', uri: request.params.uri },
      );
    }
    subscribed.add(path);
    return {};
  });

  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(pathOfUri(request.params.uri));
    return {};
  });

  whenLive(server, live, () => {
    const send = (changes: readonly VaultChange[], all: boolean) => {
      if (!server.isConnected()) return;
      const { listChanged, updated } =
        live === 'connected'
          ? { listChanged: listChangedBy(changes, all), updated: [...new Set(changes.map((c) => c.path))] }
          : notificationsFor(changes, all, subscribed);
      if (listChanged) void server.server.sendResourceListChanged().catch(() => undefined);
      for (const path of updated)
        void server.server.sendResourceUpdated({ uri: noteUri(path) }).catch(() => undefined);
    };
    const stopChanges = access.onChanges(send);
    let policy = access.policyFingerprint();
    const timer =
      pollMs > 0
        ? setInterval(() => {
            const now = access.policyFingerprint();
            if (now === policy) return;
            policy = now;
            // What agents may see changed as a whole: the list, not any one note's content.
            if (server.isConnected()) void server.server.sendResourceListChanged().catch(() => undefined);
          }, pollMs)
        : undefined;
    timer?.unref();
    return () => {
      stopChanges();
      clearInterval(timer);
    };
  });
}
