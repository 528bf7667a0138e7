/**
 * @module
 * list_attachments: the files of the vault that are not notes (images, PDFs…), with how many notes
 * embed or link each, or only those nothing links to (SPEC 13.4).
 */
import * as z from 'zod';
import { DEFAULT_ATTACHMENT_LIMIT } from '../../access/attachments/tools.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_attachments';

const MAX_LIMIT = 1000;

export const inputSchema = z.object({
  folder: z.string().max(4096).optional().describe('Only files in this folder and its sub-folders'),
  unused: z
    .boolean()
    .optional()
    .describe('true: only files no note embeds or links (candidates for clean-up)'),
  limit: limitField('files', DEFAULT_ATTACHMENT_LIMIT, MAX_LIMIT),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    attachments: z
      .array(
        z.object({
          path: z.string().describe('Vault-relative path; pass it to read_attachment'),
          sizeBytes: z.number(),
          mimeType: z.string().describe('From the file name extension'),
          modified: z.string().describe('Modification time, ISO 8601'),
          embeddedBy: z.number().describe('How many notes embed or link the file'),
        }),
      )
      .describe('In path order'),
    total: z.number().describe('How many files match in all, on every page'),
    ...pageFields('files'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List attachments',
      description:
        'Lists the files of the vault that are not notes (images, PDFs, audio, canvases…) in path order, each with its size, type, modification time and embeddedBy: how many notes embed or link it (![[photo.png]], [text](file.pdf), or a property holding "[[file]]", resolved as Obsidian resolves links). unused: true lists only files nothing links to. Pages with cursor and says total. Read one with read_attachment; to see what a note embeds, use get_outgoing_links.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List attachments', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const page = access.listAttachments(session, {
          ...(args.folder === undefined ? {} : { folder: args.folder }),
          ...(args.unused === undefined ? {} : { unused: args.unused }),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
          ...(args.limit === undefined ? {} : { limit: args.limit }),
        });
        const what = args.unused ? 'unused attachment' : 'attachment';
        const head =
          page.total === 0
            ? `No ${what}s${args.folder ? ` in ${args.folder}` : ''}.`
            : `${page.total} ${what}${page.total === 1 ? '' : 's'}${page.more ? `; ${page.attachments.length} in this page` : ''}:`;
        const lines = page.attachments.map(
          (a) =>
            `- ${a.path} — ${a.mimeType}, ${a.sizeBytes} bytes, linked from ${a.embeddedBy} note${a.embeddedBy === 1 ? '' : 's'}`,
        );
        return toolResult([head, ...lines].join('\n') + moreText(page, `${what}s`), { ...page }, [
          'attachments',
        ]);
      }),
  );
}
