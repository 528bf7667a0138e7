/**
 * @module
 * list_bases: the owner's Obsidian Bases (SPEC 16.1): every visible `.base` file and every note with a
 * ` ```base ` block, with its views, and the place of the error when one does not parse.
 */
import * as z from 'zod';
import { withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { runReadTool } from '../work.js';

export const name = 'list_bases';

const DEFAULT_LIMIT = 100;

export const inputSchema = z.object({
  folder: z.string().max(4096).optional().describe('Only bases in this folder and its sub-folders'),
  limit: limitField('bases', DEFAULT_LIMIT, 1000),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    bases: z
      .array(
        z.object({
          name: z.string().describe('The .base file, or the note holding the ```base block'),
          id: noteIdField.optional().describe("The note's id, for a base in a note's ```base block"),
          block: z
            .number()
            .optional()
            .describe("The block's index in the note (0 = first); pass it to query_base"),
          views: z
            .array(z.object({ name: z.string(), type: z.string().describe('table, list, cards, map, …') }))
            .describe('The views, the first being the default'),
          error: z
            .object({ message: z.string(), line: z.number(), column: z.number() })
            .optional()
            .describe('Where the base does not parse (line and column in the file or note)'),
        }),
      )
      .describe('By name'),
    total: z.number().describe('How many bases in all'),
    ...pageFields('bases'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List bases',
      description:
        "Lists the owner's Obsidian Bases (saved database views): every .base file and every note with a ```base code block, each with its views (name and type) and, when it does not parse, the error's line and column. Use it to find a saved view, then query_base to read its rows. For an ad-hoc table over properties use query_notes.",
      inputSchema,
      outputSchema,
      annotations: { title: 'List bases', ...readOnlyTool },
    },
    (args, ctx) =>
      runReadTool(ctx, name, async (work) => {
        const found = await access.listBases(
          session,
          {
            limit: args.limit ?? DEFAULT_LIMIT,
            ...(args.folder === undefined ? {} : { folder: args.folder }),
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
          },
          work,
        );
        const head =
          found.total === 0
            ? `No bases ${args.folder === undefined ? 'in the vault' : `in "${args.folder}"`}.`
            : `${found.total} base${found.total === 1 ? '' : 's'}:`;
        const lines = found.bases.map((b) => {
          const where = b.block === undefined ? b.name : `${b.name} (block ${b.block})`;
          if (b.error)
            return `- ${where}: does not parse at line ${b.error.line}, column ${b.error.column}: ${b.error.message}`;
          return `- ${where}: ${b.views.map((v) => `${v.name} (${v.type})`).join(', ')}`;
        });
        return toolResult(
          [head, ...lines].join('\n') + moreText(found, 'bases'),
          { ...found, bases: withIds(access, found.bases) },
          ['bases'],
        );
      }),
  );
}
