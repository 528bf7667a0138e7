/**
 * @module
 * search_notes: ranked full-text search with excerpts (SPEC 2.3).
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'search_notes';

export const inputSchema = z.object({
  query: z
    .string()
    .min(1)
    .max(2000)
    .describe(
      'Words that must all appear (AND); "exact phrase"; -word to exclude; OR between alternatives; (parentheses); tag:#name (nested tags included); path:text; file:text',
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
});

export const outputSchema = withErrors(
  z.object({
    results: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        score: z
          .number()
          .describe('BM25 relevance, higher is better; 0 when the query has no words to rank by'),
        excerpt: z.string().describe('A passage with the matched words in **bold**'),
        modified: z.string(),
      }),
    ),
    total: z.number().describe('How many notes match in all'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Search notes',
      description:
        'Full-text search over titles, tags and bodies, ranked by BM25 (a title match weighs 3×, a tag 2×, the body 1×), with an excerpt per hit. Accents and CJK text are understood. Syntax: plain words must all match; "exact phrase"; -word excludes; a OR b; parentheses; tag:#project (and nested tags); path:folder-text; file:name-text. A repeated term counts once; a query of many very common words can be refused as too_large (the refusal names them: leave them out). Use read_note to open a hit; use list_notes to browse by date.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Search notes', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.search(session, {
          query: args.query,
          ...(args.max_results === undefined ? {} : { maxResults: args.max_results }),
          ...(args.folder === undefined ? {} : { folder: args.folder }),
          ...(args.tag === undefined ? {} : { tag: args.tag }),
        });
        const head =
          found.total === 0
            ? `No notes match ${JSON.stringify(args.query)}.`
            : `${found.total} note${found.total === 1 ? '' : 's'} match ${JSON.stringify(args.query)}; the best ${found.results.length}:`;
        const lines = found.results.map(
          (r, i) => `${i + 1}. ${r.name} — ${r.title} (score ${r.score})\n   ${r.excerpt}`,
        );
        return toolResult([head, ...lines].join('\n'), { ...found }, ['results']);
      }),
  );
}
