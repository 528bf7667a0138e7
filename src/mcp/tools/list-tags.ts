/**
 * @module
 * list_tags: every tag with the number of notes carrying it (SPEC 10, OBSIDIAN.md §2.3).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_tags';

export const inputSchema = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('Only the most used tags, at most this many (default: every tag)'),
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
    total: z.number().describe('How many distinct tags the vault has, before limit'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List tags',
      description:
        "Lists the tags used in the vault (frontmatter tags and inline #tags) with how many notes carry each, most used first, as Obsidian's Tags view counts them: case-insensitive (#Work = #work), and a nested tag like #project/alpha also counts toward #project. Use it to learn the vault's vocabulary before filtering; use list_by_tag for the notes of one tag, or the tag argument of search_notes, list_tasks and query_notes.",
      inputSchema,
      outputSchema,
      annotations: { title: 'List tags', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.listTags(session, args.limit === undefined ? {} : { limit: args.limit });
        const shown = found.tags.length;
        const head =
          found.total === 0
            ? 'No tags in the vault.'
            : shown < found.total
              ? `The ${shown} most used of ${found.total} tags:`
              : `${found.total} tag${found.total === 1 ? '' : 's'}, most used first:`;
        const lines = found.tags.map((t) => `- #${t.tag} (${t.count} note${t.count === 1 ? '' : 's'})`);
        return toolResult([head, ...lines].join('\n'), { ...found }, ['tags']);
      }),
  );
}
