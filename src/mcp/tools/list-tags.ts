/**
 * @module
 * list_tags: every tag with the number of notes carrying it (SPEC 10, OBSIDIAN.md §2.3).
 */
import * as z from 'zod';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_tags';

const DEFAULT_LIMIT = 500;

export const inputSchema = z.object({
  limit: limitField('tags', DEFAULT_LIMIT, 10_000),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    tags: z
      .array(
        z.object({
          tag: z.string().describe('The tag without #, e.g. "project/alpha", in the casing most notes use'),
          count: z.number().describe('Notes carrying the tag or a tag nested below it'),
        }),
      )
      .describe('Most used first, then by tag'),
    total: z.number().describe('How many distinct tags the vault has in all'),
    ...pageFields('tags'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List tags',
      description:
        "Lists the tags used in the vault (frontmatter tags and inline #tags) with how many notes carry each, most used first, a page at a time (total says how many in all), as Obsidian's Tags view counts them: case-insensitive (#Work = #work), and a nested tag like #project/alpha also counts toward #project. Use it to learn the vault's vocabulary before filtering; use list_by_tag for the notes of one tag, or the tag argument of search_notes, list_tasks and query_notes.",
      inputSchema,
      outputSchema,
      annotations: { title: 'List tags', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.listTags(session, {
          limit: args.limit ?? DEFAULT_LIMIT,
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
        const shown = found.tags.length;
        const head =
          found.total === 0
            ? 'No tags in the vault.'
            : shown < found.total
              ? `${found.total} tags; ${shown} of them here, most used first:`
              : `${found.total} tag${found.total === 1 ? '' : 's'}, most used first:`;
        const lines = found.tags.map((t) => `- #${t.tag} (${t.count} note${t.count === 1 ? '' : 's'})`);
        return toolResult([head, ...lines].join('\n') + moreText(found, 'tags'), { ...found }, ['tags']);
      }),
  );
}
