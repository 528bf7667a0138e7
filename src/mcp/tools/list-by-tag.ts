/**
 * @module
 * list_by_tag: the notes carrying a tag, nested tags included, newest first (SPEC 10).
 */
import * as z from 'zod';
import { withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_by_tag';

const DEFAULT_LIMIT = 50;

export const inputSchema = z.object({
  tag: z
    .string()
    .min(1)
    .max(200)
    .describe('One tag, # optional, e.g. "project" or "#project/alpha"; case-insensitive; no spaces'),
  limit: limitField('notes', DEFAULT_LIMIT, 500),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    tag: z.string().describe('The tag asked for, without #'),
    notes: z
      .array(
        z.object({
          name: z.string(),
          id: noteIdField.optional(),
          title: z.string(),
          modified: z.string().describe('Modification time, ISO 8601'),
        }),
      )
      .describe('Newest first, then by name'),
    ...pageFields('notes'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List notes by tag',
      description:
        'Lists the notes carrying one tag — in frontmatter or inline — or any tag nested below it (#project also finds #project/alpha, not #projection), case-insensitively, newest first, a page at a time (more and nextCursor say when more follow). Use it to gather a topic; use list_tags to see which tags exist; use query_notes to combine a tag with property conditions, or search_notes with tag: to combine it with words.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List notes by tag', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.notesByTag(session, {
          tag: args.tag,
          limit: args.limit ?? DEFAULT_LIMIT,
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
        const count = found.notes.length;
        const head =
          count === 0
            ? `No${args.cursor === undefined ? '' : ' more'} notes are tagged #${found.tag}.`
            : `${count} note${count === 1 ? '' : 's'} tagged #${found.tag} (nested tags included), newest first:`;
        const lines = found.notes.map((n) => `- ${n.name} — ${n.title} (modified ${n.modified})`);
        return toolResult(
          [head, ...lines].join('\n') + moreText(found, 'notes'),
          { ...found, notes: withIds(access, found.notes) },
          ['notes'],
        );
      }),
  );
}
