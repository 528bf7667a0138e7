/**
 * @module
 * edit_note: change part of a note, every other byte kept (SPEC 2.2).
 */
import * as z from 'zod';
import { NotedError } from '../../common/errors.js';
import type { EditOperation } from '../../markdown/edit.js';
import { runTool, toolResult } from '../result.js';
import { etagField, inFolderField, noteName, WriteShape, writeOutput } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { describeWrite } from './write-text.js';

export const name = 'edit_note';

export const inputSchema = z.object({
  in_folder: inFolderField,
  name: noteName,
  operation: z
    .enum(['replace', 'replace_section', 'append_to_section'])
    .describe(
      'replace: old_text → new_text; replace_section: new content under a heading; append_to_section: add content at the end of a section',
    ),
  expected_etag: etagField
    .optional()
    .describe('The etag from read_note; this or expected_modified is required'),
  expected_modified: z
    .string()
    .max(100)
    .optional()
    .describe('The modified time from read_note, if you have no etag'),
  old_text: z
    .string()
    .optional()
    .describe(
      'replace: the exact text to replace (case, spaces and line breaks must match) — it must occur once unless replace_all',
    ),
  new_text: z.string().optional().describe('replace: the replacement; "" deletes old_text'),
  replace_all: z
    .boolean()
    .optional()
    .describe('replace: replace every occurrence instead of requiring exactly one'),
  heading: z
    .string()
    .max(1000)
    .optional()
    .describe('Sections: the heading text, e.g. "Risks" (any level) or "## Risks" (level 2 only)'),
  content: z.string().optional().describe('Sections: the new section text, or the text to append'),
  occurrence: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Sections: which of several equal headings, 1-based'),
  whole: z
    .boolean()
    .optional()
    .describe(
      'Sections: include sub-sections (replace them too, or append after them); default false keeps them',
    ),
});

export const outputSchema = writeOutput(WriteShape);

type Args = z.infer<typeof inputSchema>;

function operationOf(args: Args): EditOperation {
  const missing = (arg: string) =>
    new NotedError(
      'validation_error',
      `edit_note with operation "${args.operation}" needs the argument ${arg}.`,
    );
  if (args.operation === 'replace') {
    if (args.old_text === undefined) throw missing('old_text');
    if (args.new_text === undefined) throw missing('new_text (use "" to delete)');
    return {
      kind: 'replace',
      oldText: args.old_text,
      newText: args.new_text,
      ...(args.replace_all === undefined ? {} : { replaceAll: args.replace_all }),
    };
  }
  if (args.heading === undefined) throw missing('heading');
  if (args.content === undefined) throw missing('content');
  return {
    kind: args.operation,
    heading: args.heading,
    content: args.content,
    ...(args.occurrence === undefined ? {} : { occurrence: args.occurrence }),
    ...(args.whole === undefined ? {} : { whole: args.whole }),
  };
}

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Edit part of a note',
      description:
        "Changes part of a note and leaves every other byte as it was. Operations: replace (old_text must match exactly once, or set replace_all), replace_section (new text under a heading; sub-sections kept unless whole), append_to_section (add content at the end of a section, after a blank line). Requires expected_etag from read_note: if the note changed, nothing is written and the error gives the current text and etag so you can redo the edit. Prefer this over update_note for small changes. The vault owner's policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner's approval: the result says staged: true and the note is unchanged).",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Edit part of a note',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.editNote(scoped(session, args.in_folder), {
          name: args.name,
          operation: operationOf(args),
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
          ...(args.expected_modified === undefined ? {} : { expectedModified: args.expected_modified }),
        });
        return toolResult(describeWrite('Edited', result), { ...result });
      }),
  );
}
