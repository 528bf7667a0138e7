/**
 * @module
 * query_notes: a table view over the notes' properties, like an Obsidian Bases table (SPEC 2.4).
 * The schema below shows the grammar; the gate's engine is the one authority on it and refuses,
 * with `validation_error` naming the place, whatever it cannot understand.
 */
import * as z from 'zod';
import { withIds } from '../note-ids.js';
import { cursorField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'query_notes';

const PROPERTY =
  'A frontmatter key (case-insensitive), or a file property: $name (the note path), $folder, $modified, $created (ISO times), $tags (frontmatter and inline tags). Write note.KEY for a frontmatter key that starts with $ or is called name';

const OPS_TEXT = [
  'equals / not_equals: the whole value; text case-insensitively; a number equals the same number written as text; dates equal on the same day; a list equals only a list with the same items in order (use contains for membership).',
  'contains / not_contains: a list holds an equal item (for tags, the tag or one nested below it); text holds the substring.',
  'is_empty / is_not_empty: take no value; empty = missing, null, "", [] or {}.',
  'gt, lt, gte, lte: numbers (text holding a number counts) or dates; before, after: dates only. A date is "YYYY-MM-DD", "YYYY-MM-DDTHH:mm[:ss]" (UTC unless a zone is given) or "today" (the server\'s local date); a plain date compares by day.',
  'has_tag: {op: "has_tag", value: "project"}, no property; the tag or one nested below it.',
  'has_link: {op: "has_link", value: "projects/Plan"}, no property; notes with a link resolving to that note (a unique bare name works; several matches are refused as ambiguous), or, when no file has that name, notes whose unresolved links name it.',
  'Values of another kind never match (a number compared with text, a missing property), except that not_equals and not_contains match notes without the property.',
].join(' ');

// Loose objects: keys the schema does not list reach the engine, which refuses them by name
// instead of the schema silently dropping them (a dropped condition would widen the answer).
const filterItem = z
  .object({
    property: z.string().optional().describe(`${PROPERTY}. Not used by has_tag and has_link.`),
    op: z
      .string()
      .optional()
      .describe(
        'equals, not_equals, contains, not_contains, is_empty, is_not_empty, gt, lt, gte, lte, before, after, has_tag, has_link',
      ),
    value: z
      .unknown()
      .optional()
      .describe(
        'A string, number, true/false, or (for equals/not_equals) a list; none for is_empty/is_not_empty',
      ),
    any: z
      .array(z.unknown())
      .optional()
      .describe(
        'An OR group instead of a condition: {any: [filters]} holds when one of them holds; groups nest',
      ),
    all: z
      .array(z.unknown())
      .optional()
      .describe('An AND group, for use inside an OR group: {all: [filters]} holds when every one holds'),
  })
  .loose();

// Strict: a misspelt argument (filter for filters) is refused, never dropped.
export const inputSchema = z
  .object({
    folder: z.string().max(4096).optional().describe('Only notes in this folder and its sub-folders'),
    tag: z
      .string()
      .max(200)
      .optional()
      .describe('Only notes carrying this tag or one nested below it, e.g. "project"'),
    filters: z
      .array(filterItem)
      .max(100)
      .optional()
      .describe(
        `Conditions that must all hold (AND). Each is {property, op, value}, or {any: [conditions]} for OR. ${OPS_TEXT} Example: [{"property": "status", "op": "equals", "value": "active"}, {"any": [{"property": "due", "op": "before", "value": "today"}, {"op": "has_tag", "value": "urgent"}]}].`,
      ),
    sort: z
      .array(
        z
          .object({
            property: z.string().describe(PROPERTY),
            direction: z.string().optional().describe('"asc" (default) or "desc"'),
          })
          .loose(),
      )
      .max(10)
      .optional()
      .describe(
        'Sort keys, the first deciding; notes without a value come last either way; ties by name. Default: by name',
      ),
    columns: z
      .array(z.string().max(500))
      .max(50)
      .optional()
      .describe(
        'Properties each row carries besides name, as written here (null when a note lacks one), e.g. ["status", "due", "$modified"]',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe('How many rows per page (default 50, at most 500); total counts every match'),
    where: z
      .union([z.string().max(20_000), z.record(z.string(), z.unknown())])
      .optional()
      .describe(
        'One Obsidian Bases filter, evaluated as a base evaluates it and ANDed with the rest: an expression string such as \'file.hasTag("book") && price > 10\' or \'due < today() + "7d"\', or {and|or|not: [filters]}. See list_bases/query_base for saved bases',
      ),
    cursor: cursorField,
  })
  .strict();

export const outputSchema = withErrors(
  z.object({
    rows: z
      .array(
        z
          .object({
            name: z.string().describe('The note path'),
            // Not `id`: a column may be a frontmatter property called id; no column is called `$id`.
            $id: noteIdField
              .optional()
              .describe(
                "The note's id (pass it as id to any tool that takes name; $ as on file properties, so no column meets it)",
              ),
          })
          .loose()
          .describe('The note, its $id, and each requested column, keyed as requested'),
      )
      .describe('In sort order'),
    total: z.number().describe('How many notes match scope and filters, in all pages'),
    ...pageFields('rows'),
    today: z.string().describe('The day "today" stood for: the server\'s local date, YYYY-MM-DD'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Query notes by properties',
      description:
        'Answers like a table view (Obsidian Bases): the notes whose frontmatter properties match conditions, scoped by folder and/or tag, sorted, with chosen properties as columns, and the total count, a page at a time (nextCursor reads on). Example: active projects due this month, by due date, showing status and owner. Conditions compare values (equals, contains, gt, before, is_empty…), and has_tag / has_link test tags and links. A request it cannot understand is refused with validation_error saying where, never answered more widely. Use it for structured questions about metadata; use search_notes for words in the text, get_properties for one note, list_tasks for checkbox tasks.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Query notes by properties', ...readOnlyTool },
    },
    (args) =>
      runTool(false, async () => {
        const found = await access.queryNotes(session, args);
        const columns = args.columns ?? [];
        const shown = found.rows.length;
        const head =
          found.total === 0
            ? 'No notes match.'
            : shown < found.total
              ? `${found.total} notes match; ${shown} of them here:`
              : found.total === 1
                ? '1 note matches:'
                : `${found.total} notes match:`;
        const body =
          shown === 0
            ? []
            : columns.length === 0
              ? found.rows.map((r) => `- ${r.name}`)
              : table(found.rows, columns);
        return toolResult(
          [head, ...body].join('\n') + moreText(found, 'rows'),
          { ...found, rows: withIds(access, found.rows, 'name', { field: '$id' }) },
          ['rows'],
        );
      }),
  );
}

/** The rows as a Markdown table: name, then the columns in the order asked. */
function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string[] {
  const header = ['name', ...columns];
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${[row.name, ...columns.map((c) => row[c])].map(cell).join(' | ')} |`),
  ];
}

function cell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : Array.isArray(value) && value.every((v) => typeof v === 'string')
          ? value.join(', ')
          : JSON.stringify(value);
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
