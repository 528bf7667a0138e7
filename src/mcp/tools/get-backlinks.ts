/**
 * @module
 * get_backlinks: the notes linking to a note, with how many links each holds (SPEC 10).
 */
import * as z from 'zod';
import { BACKLINKS_PAGE } from '../../access/links/links.js';
import { withId, withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, noteRefArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'get_backlinks';

export const inputSchema = z.object({
  ...noteRefArguments,
  limit: limitField('linking notes', BACKLINKS_PAGE, 5000),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    name: z.string().describe('Canonical name of the note linked to, with .md'),
    id: noteIdField.optional(),
    backlinks: z
      .array(
        z.object({
          name: z.string().describe('A note linking to it'),
          id: noteIdField.optional(),
          count: z
            .number()
            .describe('How many of its links (embeds and frontmatter links included) resolve here'),
        }),
      )
      .describe('Most links first, then by name; the note itself is never listed. One page'),
    total: z.number().describe('How many notes link to it in all'),
    ...pageFields('linking notes'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get backlinks',
      description:
        "Lists the notes that link to one note, with how many links each holds — wikilinks, Markdown links, embeds and links in frontmatter properties all count, but only links that Obsidian would resolve to this very note (another note of the same name elsewhere does not count). Most links first, a page at a time (200 by default; total says how many in all, nextCursor gives the next page). Use it to see what refers to a note before renaming or deleting it; use get_outgoing_links for the note's own links; use query_notes with has_link to combine this with other conditions.",
      inputSchema,
      outputSchema,
      annotations: { title: 'Get backlinks', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.backlinks(session, access.noteName(session, args), {
          ...(args.limit === undefined ? {} : { limit: args.limit }),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
        const shown = found.backlinks.length;
        const head =
          found.total === 0
            ? `No notes link to ${found.name}.`
            : found.total === 1
              ? `1 note links to ${found.name}:`
              : shown === found.total
                ? `${found.total} notes link to ${found.name}:`
                : `${found.total} notes link to ${found.name}; ${shown} of them here:`;
        const lines = found.backlinks.map((b) => `- ${b.name} (${b.count} link${b.count === 1 ? '' : 's'})`);
        return toolResult(
          [head, ...lines].join('\n') + moreText(found, 'linking notes'),
          { ...withId(access, found), backlinks: withIds(access, found.backlinks) },
          ['backlinks'],
        );
      }),
  );
}
