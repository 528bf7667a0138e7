/**
 * @module
 * update_task: tick, untick, re-status, re-word or re-date one task that list_tasks reported
 * (SPEC 13.2), leaving every other byte of its note as it was.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import {
  etagField,
  noteIdArgument,
  noteName,
  scopeGuardFields,
  WriteShape,
  writeOutput,
} from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { describeWrite } from './write-text.js';

export const name = 'update_task';

export const inputSchema = z.object({
  name: noteName.describe('The note holding the task: the note list_tasks gave').optional(),
  id: noteIdArgument.optional(),
  line: z
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .describe('The 1-based line of the task, as list_tasks gave it'),
  expected_etag: etagField.describe(
    "The note's etag, as list_tasks (or read_note) gave it; the change is refused with conflict if the note changed since",
  ),
  done: z
    .boolean()
    .optional()
    .describe('true ticks the task ("[x]"), false unticks it ("[ ]"); not with status'),
  status: z
    .string()
    .max(8)
    .optional()
    .describe(
      'One character for between the brackets, such as "x", " ", "-" (cancelled) or "/" (in progress); not with done',
    ),
  text: z
    .string()
    .max(100_000)
    .optional()
    .describe(
      'New text for the task: everything after the checkbox, as list_tasks reports it (include the due date and tags to keep them, or pass due)',
    ),
  due: z
    .string()
    .max(40)
    .nullable()
    .optional()
    .describe(
      'Due date YYYY-MM-DD, written as the line already writes it ("📅 date" or "[due:: date]"; new ones as "📅 date"); null removes it',
    ),
  ...scopeGuardFields,
});

export const outputSchema = writeOutput(
  WriteShape.extend({
    task: z
      .object({
        line: z.number(),
        status: z.string().describe('The character between the brackets'),
        done: z.boolean(),
        text: z.string(),
        due: z.string().nullable(),
      })
      .optional()
      .describe('The task as it reads now'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Update a task',
      description:
        "Changes one checkbox task that list_tasks reported, by its note, line and the note's etag (list_tasks gives all three): done ticks or unticks it, status sets another character between the brackets, text replaces what follows the checkbox, due sets (YYYY-MM-DD) or removes (null) its due date in the form the line already uses. Only that line changes. If the note changed since, or the line is no longer a task, nothing is written and the conflict error gives the current text and etag. Use edit_note for anything else in a note. The vault owner's policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner's approval: the result says staged: true and the note is unchanged).",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Update a task',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'update_task', async () => {
        const result = await access.updateTask(scoped(session, args), {
          name: access.noteName(session, args),
          line: args.line,
          expectedEtag: args.expected_etag,
          ...(args.done === undefined ? {} : { done: args.done }),
          ...(args.status === undefined ? {} : { status: args.status }),
          ...(args.text === undefined ? {} : { text: args.text }),
          ...(args.due === undefined ? {} : { due: args.due }),
        });
        let text = describeWrite('Updated the task in', result);
        if (!('staged' in result) && result.task) {
          const t = result.task;
          text += `\nLine ${t.line} now reads: - [${t.status}] ${t.text}`;
        }
        return toolResult(text, { ...result });
      }),
  );
}
