/**
 * @module
 * delete_note: move a note to the recoverable trash (SPEC 2.5).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { etagField, noteName, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'delete_note';

export const inputSchema = z.object({
  name: noteName,
  expected_etag: etagField.optional(),
});

export const outputSchema = withErrors(
  z.object({
    name: z.string(),
    trashId: z.string().describe('The deletion id list_trash shows; pass it to restore_note as id'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Delete a note (to the trash)',
      description:
        'Moves a note to the trash, from which restore_note can put it back until the retention period ends (30 days unless the owner set otherwise). Pass expected_etag to refuse the deletion if the note changed since you read it. A bare name is only used when exactly one note has it.',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Delete a note (to the trash)',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.deleteNote(session, {
          name: args.name,
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
        });
        return toolResult(
          `Moved ${result.name} to the trash (deletion id ${result.trashId}). restore_note can bring it back.`,
          { ...result },
        );
      }),
  );
}
