/**
 * @module
 * delete_notes: several deletions to the trash in one call, each reported on its own.
 */
import * as z from 'zod';
import { toolResult } from '../result.js';
import { etagField, noteIdField, noteRefArguments, scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runLongTool } from '../work.js';

export const name = 'delete_notes';

export const inputSchema = z.object({
  ...scopeGuardFields,
  items: z
    .array(z.object({ ...noteRefArguments, expected_etag: etagField.optional() }))
    .min(1)
    .max(200)
    .describe('The notes to delete, in this order (at most 200)'),
});

const ItemShape = z.object({
  name: z.string().optional().describe('The note; absent only when the item gave an id that names no note'),
  id: noteIdField.optional().describe("The note's id (it names nothing once the note is gone)"),
  committed: z.boolean().describe('true when this note went to the trash'),
  trashId: z.string().optional().describe('The deletion id for restore_note'),
  staged: z.literal(true).optional().describe("The deletion waits for the owner's review"),
  pendingId: z.string().optional(),
  code: z.string().optional().describe('Why this item was refused (an error code)'),
  message: z.string().optional(),
});

export const outputSchema = withErrors(
  z.object({
    results: z.array(ItemShape).describe('One result per item, in order'),
    group: z
      .string()
      .optional()
      .describe('Journal group shared by every deletion of the batch (when it made any)'),
    committedCount: z.number(),
    refusedCount: z.number(),
    transaction: z.literal(false).describe('Items done before a refusal stay done'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Delete several notes (to the trash)',
      description:
        "Moves several notes to the trash, as delete_note does each; restore_note brings one back. Not a transaction: a refused item (not_found, read_only, conflict on expected_etag…) gets its own result with committed: false, and the others are still deleted. In staged folders a deletion waits for the owner's review (staged: true). All deletions share one journal group.",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Delete several notes (to the trash)',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runLongTool(ctx, name, async (work) => {
        const r = await access.deleteNotes(
          scoped(session, args),
          args.items.map((i) => ({
            // An id is resolved when the item's turn comes: one naming no note refuses that item alone.
            ...(i.name === undefined ? {} : { name: i.name }),
            ...(i.id === undefined ? {} : { id: i.id }),
            ...(i.expected_etag === undefined ? {} : { expectedEtag: i.expected_etag }),
          })),
          work,
        );
        const lines = r.results.map((item) =>
          'code' in item
            ? `- ${item.name ?? item.id}: refused (${item.code}) ${item.message}`
            : item.staged
              ? `- ${item.name}: staged for the owner's review, not deleted (${item.pendingId})`
              : `- ${item.name}: moved to the trash (deletion id ${item.trashId})`,
        );
        const head = `${r.committedCount} of ${r.results.length} deleted, ${r.refusedCount} refused (not a transaction: what was done stays done).`;
        return toolResult([head, ...lines].join('\n'), { ...r, transaction: false }, ['results']);
      }),
  );
}
