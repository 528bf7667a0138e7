/**
 * @module
 * create_note: a new note; never overwrites.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { scopeGuardFields, WriteShape, writeOutput } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { describeWrite } from './write-text.js';

export const name = 'create_note';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Path of the new note, e.g. "inbox/idea" (the note ending, .md or .html in an HTML vault, is added); omit to derive it from the title',
    ),
  title: z
    .string()
    .max(1000)
    .optional()
    .describe(
      'Title; names the note when name is omitted, and is stored as the title property when it differs from the file name',
    ),
  content: z
    .string()
    .optional()
    .describe(
      'The note text in Markdown (frontmatter allowed; "" for an empty note). HTML is accepted, sanitized and converted to Markdown. Required unless template is given; with a template it follows the template\'s text',
    ),
  tags: z
    .array(z.string().max(200))
    .max(100)
    .optional()
    .describe('Tags to add to the frontmatter tags list, without #'),
  template: z
    .string()
    .max(4096)
    .optional()
    .describe(
      "A template note to start from: its name in the vault's templates folder (Obsidian's Templates setting), or any note name or path. {{title}}, {{date}}, {{time}}, {{date:FORMAT}} and {{time:FORMAT}} are filled in as Obsidian does",
    ),
});

export const outputSchema = writeOutput(WriteShape);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Create a note',
      description:
        'Creates a new note and fails with already_exists if one exists at that name (also in another letter case). Give a name (a path like "projects/plan"), or only a title: the name is then the title without \\ / : * ? " < > | # ^ [ ], with " 2", " 3"… added when taken. With template, the note starts as that template note with its date, time and title variables filled in (as Obsidian\'s Templates plugin does), and content follows it. For daily notes use get_daily_note; to change an existing note use update_note or edit_note. The vault owner\'s policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner\'s approval: the result says staged: true and the note is unchanged).',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Create a note',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'create_note', async () => {
        const result = await access.createNote(scoped(session, args), args);
        return toolResult(describeWrite('Created', result), { ...result });
      }),
  );
}
