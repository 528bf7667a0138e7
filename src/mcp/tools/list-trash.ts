/**
 * @module
 * list_trash: deleted notes that can still be restored, a page at a time.
 */
import * as z from 'zod';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_trash';

const DEFAULT_LIMIT = 100;

export const inputSchema = z.object({
  limit: limitField('deleted notes', DEFAULT_LIMIT, 1000),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    items: z
      .array(
        z.object({
          id: z.string().describe('Deletion id, for restore_note'),
          name: z.string().describe('The path the note had'),
          deletedAt: z.string(),
          deletedAs: z
            .string()
            .optional()
            .describe(
              'Only for a note deleted before the vault was converted to its present format: the name it had then. restore_note restores it under name, converted',
            ),
        }),
      )
      .describe('Newest deletion first, then by name'),
    total: z.number().describe('How many deleted notes can be restored in all'),
    ...pageFields('deleted notes'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List the trash',
      description:
        'Lists deleted notes that can be restored, newest deletion first, each with its original path and deletion id, a page at a time (total says how many in all). Deletions past the retention period are gone. Use restore_note to bring one back.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List the trash', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const page = access.listTrash(session, {
          limit: args.limit ?? DEFAULT_LIMIT,
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
        const lines = page.items.map(
          (t) =>
            `- ${t.name} (deleted ${t.deletedAt}, id ${t.id}${t.deletedAs === undefined ? '' : `; deleted as ${t.deletedAs}, before the vault was converted: restored converted`})`,
        );
        const head =
          page.total === 0
            ? 'The trash is empty.'
            : page.items.length === page.total
              ? `${page.total} deleted note${page.total === 1 ? '' : 's'}, newest first:`
              : `${page.total} deleted notes; ${page.items.length} of them here, newest first:`;
        return toolResult([head, ...lines].join('\n') + moreText(page, 'deleted notes'), { ...page }, [
          'items',
        ]);
      }),
  );
}
