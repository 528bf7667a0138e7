/**
 * @module
 * delete_note: move a note to the recoverable trash (SPEC 2.5).
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { etagField, noteIdField, noteRefArguments, scopeGuardFields, writeOutput } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { describeStaged } from './write-text.js';

export const name = 'delete_note';

export const inputSchema = z.object({
  ...scopeGuardFields,
  ...noteRefArguments,
  expected_etag: etagField.optional(),
  copied_to: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Delete only if this note (the copy you made) exists, is another note, and has the same body (frontmatter may differ); else refused with conflict and nothing deleted. For "copy, then retire the original"',
    ),
});

export const outputSchema = writeOutput(
  z.object({
    name: z.string(),
    id: noteIdField.optional().describe("The deleted note's id (it names nothing once the note is gone)"),
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
    (args, ctx) =>
      runWriteTool(ctx, 'delete_note', async () => {
        const result = await access.deleteNote(scoped(session, args), {
          name: access.noteName(session, args),
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
          ...(args.copied_to === undefined ? {} : { copiedTo: args.copied_to }),
        });
        if ('staged' in result) return toolResult(describeStaged(result), { ...result });
        return toolResult(
          `Moved ${result.name} to the trash (deletion id ${result.trashId}). restore_note can bring it back.`,
          { ...result },
        );
      }),
  );
}
