/**
 * @module
 * get_vault_info: where the agent is and what it may do (SPEC 12.4).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'get_vault_info';

export const inputSchema = z.object({});

const access = z.enum(['read-write', 'read-only', 'staged', 'hidden']);

export const outputSchema = withErrors(
  z.object({
    server: z.object({ name: z.string(), version: z.string() }),
    protocolVersion: z.string().nullable().describe('The MCP protocol version this connection negotiated'),
    vault: z.object({
      name: z.string().describe("The vault folder's name"),
      format: z
        .enum(['markdown', 'html'])
        .describe('How notes are stored: .md Markdown notes, or .html notes (see read_note)'),
    }),
    counts: z
      .object({
        notes: z.number(),
        attachments: z.number(),
        folders: z.number().describe('Folders holding notes or attachments you may see'),
        tags: z.number(),
        openTasks: z.number(),
      })
      .optional()
      .describe(
        'As you may see the vault: hidden notes count nowhere. Absent while the index is being built (see index)',
      ),
    mixedFormats: z
      .object({
        markdown: z.number().describe('Markdown (.md) notes you may see'),
        html: z.number().describe('HTML (.html) notes you may see'),
        served: z.enum(['markdown', 'html']).describe('The kind served as notes; the others are attachments'),
        advice: z.string().describe('What the owner can do about it'),
      })
      .optional()
      .describe(
        'Present when the vault holds notes of both formats: only one kind is served as notes, the other kind are attachments',
      ),
    index: z
      .object({
        state: z.enum(['ready', 'building', 'failed']),
        progress: z
          .object({ done: z.number(), total: z.number() })
          .optional()
          .describe('While building: notes read, of the notes to read (0 of 0 while the files are listed)'),
        step: z.string().optional().describe('While building: what the build is doing'),
        error: z.string().optional().describe('When failed: why the index could not be built'),
      })
      .describe('The search index: tools that need it wait while it is built'),
    access: z
      .object({
        policyFile: z.boolean().describe('false: no policy file, everything is read-write'),
        default: access.describe('What applies where no folder rule does'),
        folders: z
          .array(z.object({ folder: z.string(), access }))
          .describe('The folder rules (hidden folders are not listed); the most specific one applies'),
      })
      .describe('What you may do where (read-only: refused; staged: waits for the owner)'),
    pendingChanges: z.number().describe("Changes waiting for the owner's review"),
    journal: z.object({
      verifies: z.boolean().describe("true when the journal's hash chain is intact"),
      entries: z.number(),
      problem: z.string().optional(),
    }),
    interrupted: z
      .array(
        z.object({
          tool: z.string().describe('The operation: move_folder, move_note'),
          group: z.string().describe('Its journal group'),
          started: z.string(),
          repair: z.string().describe("The owner's command that puts it back"),
        }),
      )
      .describe(
        'Operations a stopped server left half done (some notes moved, others not, links possibly broken): tell the vault owner, who repairs each with its command',
      ),
    limits: z.object({
      resultBytes: z.number().describe('The most one result may carry'),
      noteBytes: z.number().describe('The most a note may hold when written'),
      searchResults: z.number().describe('search_notes max_results at most'),
      listPage: z.number().describe('list_notes limit at most'),
      changesPage: z.number().describe('list_changes limit at most'),
      exportBytes: z.number().describe('export_notes max_bytes at most'),
    }),
  }),
);

export function register({ server, access: gate, session, info }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get vault information',
      description:
        'Tells you where you are and what you may do, in one call: the server and protocol version, the vault name and format, how many notes, attachments, folders, tags and open tasks you can see, your access per folder (read-write, read-only, staged), pending changes, whether the journal verifies, whether the index is ready, and the limits (result size, note size, page sizes). Call it first in a new session; use list_notes, list_folders or search_notes to look at the notes themselves.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Get vault information', ...readOnlyTool },
    },
    () =>
      runTool(false, () => {
        const v = gate.vaultInfo(session);
        // The deprecated accessor is the one that reports the revision on both protocol eras.
        const protocolVersion = server.server.getNegotiatedProtocolVersion() ?? null;
        const data = { server: { name: info.name, version: info.version }, protocolVersion, ...v };
        const rules = v.access.folders.map((f) => `  - ${f.folder}: ${f.access}`).join('\n');
        const text = [
          `${info.name} ${info.version} (MCP ${protocolVersion ?? 'unknown'}) · vault "${v.vault.name}" (${v.vault.format})`,
          v.counts === undefined
            ? `The search index is being built (${indexProgress(v.index)}): the counts come once it is ready, and tools that need it wait for it.`
            : `You can see ${v.counts.notes} notes, ${v.counts.attachments} attachments, ${v.counts.folders} folders, ${v.counts.tags} tags, ${v.counts.openTasks} open tasks. Index: ${v.index.state}.`,
          ...(v.mixedFormats === undefined ? [] : [`Mixed formats: ${v.mixedFormats.advice}`]),
          `Access: ${v.access.policyFile ? `default ${v.access.default}` : 'no policy file: read-write everywhere'}${rules === '' ? '' : `\n${rules}`}`,
          `Pending changes waiting for review: ${v.pendingChanges}. Journal: ${v.journal.verifies ? `verifies (${v.journal.entries} entries)` : `does NOT verify: ${v.journal.problem}`}.`,
          ...v.interrupted.map(
            (op) =>
              `Interrupted: ${op.tool} (group ${op.group}, started ${op.started}) was stopped half done; some notes moved and others not. Ask the vault owner to run: ${op.repair}`,
          ),
          `Limits: results ${v.limits.resultBytes} bytes, notes ${v.limits.noteBytes} bytes, export pages ${v.limits.exportBytes} bytes, search ${v.limits.searchResults} hits, list pages ${v.limits.listPage}, change pages ${v.limits.changesPage}.`,
        ].join('\n');
        return toolResult(text, data);
      }),
  );
}

function indexProgress(index: {
  state: string;
  progress?: { done: number; total: number };
  step?: string;
  error?: string;
}): string {
  if (index.state === 'failed') return `it failed: ${index.error ?? 'unknown'}`;
  const p = index.progress;
  return p === undefined || p.total === 0
    ? (index.step ?? 'starting')
    : `${index.step ?? 'reading notes'}, ${p.done} of ${p.total}`;
}
