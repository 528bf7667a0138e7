/**
 * @module
 * list_links: the vault's links that resolve to nothing, or its notes nothing links to (SPEC 17.5),
 * for tidying a vault.
 */
import * as z from 'zod';
import { DEFAULT_LINK_LIST_LIMIT } from '../../access/links/vault-links.js';
import { withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { runReadTool } from '../work.js';

export const name = 'list_links';

const MAX_LIMIT = 1000;

export const inputSchema = z.object({
  kind: z
    .enum(['unresolved', 'orphans'])
    .describe(
      'unresolved: every link that resolves to no note or file; orphans: every note no other note links to',
    ),
  folder: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Only links written in notes of this folder (unresolved), or only notes of this folder (orphans), sub-folders included',
    ),
  limit: limitField('items', DEFAULT_LINK_LIST_LIMIT, MAX_LIMIT),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    kind: z.enum(['unresolved', 'orphans']),
    links: z
      .array(
        z.object({
          source: z.string().describe('The note holding the link'),
          sourceId: noteIdField.optional().describe("That note's id"),
          line: z.number().describe('Its line in that note'),
          target: z.string().describe('What the link names, without #heading or #^block'),
          raw: z.string().describe('The link as written'),
          embed: z.boolean(),
        }),
      )
      .optional()
      .describe('kind unresolved: the links, by source note, then line'),
    notes: z
      .array(z.object({ name: z.string(), id: noteIdField.optional() }))
      .optional()
      .describe('kind orphans: the notes, by name'),
    total: z.number().describe('How many in all, on every page'),
    ...pageFields('items'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List unresolved links or orphan notes',
      description:
        'For tidying a vault. kind "unresolved": every link ([[wikilink]], [text](path), embed or frontmatter link) that resolves to no note or file, with the note and line it is on and the text it names — fix it with edit_note, or create the note it names. kind "orphans": every note that no other note links to. Links resolve as in Obsidian (aliases too); a link to a note you cannot see counts as unresolved. folder narrows either list. Pages with cursor and says total. For one note\'s links use get_outgoing_links or get_backlinks.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List unresolved links or orphan notes', ...readOnlyTool },
    },
    (args, ctx) =>
      runReadTool(ctx, name, async (work) => {
        const page = await access.listLinks(
          session,
          {
            kind: args.kind,
            ...(args.folder === undefined ? {} : { folder: args.folder }),
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
            ...(args.limit === undefined ? {} : { limit: args.limit }),
          },
          work,
        );
        const where = args.folder ? ` in ${args.folder}` : '';
        const paging = {
          more: page.more,
          ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        };
        if (page.kind === 'unresolved') {
          const head =
            page.total === 0
              ? `No unresolved links${where}.`
              : `${page.total} unresolved link${page.total === 1 ? '' : 's'}${where}${page.more ? `; ${page.items.length} in this page` : ''}:`;
          const lines = page.items.map(
            (l) => `- ${l.source}:${l.line} ${l.raw} → nothing named "${l.target}"`,
          );
          return toolResult(
            [head, ...lines].join('\n') + moreText(page, 'links'),
            { kind: page.kind, links: withIds(access, page.items, 'source'), total: page.total, ...paging },
            ['links'],
          );
        }
        const head =
          page.total === 0
            ? `No orphan notes${where}: every note is linked from another.`
            : `${page.total} note${page.total === 1 ? '' : 's'}${where} no other note links to${page.more ? `; ${page.items.length} in this page` : ''}:`;
        const lines = page.items.map((n) => `- ${n.name}`);
        return toolResult(
          [head, ...lines].join('\n') + moreText(page, 'notes'),
          { kind: page.kind, notes: withIds(access, page.items), total: page.total, ...paging },
          ['notes'],
        );
      }),
  );
}
