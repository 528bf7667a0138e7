/**
 * @module
 * list_folders: the vault's folder tree with note counts.
 */
import * as z from 'zod';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_folders';

export const inputSchema = z.object({
  folder: z
    .string()
    .max(4096)
    .optional()
    .describe('Only the folders below this one, e.g. "projects"; omit for the whole vault'),
  limit: limitField('folders', 500, 5000),
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    folder: z.string().describe('The folder listed below ("" for the vault root)'),
    folders: z
      .array(
        z.object({
          path: z.string().describe('Vault-relative folder path'),
          notes: z.number().describe('Notes directly in this folder'),
          totalNotes: z.number().describe('Notes in this folder and all folders below it'),
        }),
      )
      .describe('In path order, so each folder comes right before what it holds'),
    total: z.number().describe('How many folders there are in all'),
    ...pageFields('folders'),
    truncated: z.boolean().describe('The same as more (kept for clients written before more)'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List folders',
      description:
        'Lists the folders of the vault (or below one folder) as a tree in path order, each with how many notes it holds directly and in all, empty folders included, a page at a time (total says how many in all). Use it to see how the vault is organized before moving things; use list_notes for the notes themselves.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List folders', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const r = access.listFolders(session, {
          ...(args.folder === undefined ? {} : { folder: args.folder }),
          ...(args.limit === undefined ? {} : { limit: args.limit }),
          ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        });
        const head =
          r.total === 0
            ? `No folders${r.folder === '' ? ' in the vault' : ` below ${r.folder}`}.`
            : `${r.total} folder(s)${r.folder === '' ? '' : ` below ${r.folder}`}${r.folders.length < r.total ? `, ${r.folders.length} of them here` : ''}:`;
        const lines = r.folders.map((f) => {
          const depth = f.path.split('/').length - (r.folder === '' ? 1 : r.folder.split('/').length + 1);
          const name = f.path.slice(f.path.lastIndexOf('/') + 1);
          return `${'  '.repeat(depth)}- ${name}/ (${f.notes} here, ${f.totalNotes} in all)`;
        });
        return toolResult([head, ...lines].join('\n') + moreText(r, 'folders'), { ...r }, ['folders']);
      }),
  );
}
