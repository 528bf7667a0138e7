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

/** The scope guards a writing tool takes (SPEC 12.5, 17.1). */
export interface GuardArgs {
  readonly in_folder?: string | undefined;
  readonly exact_folder?: string | undefined;
  readonly not_in_folders?: readonly string[] | undefined;
}

/**
 * The session for one call that limits its writes by its guards: `in_folder` (inside, at any depth),
 * `exact_folder` (directly in), `not_in_folders` (in none of); the session itself when the call gave
 * none. A bare string is an `in_folder`.
 */
export function scoped(session: AgentSession, guards: GuardArgs | string | undefined): AgentSession {
  const g: GuardArgs = typeof guards === 'string' ? { in_folder: guards } : (guards ?? {});
  if (g.in_folder === undefined && g.exact_folder === undefined && g.not_in_folders === undefined) {
    return session;
  }
  return {
    id: session.id,
    clientName: session.clientName,
    ...(g.in_folder === undefined ? {} : { inFolder: g.in_folder }),
    ...(g.exact_folder === undefined ? {} : { exactFolder: g.exact_folder }),
    ...(g.not_in_folders === undefined ? {} : { notInFolders: g.not_in_folders }),
  };
}
