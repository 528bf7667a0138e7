/**
 * @module
 * restore_note: put a trashed note back where it was, never over an existing note.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { noteIdField, noteName, scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';

export const name = 'restore_note';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: noteName.describe(
    'The original path of the deleted note, as list_trash shows it (its name or deletedAs)',
  ),
  id: z
    .string()
    .max(100)
    .optional()
    .describe('A deletion id from list_trash; omit to restore the latest deletion'),
});

export const outputSchema = withErrors(
  z.object({
    name: z.string(),
    id: noteIdField
      .optional()
      .describe("The restored note's id: a new one (the id it had before the deletion names nothing now)"),
    etag: z.string(),
    trashId: z.string().describe('The deletion that was restored'),
    deletedAs: z
      .string()
      .optional()
      .describe(
        'Only when the note was deleted before the vault was converted: its name then; it was restored converted',
      ),
    losses: z
      .array(z.string())
      .optional()
      .describe('With deletedAs: what the conversion could not keep (empty when nothing)'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Restore a deleted note',
      description:
        "Puts a note from the trash back at its original path. Without id, the latest deletion of that name. Refused with already_exists when a note exists at that path again (nothing is overwritten). A note deleted before the vault was converted (list_trash shows deletedAs) is restored converted to the vault's format.",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Restore a deleted note',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'restore_note', async () => {
        const result = await access.restoreNote(scoped(session, args), {
          name: args.name,
          ...(args.id === undefined ? {} : { id: args.id }),
        });
        const converted =
          result.deletedAs === undefined
            ? ''
            : ` It was deleted as ${result.deletedAs}, before the vault was converted, and is restored converted to the vault's format${
                result.losses === undefined || result.losses.length === 0
                  ? '; nothing was lost.'
                  : `. Not kept:\n${result.losses.map((l) => `- ${l}`).join('\n')}`
              }`;
        return toolResult(`Restored ${result.name} (etag ${result.etag}).${converted}`, { ...result });
      }),
  );
}
