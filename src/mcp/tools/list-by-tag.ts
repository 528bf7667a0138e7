/**
 * @module
 * list_by_tag: the notes carrying a tag, nested tags included, newest first (SPEC 10).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_by_tag';

export const inputSchema = z.object({
  tag: z
    .string()
    .min(1)
    .max(200)
    .describe('One tag, # optional, e.g. "project" or "#project/alpha"; case-insensitive; no spaces'),
  limit: z.number().int().min(1).max(500).optional().describe('How many notes (default 50, at most 500)'),
});

export const outputSchema = withErrors(
  z.object({
    tag: z.string().describe('The tag asked for, without #'),
    notes: z
      .array(
        z.object({
          name: z.string(),
          title: z.string(),
          modified: z.string().describe('Modification time, ISO 8601'),
        }),
      )
      .describe('Newest first, then by name'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List notes by tag',
      description:
        'Lists the notes carrying one tag — in frontmatter or inline — or any tag nested below it (#project also finds #project/alpha, not #projection), case-insensitively, newest first. Use it to gather a topic; use list_tags to see which tags exist; use query_notes to combine a tag with property conditions, or search_notes with tag: to combine it with words.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List notes by tag', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const limit = args.limit ?? 50;
        const found = access.notesByTag(session, { tag: args.tag, limit });
        const count = found.notes.length;
        const head =
          count === 0
            ? `No notes are tagged #${found.tag}.`
            : `${count} note${count === 1 ? '' : 's'} tagged #${found.tag} (nested tags included), newest first:`;
        const lines = found.notes.map((n) => `- ${n.name} — ${n.title} (modified ${n.modified})`);
        const more =
          count === limit ? `\nThere may be more: call again with a larger limit (at most 500).` : '';
        return toolResult([head, ...lines].join('\n') + more, { ...found }, ['notes']);
      }),
  );
}
