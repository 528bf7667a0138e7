/**
 * @module
 * create_folder: a folder, with its parents; nothing happens when it exists.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';

export const name = 'create_folder';

export const inputSchema = z.object({
  ...scopeGuardFields,
  folder: z.string().min(1).max(4096).describe('Vault-relative folder path, e.g. "projects/2025/q1"'),
});

export const outputSchema = withErrors(
  z.object({
    folder: z.string().describe('The folder'),
    created: z.boolean().describe('false when it already existed'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Create a folder',
      description:
        'Creates a folder and any missing parents. Calling it for a folder that exists changes nothing (created: false). Not needed before create_note or move_note, which create folders themselves; use it to lay out an empty structure.',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Create a folder',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'create_folder', () => {
        const r = access.createFolder(scoped(session, args), { folder: args.folder });
        return toolResult(
          r.created ? `Created the folder ${r.folder}.` : `The folder ${r.folder} already exists.`,
          {
            ...r,
          },
        );
      }),
  );
}
