/**
 * @module
 * update_note: overwrite a note whole, or append to it after a horizontal rule.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { etagField, noteRefArguments, scopeGuardFields, WriteShape, writeOutput } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { describeWrite } from './write-text.js';

export const name = 'update_note';

export const inputSchema = z.object({
  ...scopeGuardFields,
  ...noteRefArguments,
  content: z
    .string()
    .describe(
      'The new text (replaces the whole note, frontmatter included) or, with append, the text to add. HTML is converted to Markdown',
    ),
  append: z
    .boolean()
    .optional()
    .describe(
      'true: keep the stored text exactly and add content after a horizontal rule ("\\n\\n---\\n\\n")',
    ),
  expected_etag: etagField.optional(),
});

export const outputSchema = writeOutput(WriteShape);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Overwrite or append to a note',
      description:
        "Replaces the whole text of an existing note, or with append: true adds content at its end after a horizontal rule, leaving the stored text as it was. Pass expected_etag (from read_note) so that a note changed meanwhile is not overwritten: that is refused with conflict and the current text. To change only part of a note use edit_note; to make a new note use create_note. The vault owner's policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner's approval: the result says staged: true and the note is unchanged).",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Overwrite or append to a note',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'update_note', async () => {
        const result = await access.updateNote(scoped(session, args), {
          name: access.noteName(session, args),
          content: args.content,
          ...(args.append === undefined ? {} : { append: args.append }),
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
        });
        return toolResult(describeWrite(args.append ? 'Appended to' : 'Updated', result), { ...result });
      }),
  );
}
