/**
 * @module
 * delete_note: move a note to the recoverable trash (SPEC 2.5).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { etagField, inFolderField, noteName, writeOutput } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { describeStaged } from './write-text.js';

export const name = 'delete_note';

export const inputSchema = z.object({
  in_folder: inFolderField,
  name: noteName,
  expected_etag: etagField.optional(),
});

export const outputSchema = writeOutput(
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
        "Moves a note to the trash, from which restore_note can put it back until the retention period ends (30 days unless the owner set otherwise). Pass expected_etag to refuse the deletion if the note changed since you read it. A bare name is only used when exactly one note has it. The vault owner's policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner's approval: the result says staged: true and the note is unchanged).",
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
        const result = await access.deleteNote(scoped(session, args.in_folder), {
          name: args.name,
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
        });
        if ('staged' in result) return toolResult(describeStaged(result), { ...result });
        return toolResult(
          `Moved ${result.name} to the trash (deletion id ${result.trashId}). restore_note can bring it back.`,
          { ...result },
        );
      }),
  );
}
