/**
 * @module
 * list_trash: deleted notes that can still be restored.
 */
import * as z from 'zod';
import { runTool, toolResult } from '../result.js';
import { readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'list_trash';

export const inputSchema = z.object({});

export const outputSchema = withErrors(
  z.object({
    items: z.array(
      z.object({
        id: z.string().describe('Deletion id, for restore_note'),
        name: z.string().describe('The path the note had'),
        deletedAt: z.string(),
      }),
    ),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'List the trash',
      description:
        'Lists deleted notes that can be restored, newest deletion first, each with its original path and deletion id. Use restore_note to bring one back.',
      inputSchema,
      outputSchema,
      annotations: { title: 'List the trash', ...readOnlyTool },
    },
    () =>
      runTool(false, () => {
        const trash = access.listTrash(session);
        const lines = trash.items.map((t) => `- ${t.name} (deleted ${t.deletedAt}, id ${t.id})`);
        const head =
          trash.items.length === 0 ? 'The trash is empty.' : `${trash.items.length} deleted notes:`;
        return toolResult([head, ...lines].join('\n'), { ...trash }, ['items']);
      }),
  );
}
