/**
 * @module
 * delete_folder: remove an empty folder, against a revision from a dry run.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';

export const name = 'delete_folder';

export const inputSchema = z.object({
  ...scopeGuardFields,
  folder: z.string().min(1).max(4096).describe('The folder to delete, e.g. "projects/old"'),
  dry_run: z
    .boolean()
    .optional()
    .describe('true: check that the folder can be deleted and return its revision; nothing is deleted'),
  revision: z.string().max(200).optional().describe('The revision the dry run returned; required to delete'),
});

export const outputSchema = withErrors(
  z.object({
    folder: z.string(),
    dryRun: z.boolean(),
    committed: z.boolean().describe('true when the folder was deleted'),
    revision: z.string().describe("A fingerprint of the folder's listing; pass it back to delete"),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Delete an empty folder',
      description:
        'Deletes a folder that holds no notes and no other files (empty sub-folders go with it). Two steps: call with dry_run: true to get its revision, then again with that revision; if the folder changed in between, the call is refused with conflict and nothing is deleted. A folder that is not empty is refused (validation_error): empty it first with delete_notes or move_folder.',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Delete an empty folder',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'delete_folder', () => {
        const r = access.deleteFolder(scoped(session, args), {
          folder: args.folder,
          ...(args.dry_run === undefined ? {} : { dryRun: args.dry_run }),
          ...(args.revision === undefined ? {} : { revision: args.revision }),
        });
        const text = r.dryRun
          ? `The folder ${r.folder} is empty and can be deleted: call delete_folder again with revision "${r.revision}".`
          : `Deleted the empty folder ${r.folder}.`;
        return toolResult(text, { ...r });
      }),
  );
}
