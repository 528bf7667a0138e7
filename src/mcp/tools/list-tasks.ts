/**
 * @module
 * list_tasks: `- [ ]` / `- [x]` tasks across the vault, soonest due first (SPEC 2, SPEC 10,
 * OBSIDIAN.md §4).
 */
import * as z from 'zod';
import { withIds } from '../note-ids.js';
import { cursorField, limitField, moreText, pageFields } from '../paging.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_tasks';

const DEFAULT_LIMIT = 50;

const day = (what: string) =>
  z
    .string()
    .max(40)
    .optional()
    .describe(`${what}, written YYYY-MM-DD; inclusive; undated tasks are left out`);

// Strict: a misspelt filter is refused, never dropped to answer a wider question.
export const inputSchema = z
  .object({
    status: z
      .string()
      .max(20)
      .optional()
      .describe(
        '"open" (default: status is a space), "done" (any other status character, as Obsidian counts it), "all", or one status character such as "x", "-" or "/"',
      ),
    folder: z.string().max(4096).optional().describe('Only notes in this folder and its sub-folders'),
    tag: z
      .string()
      .max(200)
      .optional()
      .describe('Only notes carrying this tag or one nested below it, e.g. "project"'),
    due_from: day('Due on or after this day'),
    due_to: day('Due on or before this day'),
    overdue: z
      .boolean()
      .optional()
      .describe("true: only open tasks due before today (the server's local date)"),
    no_due: z
      .boolean()
      .optional()
      .describe('true: only tasks without a due date (not combinable with due_from, due_to, overdue)'),
    text: z.string().max(1000).optional().describe('Only tasks whose text contains this, case-insensitively'),
    limit: limitField('tasks', DEFAULT_LIMIT, 500),
    cursor: cursorField,
  })
  .strict();

export const outputSchema = withErrors(
  z.object({
    tasks: z
      .array(
        z.object({
          note: z.string().describe('The note holding the task'),
          noteId: noteIdField.optional().describe("The note's id: pass it as id to update_task"),
          etag: z.string().describe("The note's etag: pass it to update_task as expected_etag"),
          line: z.number().describe('1-based line of the task in the note'),
          text: z.string().describe('The task text after the checkbox, due date included'),
          done: z.boolean().describe('true for any status but a space (Obsidian core)'),
          status: z.string().describe('The character between the brackets'),
          due: z
            .string()
            .nullable()
            .describe('YYYY-MM-DD from "📅 date" (Tasks plugin) or "[due:: date]" (Dataview), else null'),
        }),
      )
      .describe('Soonest due first, undated last, then by note and line'),
    today: z.string().describe("The day overdue compares with: the server's local date, YYYY-MM-DD"),
    ...pageFields('tasks'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List tasks',
      description:
        'Lists checkbox tasks ("- [ ] …", "* [x] …", "1. [ ] …") across the vault with their note and line, soonest due first and undated last. Open tasks by default; status "done" means any character but a space in the brackets, as Obsidian counts it. Due dates are read from "📅 2026-05-01" (Tasks plugin) and "[due:: 2026-05-01]" (Dataview). Filters combine: folder, tag, due_from/due_to, overdue (before today, the server\'s local date), no_due, text. A page at a time: more and nextCursor say when more follow. Use it for to-dos and deadlines; to tick, re-word or re-date a task, pass its note, line and etag to update_task.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List tasks', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const limit = args.limit ?? DEFAULT_LIMIT;
        const found = access.listTasks(session, { ...definedOnly(args), limit });
        const count = found.tasks.length;
        const head =
          count === 0
            ? `No${args.cursor === undefined ? '' : ' more'} tasks match.`
            : `${count} task${count === 1 ? '' : 's'}, soonest due first (today is ${found.today}):`;
        const lines = found.tasks.map(
          (t) => `- [${t.status}] ${t.text} — ${t.note}:${t.line}${t.due === null ? '' : ` (due ${t.due})`}`,
        );
        return toolResult(
          [head, ...lines].join('\n') + moreText(found, 'tasks'),
          { ...found, tasks: withIds(access, found.tasks, 'note') },
          ['tasks'],
        );
      }),
  );
}

/** The arguments given, without the keys left out (exactOptionalPropertyTypes). */
function definedOnly<T extends Record<string, unknown>>(
  args: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
