/**
 * @module
 * read_note: one note, its frontmatter parsed and its body (SPEC 2.1), paged when very large.
 */
import { stringify } from 'yaml';
import * as z from 'zod';
import type { NoteContent } from '../../access/types.js';
import { runTool, toolResult } from '../result.js';
import { noteName, pagingArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'read_note';

export const inputSchema = z.object({
  name: noteName,
  ...pagingArguments('note', 'body character'),
});

/** A note as read_note gives it (SPEC 2.1); get_daily_note gives the same. */
export const NoteShape = z.object({
  schemaVersion: z.literal(2),
  name: z.string().describe('Canonical name, with .md'),
  format: z.literal('markdown'),
  frontmatter: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'Parsed YAML properties; null when there is no frontmatter or it does not parse; {} when empty',
    ),
  frontmatterRaw: z
    .string()
    .describe('The frontmatter block exactly as stored, delimiters included; "" when none'),
  frontmatterError: z.string().optional().describe('Why the frontmatter does not parse, when it does not'),
  encodingError: z
    .string()
    .optional()
    .describe(
      'Present only when the file is not valid UTF-8: the text shown is not exactly the stored bytes',
    ),
  body: z.string().describe('The text after the frontmatter; frontmatterRaw + body is the stored text'),
  etag: z.string().describe('Pass as expected_etag to edit_note, update_note or delete_note'),
  modified: z.string(),
  sizeBytes: z.number(),
  truncated: z.boolean().optional().describe('true when the body continues past this page'),
  offset: z.number().optional(),
  nextOffset: z.number().optional().describe('Where the next page starts'),
  totalChars: z.number().optional().describe('Length of the whole body in characters, for a paged read'),
});

export const outputSchema = withErrors(NoteShape);

/** The text read_note shows a model: name, version, frontmatter, then the body (page). */
export function noteText(note: NoteContent): string {
  const parts = [
    `# ${note.name}`,
    `etag: ${note.etag} · modified: ${note.modified} · ${note.sizeBytes} bytes`,
  ];
  if (note.encodingError !== undefined) parts.push(`Warning: ${note.encodingError}`);
  if (note.frontmatterError !== undefined) {
    parts.push(`Frontmatter does not parse (${note.frontmatterError}); as stored:\n${note.frontmatterRaw}`);
  } else if (note.frontmatter !== null) {
    parts.push(`Frontmatter:\n\`\`\`yaml\n${stringify(note.frontmatter).trimEnd()}\n\`\`\``);
  }
  if (note.offset !== undefined) {
    const end = note.offset + note.body.length;
    parts.push(
      `Body characters ${note.offset}–${end} of ${note.totalChars}${note.truncated ? ` (continue with offset ${note.nextOffset})` : ''}:`,
    );
  } else {
    parts.push('Body:');
  }
  return `${parts.join('\n\n')}\n${note.body}`;
}

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Read a note',
      description:
        'Reads one note: its frontmatter properties (parsed YAML) and its Markdown body, with the etag to pass to edit_note/update_note/delete_note. A bare name like "idea" finds the note in any folder when only one note has that name. frontmatterRaw + body is exactly the stored text. Very large notes come in pages: follow nextOffset while truncated is true.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Read a note', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const note = access.readNote(session, args.name, {
          ...(args.offset === undefined ? {} : { offset: args.offset }),
          ...(args.max_chars === undefined ? {} : { maxChars: args.max_chars }),
        });
        return toolResult(noteText(note), { ...note }, ['body', 'frontmatter']);
      }),
  );
}
