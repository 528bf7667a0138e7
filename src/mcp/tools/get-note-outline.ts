/**
 * @module
 * get_note_outline: a note's structure before reading it all (SPEC 12.3).
 */
import * as z from 'zod';
import { withId } from '../note-ids.js';
import { toolResult } from '../result.js';
import { lineSpan, noteIdField, noteRefArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { runReadTool } from '../work.js';

export const name = 'get_note_outline';

export const inputSchema = z.object({
  ...noteRefArguments,
});

export const outputSchema = withErrors(
  z.object({
    name: z.string().describe('Canonical name of the note, with .md'),
    id: noteIdField.optional(),
    etag: z.string().describe("The whole note's etag, as read_note gives it"),
    headings: z
      .array(
        z.object({
          level: z.number().describe('1 to 6'),
          text: z.string().describe('The heading text'),
          line: z.number().describe('1-based line of the heading'),
          anchor: z
            .string()
            .describe('What a link to it carries after #, as Obsidian writes it: [[note#anchor]]'),
        }),
      )
      .describe('Every heading in document order'),
    blocks: z
      .array(
        z.object({
          id: z.string().describe('The block id; link to it as [[note#^id]]'),
          line: z.number().describe('1-based line holding ^id'),
          lines: lineSpan.describe('The lines [from, to] of the block the id names'),
          text: z.string().describe('The block text without ^id, at most 200 characters'),
        }),
      )
      .describe('Every ^id block anchor in document order'),
    words: z
      .number()
      .describe(
        "Words in the body as Obsidian's word count counts them (frontmatter excluded; CJK characters one word each)",
      ),
    characters: z.number().describe("Characters in the body as Obsidian's status bar counts them"),
    lines: z.number().describe('Lines in the whole note, frontmatter included'),
    tasks: z.object({ open: z.number(), done: z.number() }).describe('Checkbox tasks, open and done'),
    links: z
      .object({
        outgoing: z.number().describe('Links in the note (get_outgoing_links lists them)'),
        backlinks: z.number().describe('Notes linking to it (get_backlinks lists them)'),
      })
      .describe('Links both ways, counted'),
    tags: z
      .array(
        z.object({
          tag: z.string().describe('The tag without #, as written'),
          line: z.number().describe('1-based line (a frontmatter tag: its list item, or the tags: line)'),
          source: z.enum(['frontmatter', 'inline']),
        }),
      )
      .describe('Every tag, frontmatter first, then inline in document order (at most 1,000)'),
    embeds: z
      .array(
        z.object({
          target: z.string().describe('The link target as written, without #heading or #^block'),
          line: z.number().describe('1-based line of the link'),
          embed: z.boolean().describe('true for ![[…]] or ![](…), false for a plain link to an attachment'),
          resolved: z
            .string()
            .nullable()
            .describe('The vault path it opens now (as get_outgoing_links resolves), or null'),
        }),
      )
      .describe(
        'Embeds and links to attachments (files that are not notes), in document order (at most 1,000)',
      ),
    tables: z
      .array(
        z.object({
          line: z.number().describe('1-based line of the header row'),
          to: z.number().describe("1-based line of the table's last row"),
          headers: z
            .array(z.string())
            .describe(
              'The column names, the keys of each row (an empty header is "column N", a repeated one "x (2)")',
            ),
          rows: z
            .array(z.record(z.string(), z.string()))
            .describe('Each row as an object by header, cells trimmed, \\| read as |'),
          truncated: z.literal(true).optional().describe('The table has more than the 1,000 rows given'),
        }),
      )
      .describe('The Markdown pipe tables, as GFM and Obsidian read them (none inside code; at most 100)'),
    cut: z
      .array(z.enum(['tags', 'embeds', 'tables']))
      .optional()
      .describe(
        'Lists that stop at their bound; read_note with a line range reads the rest where it is written',
      ),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get a note outline',
      description:
        "Shows a note's structure without its text: headings (level, line, and the anchor a [[note#heading]] link uses), ^id blocks with their lines, counts of words (as Obsidian counts them), characters, lines and tasks, how many links go out and come in, every tag with its line (frontmatter and inline), embeds and links to attachments with what they resolve to, and Markdown tables with their rows as objects by header (1,000 rows a table at most, truncated beyond). Use it before reading a long note, then read only the part you need with read_note section or block. Use read_note for the text, get_outgoing_links / get_backlinks for the links themselves.",
      inputSchema,
      outputSchema,
      annotations: { title: 'Get a note outline', ...readOnlyTool },
    },
    (args, ctx) =>
      runReadTool(ctx, name, async (work) => {
        const o = await access.noteOutline(session, access.noteName(session, args), work);
        const parts = [
          `# Outline of ${o.name}`,
          `etag: ${o.etag} · ${o.words} words · ${o.characters} characters · ${o.lines} lines · tasks ${o.tasks.open} open, ${o.tasks.done} done · links ${o.links.outgoing} out, ${o.links.backlinks} notes in`,
        ];
        parts.push(
          o.headings.length === 0
            ? 'No headings.'
            : `Headings:\n${o.headings.map((h) => `${'  '.repeat(h.level - 1)}- ${'#'.repeat(h.level)} ${h.text} (line ${h.line}; link [[${o.name.replace(/\.md$/i, '')}#${h.anchor}]])`).join('\n')}`,
        );
        if (o.blocks.length > 0) {
          parts.push(
            `Blocks:\n${o.blocks.map((b) => `- ^${b.id} (lines ${b.lines[0]}–${b.lines[1]}): ${b.text}`).join('\n')}`,
          );
        }
        if (o.tags.length > 0) {
          parts.push(
            `Tags: ${o.tags.map((t) => `#${t.tag} (line ${t.line}${t.source === 'frontmatter' ? ', frontmatter' : ''})`).join(', ')}`,
          );
        }
        if (o.embeds.length > 0) {
          parts.push(
            `Embeds and attachments:\n${o.embeds.map((e) => `- ${e.embed ? '![[' : '[['}${e.target}]] (line ${e.line}) → ${e.resolved ?? 'nothing (unresolved)'}`).join('\n')}`,
          );
        }
        if (o.tables.length > 0) {
          parts.push(
            `Tables:\n${o.tables.map((t) => `- lines ${t.line}–${t.to}: ${t.headers.join(' | ')} (${t.rows.length} rows${t.truncated ? ' given, more in the note' : ''})`).join('\n')}`,
          );
        }
        if (o.cut !== undefined) parts.push(`Cut at their bound: ${o.cut.join(', ')}.`);
        return toolResult(parts.join('\n\n'), { ...withId(access, o) }, [
          'headings',
          'blocks',
          'tags',
          'embeds',
          'tables',
        ]);
      }),
  );
}
