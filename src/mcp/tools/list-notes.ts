/**
 * @module
 * list_notes: the vault's notes, newest first, paged.
 */
import * as z from 'zod';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { dateRangeFields, noteFactsShape, noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_notes';

export const inputSchema = z.object({
  folder: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Only notes in this folder and its sub-folders, e.g. "projects/alpha"; omit for the whole vault',
    ),
  ...dateRangeFields,
  limit: limitField('notes', 50, 500),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    notes: z.array(
      z.object({
        name: z.string(),
        id: noteIdField.optional(),
        title: z.string(),
        modified: z.string(),
        sizeBytes: z.number(),
        ...noteFactsShape,
        uri: z.string().describe('obsidian://open link that opens the note in Obsidian'),
      }),
    ),
    ...pageFields('notes'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List notes',
      description:
        'Lists notes newest first (by modification time) with name, title, modified and created times, size and word count. A folder includes its sub-folders; modified_after/modified_before and created_after/created_before keep a time range (ISO dates or times). Pages with cursor. Use it to browse or to find recently changed notes; use search_notes to find notes by their content.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List notes', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const page = access.listNotes(session, args);
        const lines = page.notes.map(
          (n) =>
            `- ${n.name} — ${n.title} (modified ${n.modified}, created ${n.created}, ${n.words} words, ${n.sizeBytes} bytes)`,
        );
        const head =
          page.notes.length === 0
            ? 'No notes found.'
            : `${page.notes.length} note${page.notes.length === 1 ? '' : 's'}, newest first:`;
        return toolResult([head, ...lines].join('\n') + moreText(page, 'notes'), { ...page }, ['notes']);
      }),
  );
}
