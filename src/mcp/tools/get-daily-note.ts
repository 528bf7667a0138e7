/**
 * @module
 * get_daily_note: the daily note of a day, where Obsidian's Daily notes plugin keeps it, created
 * from its template when asked (SPEC 13.3).
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { ErrorShape, StagedShape, scopeGuardFields } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { NOTE_DERIVED, NOTE_SHOWN, NoteShape, noteData, noteText } from './read-note.js';
import { describeStaged } from './write-text.js';

export const name = 'get_daily_note';

export const inputSchema = z.object({
  date: z
    .string()
    .max(40)
    .optional()
    .describe(
      'The day: YYYY-MM-DD, or "today" (the default; the server\'s local date), "yesterday" or "tomorrow"',
    ),
  create: z
    .boolean()
    .optional()
    .describe("true: create the note from the vault's daily-note template when it does not exist yet"),
  ...scopeGuardFields,
});

const day = z.string().describe('The day, YYYY-MM-DD');

export const outputSchema = z.union([
  NoteShape.extend({
    date: day,
    exists: z.literal(true),
    created: z.boolean().describe('true when this call created the note'),
    templateMissing: z
      .string()
      .optional()
      .describe(
        'The daily-note template the settings name, when it was not found (the note was created empty)',
      ),
  }),
  z.object({
    date: day,
    name: z.string().describe('Where the daily note of that day goes'),
    exists: z.literal(false),
    created: z.literal(false),
  }),
  StagedShape,
  ErrorShape,
]);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get the daily note',
      description:
        "Reads the daily note of a day (default today, the server's local date) from where the vault's Obsidian Daily notes settings keep it (their folder and date format; the vault root and YYYY-MM-DD by default), like read_note. With create: true a missing one is created from the daily-note template (its {{date}}, {{time}}, {{title}} filled in); without it, a missing note is reported with exists: false and the name it would have. Then add to it with edit_note (append_to_section, prepend) using the etag given. Creating follows the owner's policy like create_note (read_only, or staged for review).",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Get the daily note',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'get_daily_note', async () => {
        const daily = await access.getDailyNote(scoped(session, args), {
          ...(args.date === undefined ? {} : { date: args.date }),
          ...(args.create === undefined ? {} : { create: args.create }),
        });
        if ('staged' in daily) return toolResult(describeStaged(daily), { ...daily });
        if (!daily.exists) {
          return toolResult(
            `There is no daily note for ${daily.date} yet; it would be ${daily.name}. Call again with create: true to create it from the daily-note template.`,
            { ...daily },
          );
        }
        const head = daily.created
          ? `Created the daily note for ${daily.date}${daily.templateMissing === undefined ? '' : ` (empty: the daily-note template "${daily.templateMissing}" named in the vault's settings was not found)`}.`
          : `The daily note for ${daily.date}:`;
        const data = { date: daily.date, exists: true, created: daily.created, ...noteData(daily.note) };
        const withTemplate =
          daily.templateMissing === undefined ? data : { ...data, templateMissing: daily.templateMissing };
        return toolResult(`${head}\n\n${noteText(daily.note)}`, withTemplate, NOTE_SHOWN, [], NOTE_DERIVED);
      }),
  );
}
