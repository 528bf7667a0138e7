/**
 * @module
 * move_note: move or rename a note, keeping every link to it working.
 */
import * as z from 'zod';
import { nowResolvedWithIds, withId } from '../note-ids.js';
import { toolResult } from '../result.js';
import { etagField, noteRefArguments, scopeGuardFields, withErrors } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runLongTool } from '../work.js';
import { describeLinks, dryRunField, MoveNoteShape, updateLinksField } from './move-shape.js';

export const name = 'move_note';

export const inputSchema = z.object({
  ...scopeGuardFields,
  ...noteRefArguments,
  new_name: z
    .string()
    .min(1)
    .max(4096)
    .describe('The new vault-relative path, e.g. "archive/2024/idea" (.md optional); folders are created'),
  update_links: updateLinksField,
  dry_run: dryRunField,
  expected_etag: etagField.optional(),
});

export const outputSchema = withErrors(MoveNoteShape);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Move or rename a note',
      description:
        "Moves or renames a note (missing folders are created) and rewrites every link to it in other notes — wikilinks, embeds, Markdown links and frontmatter links — keeping headings, block ids, display text and each link's style; a bare [[Name]] stays bare while it still finds the note, else it gets the shortest path that does. Links elsewhere that the new name would capture are qualified so that they keep their target. Use dry_run: true first to see every link that would change. Links in read-only notes are not rewritten (listed in notUpdated); in staged folders the rewrites wait for the owner's review, and moves into, out of or inside a staged folder are refused (staged). A destination that exists (in any letter case) is already_exists. The rewritten notes get new etags, so a write with an etag you read before gets conflict: read them again. Use move_notes for several notes and move_folder for a whole folder.",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Move or rename a note',
        readOnlyHint: false,
        // A move takes the note away from its old path and rewrites links inside other notes.
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runLongTool(ctx, name, async (work) => {
        const r = await access.moveNote(
          scoped(session, args),
          {
            name: access.noteName(session, args),
            newName: args.new_name,
            ...(args.update_links === undefined ? {} : { updateLinks: args.update_links }),
            ...(args.dry_run === undefined ? {} : { dryRun: args.dry_run }),
            ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
          },
          { work },
        );
        const head = r.dryRun
          ? `Dry run: ${r.name} would move to ${r.newName}. Nothing was changed.`
          : `Moved ${r.name} to ${r.newName} (etag ${r.etag}; journal group ${r.group}).`;
        return toolResult(
          `${head}\n${describeLinks(r)}`,
          {
            ...withId(access, r, r.dryRun ? 'name' : 'newName'),
            nowResolved: nowResolvedWithIds(access, r.nowResolved, (p) =>
              !r.dryRun && p === r.name ? r.newName : p,
            ),
          },
          ['changes'],
        );
      }),
  );
}
