/**
 * @module
 * Builds the MCP server for one connection from the gate. No side effects until a transport connects.
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';
import { registerCompletions } from './completions.js';
import { waitingForIndex } from './index-gate.js';
import type { LiveMode } from './live.js';
import { registerLogging } from './logging.js';
import { type PromptOptions, registerPrompts } from './prompts.js';
import { registerResourceChanges } from './resource-changes.js';
import { registerResources } from './resources.js';
import { strictArguments } from './strict-arguments.js';
import type { ToolDeps } from './tool-context.js';
import * as advanceAgentState from './tools/advance-agent-state.js';
import * as appendAgentEvent from './tools/append-agent-event.js';
import * as approveAgentGate from './tools/approve-agent-gate.js';
import * as createAgentWorkflow from './tools/create-agent-workflow.js';
import * as createFolder from './tools/create-folder.js';
import * as createNote from './tools/create-note.js';
import * as deleteFolder from './tools/delete-folder.js';
import * as deleteNote from './tools/delete-note.js';
import * as deleteNotes from './tools/delete-notes.js';
import * as editNote from './tools/edit-note.js';
import * as exportNotes from './tools/export-notes.js';
import * as getBacklinks from './tools/get-backlinks.js';
import * as getDailyNote from './tools/get-daily-note.js';
import * as getNoteOutline from './tools/get-note-outline.js';
import * as getOutgoingLinks from './tools/get-outgoing-links.js';
import * as getProperties from './tools/get-properties.js';
import * as getVaultInfo from './tools/get-vault-info.js';
import * as listAttachments from './tools/list-attachments.js';
import * as listBases from './tools/list-bases.js';
import * as listByTag from './tools/list-by-tag.js';
import * as listChanges from './tools/list-changes.js';
import * as listFolders from './tools/list-folders.js';
import * as listLinks from './tools/list-links.js';
import * as listNotes from './tools/list-notes.js';
import * as listTags from './tools/list-tags.js';
import * as listTasks from './tools/list-tasks.js';
import * as listTrash from './tools/list-trash.js';
import * as moveFolder from './tools/move-folder.js';
import * as moveNote from './tools/move-note.js';
import * as moveNotes from './tools/move-notes.js';
import * as queryBase from './tools/query-base.js';
import * as queryNotes from './tools/query-notes.js';
import * as readAttachment from './tools/read-attachment.js';
import * as readNote from './tools/read-note.js';
import * as rejectAgentGate from './tools/reject-agent-gate.js';
import * as restoreNote from './tools/restore-note.js';
import * as searchNotes from './tools/search-notes.js';
import * as updateNote from './tools/update-note.js';
import * as updateTask from './tools/update-task.js';

/** Every tool, in the order clients list them. */
export const TOOLS = [
  getVaultInfo,
  listNotes,
  listChanges,
  exportNotes,
  readNote,
  getNoteOutline,
  searchNotes,
  listTasks,
  getBacklinks,
  getOutgoingLinks,
  listTags,
  listByTag,
  getProperties,
  queryNotes,
  listBases,
  queryBase,
  createNote,
  updateNote,
  editNote,
  deleteNote,
  listTrash,
  restoreNote,
  moveNote,
  moveNotes,
  deleteNotes,
  listFolders,
  createFolder,
  moveFolder,
  deleteFolder,
  updateTask,
  getDailyNote,
  listAttachments,
  listLinks,
  readAttachment,
  createAgentWorkflow,
  appendAgentEvent,
  advanceAgentState,
  approveAgentGate,
  rejectAgentGate,
] as const;

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

const INSTRUCTIONS = `Noted gives you the owner's vault of Markdown notes (Obsidian-style: YAML frontmatter, [[wikilinks]], #tags, - [ ] tasks).
Find notes with search_notes (ranked full text) or list_notes (newest first), then read_note.
Follow the vault's structure as Obsidian sees it: get_outgoing_links and get_backlinks for links, list_tags and list_by_tag for tags, get_properties and query_notes for frontmatter properties (query_notes works like a Bases table; list_bases and query_base answer the owner's own Obsidian Bases views), list_tasks for checkbox tasks and due dates.
Every write needs care: read first and pass the etag you got as expected_etag, so you never overwrite a change you have not seen.
Prefer edit_note for small changes: it also sets properties (set_properties) and tags (add_tags, remove_tags) without touching the rest of the YAML. Tick or re-date a task with update_task; get_daily_note finds (or creates) the daily note; create_note takes a template; list_attachments and read_attachment show the files notes embed. Deleted notes go to a trash and can be restored.
To reorganize, use move_note / move_notes / move_folder (links to what moves are rewritten, so none breaks; dry_run shows the plan), list_folders, create_folder and delete_folder; rewritten notes get new etags.
For multi-step work that people should be able to follow and approve, keep an agent workflow note: create_agent_workflow, then append_agent_event, advance_agent_state, approve_agent_gate and reject_agent_gate.
Notes and attachments are also resources (noted://note/<path>), and notes in prompts/ are prompts.`;

export function createMcpServer(
  access: VaultAccess,
  info: ServerInfo,
  options: {
    sessionId?: string;
    prompts?: PromptOptions;
    /** How long a request waits for the index before it is answered busy (default 30 s; tests). */
    indexWaitMs?: number;
    /**
     * When the connection starts hearing the vault's changes and diagnostics (live.ts): after
     * `initialize` (default), at once (a 2026-07-28 stdio connection), or never (one stateless request).
     */
    live?: LiveMode;
    /** Milliseconds between looks at the policy file for resource list changes (default 1000; 0: off). */
    policyPollMs?: number;
  } = {},
): McpServer {
  const server = new McpServer(
    { name: info.name, version: info.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const writes = closeArguments(server);
  shapeInputErrors(server, writes);
  const session: AgentSession = {
    id: options.sessionId ?? randomUUID(),
    clientName: () => server.server.getClientVersion()?.name,
  };
  const deps: ToolDeps = {
    server: waitingForIndex(server, access, options.indexWaitMs),
    access,
    session,
    info,
  };
  for (const tool of TOOLS) tool.register(deps);
  const live = options.live ?? 'initialized';
  registerPrompts(server, access, session, options.prompts, live);
  registerResources(server, access, session, options.indexWaitMs);
  registerResourceChanges(server, access, live, options.policyPollMs);
  registerCompletions(server, access, session, options.indexWaitMs);
  registerLogging(server, access, live);
  return server;
}

/**
 * Every tool registered on `server` refuses undeclared arguments (strict-arguments.ts): done here,
 * once, so no tool can forget it. Returns whether a tool writes, for the shape of its input errors.
 */
function closeArguments(server: McpServer): (tool: string) => boolean {
  const writing = new Set<string>();
  const register = server.registerTool.bind(server);
  type Config = Parameters<typeof register>[1];
  const strict = (name: string, config: Config, handler: Parameters<typeof register>[2]) => {
    if (config.annotations?.readOnlyHint !== true) writing.add(name);
    const closed = { ...config, inputSchema: strictArguments(name, config.inputSchema) } as Config;
    return register(name, closed, handler);
  };
  server.registerTool = strict as typeof server.registerTool;
  return (tool) => writing.has(tool);
}

/**
 * The SDK answers arguments that fail a tool's input schema with a bare text error. Give those the
 * stable shape of every other tool error (SPEC 3.2): `code: "validation_error"` and the JSON line;
 * a tool that writes also says `committed: false`, as nothing ran.
 * Trigger: the SDK builds that result in McpServer#createToolError, which it has no option for.
 * Outcome: input errors carry structuredContent; other SDK-level errors are left as they are.
 */
function shapeInputErrors(server: McpServer, writes: (tool: string) => boolean): void {
  const target = server as unknown as { createToolError: (message: string) => unknown };
  const original = target.createToolError.bind(server);
  target.createToolError = (message: string) => {
    if (!message.startsWith('Input validation error')) return original(message);
    const tool = /^Input validation error: Invalid arguments for tool ([^:\s]*):/.exec(message)?.[1] ?? '';
    const tooLong = onlyTooLong(message);
    const nothing = writes(tool) ? ' Nothing was written.' : '';
    const data = {
      code: tooLong ? 'too_large' : 'validation_error',
      message: tooLong
        ? `${message}. Send a shorter value (or fewer items), split the work into several calls, or page with the tool's cursor.${nothing}`
        : `${message}. Check the tool's input schema and call again with corrected arguments.${nothing}`,
      ...(nothing === '' ? {} : { committed: false }),
    };
    return {
      content: [
        { type: 'text', text: data.message },
        { type: 'text', text: `structuredContent: ${JSON.stringify(data)}` },
      ],
      structuredContent: data,
      isError: true,
    };
  };
}

/**
 * True when every problem the SDK lists is a string or list over its length limit: SPEC 3.3 answers
 * "arguments that exceed limits" with `too_large`, while a wrong type or value stays
 * `validation_error`. The SDK gives only zod's messages, so this reads them.
 */
export function onlyTooLong(message: string): boolean {
  const issues = message.replace(/^Input validation error: Invalid arguments for tool [^:]*: /, '');
  const tooLong = /Too big: expected (string|array) to have <=/g;
  const count = issues.match(tooLong)?.length ?? 0;
  const other =
    /Invalid |Too small|Too big: expected (number|int|bigint)|Unrecognized|unknown argument|expected /g;
  const all = issues.match(other)?.length ?? 0;
  // Each too-long issue itself contains "expected " once.
  return count > 0 && all === count;
}
