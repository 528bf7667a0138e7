/**
 * @module
 * The logging capability (SPEC 14.3): `logging/setLevel` (answered by the SDK once the capability is
 * declared) and the server's diagnostics sent as `notifications/message` to each 2025-era connection,
 * at or above the level its client set; stderr keeps getting them as before. A connection that starts
 * after a diagnostic was written still hears the last few.
 *
 * Stateless 2026-07-28 requests have no connection to send on outside a request (the era deprecates
 * logging), so they get only the messages of their own calls (mcp/work.ts).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';

export const LOGGER = 'noted-mcp';

export function registerLogging(server: McpServer, access: VaultAccess): void {
  server.server.registerCapabilities({ logging: {} });
  const previous = server.server.oninitialized;
  // Trigger: the client finished initializing (a 2025-era connection that can take notifications).
  server.server.oninitialized = () => {
    previous?.();
    const stop = access.onDiagnostic((d) => {
      if (!server.isConnected()) {
        stop();
        return;
      }
      // The level the client set is kept per transport session (the HTTP session id; none on stdio).
      const sessionId = server.server.transport?.sessionId;
      void server.server
        .sendLoggingMessage({ level: d.level, logger: LOGGER, data: d.message }, sessionId)
        .catch(() => undefined);
    });
    const closed = server.server.onclose;
    server.server.onclose = () => {
      stop();
      closed?.();
    };
  };
}
