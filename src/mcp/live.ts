/**
 * @module
 * When a connection starts hearing what happens in the vault (list changes, updates of subscribed
 * resources, the server's diagnostics), and when it stops.
 *
 * - `initialized`: a 2025-era connection, once its client sent `notifications/initialized`.
 * - `connected`: a 2026-07-28 connection on stdio, at once (its notifications reach the client through
 *   `subscriptions/listen`, which the SDK's entry serves and filters).
 * - `never`: a server made for one stateless request; the HTTP endpoint publishes the vault's changes
 *   to 2026-07-28 listeners itself (transport/http-mcp.ts).
 */
import type { McpServer } from '@modelcontextprotocol/server';

export type LiveMode = 'initialized' | 'connected' | 'never';

/** Runs `start` when the connection goes live; the function it returns runs when it closes. */
export function whenLive(server: McpServer, mode: LiveMode, start: () => () => void): void {
  if (mode === 'never') return;
  const begin = () => {
    const stop = start();
    const closed = server.server.onclose;
    server.server.onclose = () => {
      stop();
      closed?.();
    };
  };
  if (mode === 'connected') {
    begin();
    return;
  }
  const previous = server.server.oninitialized;
  server.server.oninitialized = () => {
    previous?.();
    begin();
  };
}
