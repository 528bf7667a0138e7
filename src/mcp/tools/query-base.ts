/**
 * @module
 * query_base: one view of an Obsidian base answered as Obsidian answers it (SPEC 16.2): the rows
 * passing the base's and the view's filters, its columns with their display names, formulas, sort,
 * groups, limit and summaries, a page of rows at a time.
 */
import * as z from 'zod';
import type { Cell, Column, ViewGroup } from '../../bases/view.js';
import { withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';
import { workFor } from '../work.js';

export const name = 'query_base';

const DEFAULT_LIMIT = 100;

export const inputSchema = z
  .object({
    base: z
      .string()
      .min(1)
      .max(4096)
      .describe('A .base file (e.g. "Reading.base"), or a note holding a ```base block (see list_bases)'),
    block: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Which ```base block of the note (0 = the first, the default); not for .base files'),
    view: z.string().max(500).optional().describe("The view's name (default: the first view)"),
    this: z
      .string()
      .max(4096)
      .optional()
      .describe(
        'The note `this` stands for, as when the base is in the sidebar beside that note. Default: the .base file itself, or the note embedding the block',
      ),
    limit: limitField('rows', DEFAULT_LIMIT, 1000),
    cursor: cursorField,
  })
  .strict();

const cell = z
  .unknown()
  .describe(
    'The value (dates as YYYY-MM-DD or local YYYY-MM-DDTHH:mm:ss, links as [[path]]), or {error} when the formula failed on this row',
  );

export const outputSchema = withErrors(
  z.object({
    base: z.string(),
    block: z.number().optional(),
    view: z.string().describe("The view's name"),
    type: z.string().describe('table, list, cards, map, …'),
    this: z.string().nullable().describe('The file `this` stood for'),
    columns: z
      .array(
        z.object({
          id: z.string().describe('e.g. file.name, status, formula.price'),
          displayName: z.string(),
        }),
      )
      .describe("The view's order"),
    groups: z
      .array(
        z.object({
          key: z.unknown().optional().describe('The groupBy value of the group (absent without groupBy)'),
          rows: z.array(
            z.object({
              name: z.string().describe('The file path'),
              id: noteIdField.optional().describe("The note's id (absent for a file that is no note)"),
              values: z.record(z.string(), cell).describe('Column id → value'),
            }),
          ),
          summaries: z
            .record(z.string(), cell)
            .optional()
            .describe('Column id → summary over the whole group'),
        }),
      )
      .describe('The rows of this page, in their groups'),
    total: z.number().describe('Rows in the view in all (after its limit)'),
    ...pageFields('rows'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Query a base',
      description:
        "Answers one view of an Obsidian base (a .base file or a ```base block; find them with list_bases) exactly as Obsidian shows it: the files passing the base's and the view's filters, the view's columns with their display names and formula values, sorted, grouped and limited as the view says, with its summaries; a page of rows at a time (total counts them all). `this` is the base file, the note embedding the block, or the note you name. A formula that fails on a row shows {error} in that cell. Use query_notes for an ad-hoc table, search_notes for words.",
      inputSchema,
      outputSchema,
      annotations: { title: 'Query a base', ...readOnlyTool },
    },
    (args, ctx) =>
      runTool(false, async () => {
        const found = await access.queryBase(
          session,
          {
            base: args.base,
            ...(args.block === undefined ? {} : { block: args.block }),
            ...(args.view === undefined ? {} : { view: args.view }),
            ...(args.this === undefined ? {} : { this: args.this }),
            limit: args.limit ?? DEFAULT_LIMIT,
            ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
          },
          workFor(ctx),
        );
        const head = `${found.base} › ${found.view} (${found.type}): ${found.total} row${found.total === 1 ? '' : 's'}.`;
        const body = found.groups.flatMap((g) => groupText(g, found.columns, found.type));
        const groups = found.groups.map((g) => ({ ...g, rows: withIds(access, g.rows) }));
        return toolResult([head, ...body].join('\n') + moreText(found, 'rows'), { ...found, groups }, [
          'groups',
        ]);
      }),
  );
}

function groupText(g: ViewGroup, columns: readonly Column[], type: string): string[] {
  const out: string[] = [];
  if ('key' in g) out.push('', `## ${g.key === null ? '(none)' : text(g.key as Cell)}`);
  if (type === 'list') {
    for (const r of g.rows) {
      const rest = columns
        .filter((c) => c.id !== 'file.name')
        .map((c) => `${c.displayName}: ${text(r.values[c.id])}`);
      out.push(`- ${r.name}${rest.length > 0 ? ` — ${rest.join('; ')}` : ''}`);
    }
  } else {
    out.push(
      `| ${columns.map((c) => esc(c.displayName)).join(' | ')} |`,
      `|${columns.map(() => '---').join('|')}|`,
    );
    for (const r of g.rows) out.push(`| ${columns.map((c) => esc(text(r.values[c.id]))).join(' | ')} |`);
  }
  if (g.summaries !== undefined) {
    out.push(
      `Summaries: ${Object.entries(g.summaries)
        .map(([id, v]) => `${id} = ${text(v)}`)
        .join('; ')}`,
    );
  }
  return out;
}

function text(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && !Array.isArray(v) && 'error' in v && Object.keys(v).length === 1)
    return `⚠ ${String(v.error)}`;
  if (Array.isArray(v)) return v.map((x) => text(x as Cell)).join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function esc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
