/**
 * @module
 * move_notes: several moves in one call, each reported on its own; not a transaction.
 */
import * as z from 'zod';
import { nowResolvedWithIds, withId } from '../note-ids.js';
import { toolResult } from '../result.js';
import { etagField, noteIdField, noteRefArguments, scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runLongTool } from '../work.js';
import { dryRunField, linkFields, updateLinksField } from './move-shape.js';

export const name = 'move_notes';

export const inputSchema = z.object({
  ...scopeGuardFields,
  items: z
    .array(
      z.object({
        ...noteRefArguments,
        new_name: z.string().min(1).max(4096).describe('The new vault-relative path (.md optional)'),
        expected_etag: etagField.optional(),
      }),
    )
    .min(1)
    .max(200)
    .describe('The moves, done in this order (at most 200)'),
  update_links: updateLinksField,
  dry_run: dryRunField,
});

const ItemShape = z.union([
  z.object({
    name: z.string(),
    newName: z.string(),
    id: noteIdField.optional().describe("The note's id: the same before and after the move"),
    etag: z.string().optional(),
    ...linkFields,
  }),
  z.object({
    name: z.string().optional().describe('The note; absent only when the item gave an id that names no note'),
    id: noteIdField.optional().describe('The id the item gave'),
    committed: z.literal(false),
    code: z.string().describe('Why this item was refused (an error code)'),
    message: z.string(),
  }),
]);

export const outputSchema = withErrors(
  z.object({
    results: z.array(ItemShape).describe('One result per item, in order; committed says whether it was done'),
    group: z
      .string()
      .optional()
      .describe('Journal group shared by every change of the batch (when it made any)'),
    committedCount: z.number(),
    refusedCount: z.number(),
    transaction: z.literal(false).describe('Items done before a refusal stay done'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Move several notes',
      description:
        'Moves or renames several notes in one call, exactly as move_note does each (links rewritten unless update_links: false), one after the other. Not a transaction: an item that is refused (not_found, already_exists, read_only, conflict…) is reported in its own result with committed: false and the others still happen; nothing is rolled back. All changes share one journal group, which the owner can undo as a whole. With dry_run: true each item is planned against the vault as it is now. Rewritten notes get new etags: read them again before you edit them.',
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Move several notes',
        readOnlyHint: false,
        // A move takes the note away from its old path and rewrites links inside other notes.
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runLongTool(ctx, name, async (work) => {
        const r = await access.moveNotes(
          scoped(session, args),
          {
            items: args.items.map((i) => ({
              // An id is resolved when the item's turn comes: one naming no note refuses that item alone.
              ...(i.name === undefined ? {} : { name: i.name }),
              ...(i.id === undefined ? {} : { id: i.id }),
              newName: i.new_name,
              ...(i.expected_etag === undefined ? {} : { expectedEtag: i.expected_etag }),
            })),
            ...(args.update_links === undefined ? {} : { updateLinks: args.update_links }),
            ...(args.dry_run === undefined ? {} : { dryRun: args.dry_run }),
          },
          work,
        );
        const lines = r.results.map((item) =>
          'code' in item
            ? `- ${item.name ?? item.id}: refused (${item.code}) ${item.message}`
            : `- ${item.name} → ${item.newName}: ${item.dryRun ? 'would move' : 'moved'}, ${item.changesTotal} link(s) ${item.dryRun ? 'would change' : 'changed'}${item.notUpdated.length > 0 ? `, ${item.notUpdated.length} note(s) not updated` : ''}${item.staged.length > 0 ? `, ${item.staged.length} rewrite(s) staged` : ''}`,
        );
        const head = `${r.committedCount} of ${r.results.length} moved, ${r.refusedCount} refused (not a transaction: what was done stays done${r.group === undefined ? '' : `; journal group ${r.group}`}).`;
        // Which items moved a note away from each name, in order: a note named as it was before an
        // item's move is followed through the moves from that item on, one lookup a move it went
        // through (walking every later item for each link was items² × links).
        const movedFrom = new Map<string, number[]>();
        r.results.forEach((later, j) => {
          if ('code' in later || later.dryRun) return;
          const list = movedFrom.get(later.name) ?? [];
          list.push(j);
          movedFrom.set(later.name, list);
        });
        return toolResult(
          [head, ...lines].join('\n'),
          {
            ...r,
            results: r.results.map((item, i) => {
              if ('code' in item) return item;
              const at = (path: string) => {
                let now = path;
                for (let from = i; ; ) {
                  const next = movedFrom.get(now)?.find((j) => j >= from);
                  if (next === undefined) return now;
                  now = (r.results[next] as { newName: string }).newName;
                  from = next + 1;
                }
              };
              return {
                ...withId(access, item, item.dryRun ? 'name' : 'newName'),
                nowResolved: nowResolvedWithIds(access, item.nowResolved, at),
              };
            }),
            transaction: false,
          },
          ['results'],
        );
      }),
  );
}
