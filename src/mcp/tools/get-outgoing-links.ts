/**
 * @module
 * get_outgoing_links: each link in a note and where it points now (SPEC 10, OBSIDIAN.md §1).
 */
import * as z from 'zod';
import { withId, withIds } from '../note-ids.js';
import { runTool, toolResult } from '../result.js';
import { lineSpan, noteIdField, noteRefArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'get_outgoing_links';

export const inputSchema = z.object({
  ...noteRefArguments,
});

export const outputSchema = withErrors(
  z.object({
    name: z.string().describe('Canonical name of the note, with .md'),
    id: noteIdField.optional(),
    links: z.array(
      z.object({
        raw: z.string().describe('The link as written, e.g. "[[Goals#Q3|goals]]" or "[plan](My%20Plan.md)"'),
        target: z
          .string()
          .nullable()
          .describe(
            'Vault path of the file the link resolves to now (a note, or an attachment such as "img/a.png"); null when unresolved',
          ),
        targetId: noteIdField
          .optional()
          .describe('The id of the note target names (absent for an attachment or unresolved)'),
        heading: z.string().nullable().describe('The #heading part, or null'),
        block: z.string().nullable().describe('The #^block id, or null'),
        alias: z.string().nullable().describe('The display text, or null'),
        embed: z.boolean().describe('true for an embed, ![[…]] or ![…](…) (an <img> in an HTML vault)'),
        kind: z
          .enum(['wikilink', 'markdown', 'frontmatter', 'html'])
          .describe(
            '[[wikilink]], [Markdown](link), a "[[link]]" property value, or in an HTML vault an <a href> / <img src>',
          ),
        line: z.number().describe('1-based line in the note'),
        property: z
          .string()
          .nullable()
          .describe('For a frontmatter link, the property it sits at (e.g. "related.0"); else null'),
        lines: lineSpan
          .nullable()
          .describe(
            'For a link to a #heading or #^block: the lines [from, to] of that section or block in the target note (read them with read_note section/block); null when the link has no such part or nothing in the target matches it',
          ),
      }),
    ),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get outgoing links',
      description:
        'Lists every link in one note, in document order (links in frontmatter properties first): wikilinks, Markdown links and embeds, each with the file it resolves to now as Obsidian resolves it (case-insensitive; a bare name finds a note in any folder; a path picks the shortest match), or target null when nothing matches (a note that does not exist yet). Also gives heading, block id, display text and line; for a link to a #heading or #^block, the lines of that part in the target note (null when the target has no such heading or block). Use get_backlinks for the reverse direction (who links here); use read_note for the text itself.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Get outgoing links', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.outgoingLinks(session, access.noteName(session, args));
        const count = found.links.length;
        const head =
          count === 0
            ? `${found.name} has no links.`
            : `${count} link${count === 1 ? '' : 's'} in ${found.name}:`;
        const lines = found.links.map((l) => {
          const notes = [
            l.embed ? 'embed' : null,
            l.property === null ? null : `property ${l.property}`,
            l.heading === null ? null : `heading "${l.heading}"`,
            l.block === null ? null : `block ^${l.block}`,
            l.heading === null && l.block === null
              ? null
              : l.lines === null
                ? 'not found in the target'
                : `lines ${l.lines[0]}–${l.lines[1]} there`,
            l.alias === null ? null : `shown as "${l.alias}"`,
          ].filter((n) => n !== null);
          const where = l.target === null ? 'unresolved (no such file)' : l.target;
          return `- line ${l.line}: ${l.raw} → ${where}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
        });
        return toolResult(
          [head, ...lines].join('\n'),
          { ...withId(access, found), links: withIds(access, found.links, 'target') },
          ['links'],
        );
      }),
  );
}
