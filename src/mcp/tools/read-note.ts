/**
 * @module
 * read_note: one note, its frontmatter parsed and its body (SPEC 2.1), paged when very large.
 */
import { stringify } from 'yaml';
import * as z from 'zod';
import type { NoteContent } from '../../access/types.js';
import { runTool, toolResult } from '../result.js';
import {
  lineSpan,
  noteIdField,
  noteRefArguments,
  pagingArguments,
  readOnlyTool,
  withErrors,
} from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'read_note';

export const inputSchema = z.object({
  ...noteRefArguments,
  ...pagingArguments('note', 'body character'),
  section: z
    .string()
    .max(1000)
    .optional()
    .describe(
      'Return only this section: a heading like "Risks" (any level) or "## Risks" (that level), with its sub-sections. get_note_outline lists the headings',
    ),
  occurrence: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('With section: which of several equal headings (1 = the first in the note)'),
  block: z
    .string()
    .max(200)
    .optional()
    .describe('Return only the block with this id, "^abc" or "abc" (the ^id anchors get_note_outline lists)'),
});

/** A note as read_note gives it (SPEC 2.1); get_daily_note gives the same. */
export const NoteShape = z.object({
  schemaVersion: z.literal(2),
  name: z.string().describe('Canonical name, with the note ending (.md, or .html in an HTML vault)'),
  id: noteIdField.optional(),
  uri: z.string().describe('obsidian://open link that opens the note in Obsidian'),
  format: z
    .enum(['markdown', 'html'])
    .describe('How the vault stores notes: html notes have no frontmatter and body is the stored HTML'),
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
  partial: z
    .literal(true)
    .optional()
    .describe(
      'Present when only a section or block was asked for: body is that part alone and frontmatterRaw is "", so never write them back as the whole note; change a section with edit_note',
    ),
  lines: lineSpan
    .optional()
    .describe('With section or block: the lines [from, to] of the part in the note, 1-based'),
  section: z.string().optional().describe('The heading of the section returned, e.g. "## Risks"'),
  block: z.string().optional().describe('The id of the block returned'),
});

export const outputSchema = withErrors(NoteShape);

/**
 * The text read_note shows a model: name, version, frontmatter, then the body (page); an HTML note's
 * plain text, then its HTML (SPEC 11.2).
 */
export function noteText(note: NoteContent): string {
  const parts = [
    `# ${note.name}`,
    `etag: ${note.etag} · modified: ${note.modified} · ${note.sizeBytes} bytes`,
  ];
  if (note.encodingError !== undefined) parts.push(`Warning: ${note.encodingError}`);
  // SPEC 17.7: the frontmatter once, as stored; the JSON line then leaves out frontmatter and frontmatterRaw.
  if (note.frontmatterError !== undefined) {
    parts.push(`Frontmatter does not parse (${note.frontmatterError}); as stored:\n${note.frontmatterRaw}`);
  } else if (note.frontmatterRaw !== '') {
    parts.push(`Frontmatter:\n${note.frontmatterRaw}`);
  } else if (note.frontmatter !== null) {
    // A part of the note (section, block) carries no raw block: its properties, in YAML.
    parts.push(`Frontmatter:\n\`\`\`yaml\n${stringify(note.frontmatter).trimEnd()}\n\`\`\``);
  }
  if (note.lines !== undefined) {
    const what = note.section !== undefined ? `Section "${note.section}"` : `Block ^${note.block}`;
    parts.push(
      `${what}: lines ${note.lines[0]}–${note.lines[1]} of the note (only this part; the etag is the whole note's).`,
    );
  }
  if (note.offset !== undefined) {
    const end = note.offset + note.body.length;
    parts.push(
      `Body characters ${note.offset}–${end} of ${note.totalChars}${note.truncated ? ` (continue with offset ${note.nextOffset})` : ''}:`,
    );
  } else if (note.plainText !== undefined) {
    parts.push(`Text:\n${note.plainText}`, 'HTML:');
  } else {
    parts.push(note.partial ? 'Text:' : 'Body:');
  }
  return `${parts.join('\n\n')}\n${note.body}`;
}

/** The fields of a note the text shows, for the JSON line (result.ts `structuredLine`). */
export const NOTE_SHOWN = ['body', 'frontmatter', 'frontmatterRaw'] as const;
export const NOTE_DERIVED = { frontmatter: 'frontmatterRaw' } as const;

/** A note's structuredContent: everything but the plain text, which the text above already shows. */
export function noteData(note: NoteContent): Omit<NoteContent, 'plainText'> {
  const { plainText: _shown, ...data } = note;
  return data;
}

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Read a note',
      description:
        'Reads one note: its frontmatter properties (parsed YAML) and its Markdown body (in an HTML vault: its plain text, then the stored HTML), with the etag to pass to edit_note/update_note/delete_note. A bare name like "idea" finds the note in any folder when only one note has that name. frontmatterRaw + body is exactly the stored text. Very large notes come in pages: follow nextOffset while truncated is true. To read only part of a long note, pass section (a heading; its sub-sections come along) or block (a ^id): the result is that part with its lines and the etag of the whole note. get_note_outline shows the headings and blocks of a note first.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Read a note', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const note = access.readNote(session, access.noteName(session, args), {
          ...(args.offset === undefined ? {} : { offset: args.offset }),
          ...(args.max_chars === undefined ? {} : { maxChars: args.max_chars }),
          ...(args.section === undefined ? {} : { section: args.section }),
          ...(args.occurrence === undefined ? {} : { occurrence: args.occurrence }),
          ...(args.block === undefined ? {} : { block: args.block }),
        });
        return toolResult(noteText(note), { ...noteData(note) }, NOTE_SHOWN, [], NOTE_DERIVED);
      }),
  );
}
