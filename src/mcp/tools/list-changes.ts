/**
 * @module
 * list_changes: the change feed (SPEC 12.1), for agents that keep up with a vault over time.
 */
import * as z from 'zod';
import type { Change } from '../../access/feed/changes.js';
import { withId } from '../note-ids.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_changes';

export const inputSchema = z.object({
  cursor: z
    .string()
    .max(1000)
    .optional()
    .describe(
      'The nextCursor of your last call: continue from there. Keep it between sessions; it survives restarts',
    ),
  since: z
    .string()
    .max(100)
    .optional()
    .describe('Instead of a cursor: start at this time, ISO 8601 (e.g. "2026-05-01T09:00:00Z")'),
  folder: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Only changes to notes in this folder and its sub-folders; a move across its edge reads as created or deleted',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('How many changes at most (default 100, at most 1,000)'),
});

export const outputSchema = withErrors(
  z.object({
    changes: z
      .array(
        z.object({
          seq: z.number().describe('Position in the feed; changes come in this order'),
          name: z.string().describe('The note, with .md (for a move: its new name)'),
          id: noteIdField
            .optional()
            .describe('The id of the note now at name, when one is (absent for a deletion)'),
          kind: z.enum(['created', 'modified', 'deleted', 'moved']),
          from: z.string().optional().describe('For a move: the previous name'),
          etag: z.string().nullable().describe("The text's etag after the change; null when deleted"),
          at: z.string().describe('When the server saw the change, ISO 8601'),
          by: z
            .enum(['agent', 'outside'])
            .describe(
              'agent: made by an agent through this server; outside: an editor, git, a sync, the owner',
            ),
          session: z.string().optional().describe('For an agent change: its session'),
          client: z.string().optional().describe("For an agent change: the client's self-declared name"),
        }),
      )
      .describe('Oldest first'),
    nextCursor: z.string().describe('Pass as cursor next time, also when no change came'),
    more: z.boolean().describe('true: more changes follow right away; call again with nextCursor'),
    reset: z
      .literal(true)
      .optional()
      .describe(
        'The feed does not cover your cursor or time (too old, or the index was rebuilt): re-read what you need (export_notes), then continue from nextCursor',
      ),
    resetReason: z.string().optional(),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List changes',
      description:
        "What changed in the vault since you last looked, oldest first: notes created, modified, deleted or moved, by agents or from outside (an editor, git, a sync, also while no server ran), with each note's etag. Call it once without cursor to get the cursor of now; keep the nextCursor it returns and pass it next time (cursors survive restarts). With reset: true your cursor is too old or from a rebuilt index: re-read what you need with export_notes and continue from the new nextCursor. Use list_notes to browse by modification time instead; use read_note or export_notes to get the changed text.",
      inputSchema,
      outputSchema,
      annotations: { title: 'List changes', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const page = access.listChanges(session, args);
        const head = page.reset
          ? `Reset: ${page.resetReason}. Re-read what you need (export_notes), then continue from nextCursor "${page.nextCursor}".`
          : args.cursor === undefined && args.since === undefined
            ? `No changes asked for: this is the cursor of now, "${page.nextCursor}". Pass it as cursor later to see what changed after this moment.`
            : page.changes.length === 0
              ? `No changes. Next time pass cursor "${page.nextCursor}".`
              : `${page.changes.length} change${page.changes.length === 1 ? '' : 's'}, oldest first:`;
        const lines = page.changes.map(describeChange);
        const tail =
          page.changes.length === 0 || page.reset
            ? ''
            : page.more
              ? `\nMore changes follow: call again with cursor "${page.nextCursor}".`
              : `\nThat is all for now; next time pass cursor "${page.nextCursor}".`;
        return toolResult(
          [head, ...lines].join('\n') + tail,
          { ...page, changes: page.changes.map((c) => (c.kind === 'deleted' ? c : withId(access, c))) },
          ['changes'],
        );
      }),
  );
}

function describeChange(c: Change): string {
  const who =
    c.by === 'agent' ? `by agent ${c.client ?? 'unnamed client'} (session ${c.session})` : 'from outside';
  const what = c.kind === 'moved' ? `moved ${c.from} → ${c.name}` : `${c.kind} ${c.name}`;
  return `- #${c.seq} ${what} ${who} at ${c.at}${c.etag === null ? '' : `, etag ${c.etag}`}`;
}
