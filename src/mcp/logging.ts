/**
 * @module
 * The logging capability (SPEC 14.3): `logging/setLevel` (answered by the SDK once the capability is
 * declared) and the server's diagnostics sent as `notifications/message` to each live connection, at
 * or above the level its client set; stderr keeps getting them as before. A connection that starts
 * after a diagnostic was written still hears the last few.
 *
 * Stateless 2026-07-28 requests have no connection to send on outside a request (that era deprecates
 * logging), so they get only the messages of their own calls (mcp/work.ts).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import { type LiveMode, whenLive } from './live.js';

export const LOGGER = 'noted-mcp';

export function registerLogging(server: McpServer, access: VaultAccess, live: LiveMode): void {
  server.server.registerCapabilities({ logging: {} });
  whenLive(server, live, () => {
    const stop = access.onDiagnostic((d) => {
      if (!server.isConnected()) return;
      // The level the client set is kept per transport session (the HTTP session id; none on stdio).
      const sessionId = server.server.transport?.sessionId;
      void server.server
        .sendLoggingMessage({ level: d.level, logger: LOGGER, data: d.message }, sessionId)
        .catch(() => undefined);
    });
    return stop;
  });
}
