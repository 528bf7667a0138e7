/**
 * @module
 * What each tool registration receives: the gate and the session of this MCP connection.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';

export interface ToolDeps {
  readonly server: McpServer;
  readonly access: VaultAccess;
  readonly session: AgentSession;
  /** The server's name and version, as it tells clients. */
  readonly info: { readonly name: string; readonly version: string };
}

/**
 * The session for one call that limits its writes to `inFolder` (SPEC 12.5); the session itself
 * when the call gave none.
 */
export function scoped(session: AgentSession, inFolder: string | undefined): AgentSession {
  return inFolder === undefined ? session : { id: session.id, clientName: session.clientName, inFolder };
}
