/**
 * @module
 * move_folder: move or rename a folder with everything agents may see in it, keeping links working.
 */
import * as z from 'zod';
import { nowResolvedWithIds, withIds } from '../note-ids.js';
import { toolResult } from '../result.js';
import { noteIdField, scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runLongTool } from '../work.js';
import { describeLinks, dryRunField, linkFields, updateLinksField } from './move-shape.js';

export const name = 'move_folder';

export const inputSchema = z.object({
  ...scopeGuardFields,
  folder: z.string().min(1).max(4096).describe('The folder to move, e.g. "projects/old"'),
  new_folder: z
    .string()
    .min(1)
    .max(4096)
    .describe('Its new vault-relative path, e.g. "archive/old"; must not exist yet'),
  update_links: updateLinksField,
  dry_run: dryRunField,
});

export const outputSchema = withErrors(
  z.object({
    folder: z.string(),
    newFolder: z.string(),
    notes: z
      .array(
        z.object({
          name: z.string(),
          newName: z.string(),
          id: noteIdField.optional().describe("The note's id: the same before and after the move"),
        }),
      )
      .describe('Notes moved, at most 1000 listed'),
    notesTotal: z.number(),
    attachmentsTotal: z.number().describe('Attachments (images, PDFs…) moved along'),
    notMoved: z
      .array(z.object({ name: z.string(), code: z.string(), message: z.string() }))
      .describe('Files that could not be moved, and why'),
    ...linkFields,
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Move or rename a folder',
      description:
        'Moves or renames a folder: every note and attachment in it (sub-folders included) moves to the new path, and links to them anywhere in the vault are rewritten as move_note does, so each link keeps its target. The new folder must not exist. Use dry_run: true first to see the plan. Refused with read_only when a note inside or the destination is read-only, and with staged for staged folders. Links in read-only notes are not rewritten (notUpdated). Rewritten notes get new etags: read them again before you edit them.',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Move or rename a folder',
        readOnlyHint: false,
        // A move takes the note away from its old path and rewrites links inside other notes.
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runLongTool(ctx, name, async (work) => {
        const r = await access.moveFolder(
          scoped(session, args),
          {
            folder: args.folder,
            newFolder: args.new_folder,
            ...(args.update_links === undefined ? {} : { updateLinks: args.update_links }),
            ...(args.dry_run === undefined ? {} : { dryRun: args.dry_run }),
          },
          work,
        );
        const what = `${r.notesTotal} note(s) and ${r.attachmentsTotal} attachment(s)`;
        const head = r.dryRun
          ? `Dry run: ${r.folder} would move to ${r.newFolder} with ${what}. Nothing was changed.`
          : `Moved ${r.folder} to ${r.newFolder} with ${what} (journal group ${r.group}).`;
        const failed = r.notMoved.map((f) => `Not moved: ${f.name} (${f.code}) ${f.message}`);
        // A note is named by its path before the move; under the folder it is now under the new one.
        const at = (p: string) =>
          !r.dryRun && p.startsWith(`${r.folder}/`) ? `${r.newFolder}${p.slice(r.folder.length)}` : p;
        return toolResult(
          [head, ...failed, describeLinks(r)].join('\n'),
          {
            ...r,
            notes: withIds(access, r.notes, r.dryRun ? 'name' : 'newName'),
            nowResolved: nowResolvedWithIds(access, r.nowResolved, at),
          },
          ['changes', 'notes'],
        );
      }),
  );
}
