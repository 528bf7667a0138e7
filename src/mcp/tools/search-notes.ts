/**
 * @module
 * search_notes: ranked full-text search with excerpts (SPEC 2.3).
 */
import * as z from 'zod';
import { cursorField, moreText, pageFields } from '../paging.js';
import { toolResult } from '../result.js';
import {
  dateArgs,
  dateRangeFields,
  noteFactsShape,
  noteIdField,
  readOnlyTool,
  withErrors,
} from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { runReadTool } from '../work.js';

export const name = 'search_notes';

export const inputSchema = z.object({
  query: z
    .string()
    .min(1)
    .max(2000)
    .describe(
      'Obsidian search syntax: words that must all appear (AND); "exact phrase"; -word to exclude; OR; (parentheses); /regex/; file:text; path:text; content:text; tag:#name (nested tags included); line:(a b), block:(a b), section:(a b) (all in one line, block or section); task:x, task-todo:x, task-done:x (task:"" for any task); match-case:Word, ignore-case:word; [property], [property:value], [property:null], [property:>5]',
    ),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe('How many results (default 10, at most 50)'),
  folder: z.string().max(4096).optional().describe('Only notes in this folder and its sub-folders'),
  tag: z
    .string()
    .max(200)
    .optional()
    .describe('Only notes with this tag or a tag nested below it, e.g. "project"'),
  ...dateRangeFields,
  cursor: cursorField,
});

export const outputSchema = withErrors(
  z.object({
    results: z.array(
      z.object({
        name: z.string(),
        id: noteIdField.optional(),
        uri: z.string().describe('obsidian://open link that opens the note in Obsidian'),
        title: z.string(),
        score: z
          .number()
          .describe('BM25 relevance, higher is better; 0 when the query has no words to rank by'),
        excerpt: z
          .string()
          .describe(
            'A passage with the matched words in **bold**: from the first matching line, block, section or task when there is one',
          ),
        modified: z.string(),
        ...noteFactsShape,
        matched: z
          .array(z.string())
          .describe(
            'Where the note matched: title, tags, body, file, path, property:NAME, task, line, block, section',
          ),
        lines: z
          .array(
            z.object({
              scope: z.enum(['line', 'block', 'section', 'task']),
              from: z.number().describe('First line, 1-based in the file (frontmatter lines counted)'),
              to: z.number().describe('Last line, inclusive'),
            }),
          )
          .optional()
          .describe(
            'Where line:, block:, section: and task…: matched (at most 20), to read or edit exactly there',
          ),
      }),
    ),
    total: z.number().describe('How many notes match in all'),
    ...pageFields('results'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Search notes',
      description:
        'Full-text search over titles, tags and bodies in Obsidian\'s search language, ranked by Lucene\'s BM25 (a title match weighs 3×, a tag 2×, the body 1×), with an excerpt per hit, where it matched (matched) and, for line:/block:/section:/task…: queries, the line numbers (lines). Plain words must all match, as whole words, ignoring case and accents; "exact phrase"; -word excludes; a OR b; parentheses; /regex/ (RE2, no lookaround); file:, path:, content:, tag:#project (nested tags too); line:(a b), block:(a b), section:(a b) for terms together in one line, block or section; task:x, task-todo:x, task-done:x (task:"" any task); match-case:Word; [status], [status:draft OR final], [status:null], [due:<2025-01-01]. An unknown operator is refused with the ones that exist. modified_after/modified_before and created_after/created_before keep a time range (ISO dates or times). Each hit carries its modified and created times and word count. Pages with cursor/nextCursor; total counts every match. A repeated term counts once; a query of many very common words, or a regex/line: query over too much text, can be refused as too_large (narrow it with words, path: or folder). Use read_note to open a hit (lines tell where); list_tasks for tasks across the vault; query_notes to filter and sort by properties.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Search notes', ...readOnlyTool },
    },
    (args, ctx) =>
      runReadTool(ctx, name, async (work) => {
        const found = await access.search(
          session,
          {
            query: args.query,
            ...(args.max_results === undefined ? {} : { maxResults: args.max_results }),
            ...(args.folder === undefined ? {} : { folder: args.folder }),
            ...(args.tag === undefined ? {} : { tag: args.tag }),
            ...dateArgs(args),
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
          },
          work,
        );
        const head =
          found.total === 0
            ? `No notes match ${JSON.stringify(args.query)}.`
            : `${found.total} note${found.total === 1 ? '' : 's'} match ${JSON.stringify(args.query)}; ${args.cursor === undefined ? 'the best' : 'the next'} ${found.results.length}:`;
        const lines = found.results.map((r, i) => {
          const at = r.lines?.map((l) =>
            l.from === l.to ? `${l.scope} ${l.from}` : `${l.scope} ${l.from}-${l.to}`,
          );
          const where = `matched in ${r.matched.join(', ') || 'the note'}${at ? `; lines: ${at.join(', ')}` : ''}`;
          return `${i + 1}. ${r.name} — ${r.title} (score ${r.score}; ${where})\n   ${r.excerpt}`;
        });
        return toolResult([head, ...lines].join('\n') + moreText(found, 'results'), { ...found }, [
          'results',
        ]);
      }),
  );
}
