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
}
