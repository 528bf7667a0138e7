/**
 * @module
 * export_notes: many notes at once, paged under a byte budget (SPEC 12.2).
 */
import * as z from 'zod';
import { EXPORT_MAX_BYTES, EXPORT_MIN_BYTES } from '../../access/export/export.js';
import { toolResult } from '../result.js';
import { dateArgs, dateRangeFields, noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { runReadTool } from '../work.js';

export const name = 'export_notes';

export const inputSchema = z.object({
  format: z
    .enum(['json', 'markdown', 'html'])
    .describe(
      'json: each note as {name, etag, modified, frontmatter, body}; markdown: one document, each note after a "<!-- note: NAME etag: ETAG -->" line; html: one standalone, sanitized HTML document with links between the notes as in-page anchors',
    ),
  folder: z.string().max(4096).optional().describe('Only notes in this folder and its sub-folders'),
  tag: z
    .string()
    .max(500)
    .optional()
    .describe('Only notes with this tag (nested tags included), e.g. "project"'),
  query: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'Only notes matching this search_notes query (words, "phrases", -exclusions, OR, tag:, path:, file:)',
    ),
  ...dateRangeFields,
  cursor: z
    .string()
    .max(2000)
    .optional()
    .describe('The nextCursor of the previous page, with the same other arguments'),
  max_bytes: z
    .number()
    .int()
    .min(EXPORT_MIN_BYTES)
    .max(EXPORT_MAX_BYTES)
    .optional()
    .describe('The most a page may weigh as sent, in bytes (default 1,048,576; 65,536 to 8,388,608)'),
});

export const outputSchema = withErrors(
  z.object({
    format: z.enum(['json', 'markdown', 'html']),
    notes: z
      .array(
        z.object({
          name: z.string(),
          id: noteIdField.optional(),
          etag: z.string(),
          modified: z.string(),
          frontmatter: z
            .record(z.string(), z.unknown())
            .nullable()
            .optional()
            .describe('json: the parsed properties (null when none or unparseable)'),
          body: z.string().optional().describe('json: the text after the frontmatter'),
          totalChars: z
            .number()
            .optional()
            .describe('Only on a note cut to fit the page: its whole length; read the rest with read_note'),
        }),
      )
      .describe('The notes of this page, by name'),
    document: z.string().optional().describe('markdown and html: the page as one document'),
    count: z.number().describe('Notes in this page'),
    total: z.number().describe('Notes the export selects in all'),
    nextCursor: z.string().optional().describe('Present when more notes follow: pass it as cursor'),
    truncated: z
      .literal(true)
      .optional()
      .describe('This page holds one note too large for max_bytes, cut short; read it whole with read_note'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Export notes',
      description:
        'Reads many notes in one call: a whole folder, a tag, the matches of a search query, or the vault (each narrowed to a time range with modified_after/modified_before, created_after/created_before if you like), by name, as json, one markdown document or one html document. Pages never split a note and stay under max_bytes; follow nextCursor (same arguments) until it is absent, and each note comes exactly once. total says how many the export selects. Use it to copy or summarize many notes, or to re-read after list_changes says reset; use read_note for one note and search_notes to find notes.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Export notes', ...readOnlyTool },
    },
    (args, ctx) =>
      runReadTool(ctx, name, async (work) => {
        const page = await access.exportNotes(
          session,
          {
            format: args.format,
            ...(args.folder === undefined ? {} : { folder: args.folder }),
            ...(args.tag === undefined ? {} : { tag: args.tag }),
            ...(args.query === undefined ? {} : { query: args.query }),
            ...dateArgs(args),
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
            ...(args.max_bytes === undefined ? {} : { maxBytes: args.max_bytes }),
          },
          work,
        );
        const head = [
          `${page.count} of ${page.total} note${page.total === 1 ? '' : 's'} (${page.format})${page.nextCursor === undefined ? '; this is the last page.' : `; more follow: call again with cursor "${page.nextCursor}".`}`,
          ...(page.truncated
            ? [`${page.notes[0]?.name} is too large for one page and was cut short: read it with read_note.`]
            : []),
        ].join('\n');
        // Shaping an 8 MB page takes a while too: safe points between its notes, and before the result.
        const lines: string[] = [];
        if (page.document === undefined) {
          for (const note of page.notes) {
            lines.push(JSON.stringify(note));
            await work.checkpoint();
          }
        }
        const shown = page.document ?? lines.join('\n');
        await work.checkpoint();
        const result = toolResult(`${head}\n\n${shown}`, { ...page }, ['document', 'notes']);
        // Measuring an 8 MB result takes a few hundred ms in one piece: a cancel that came meanwhile
        // is read here, before the SDK serializes and sends the page.
        await work.checkpoint();
        return result;
      }),
  );
}
