/**
 * @module
 * Schemas and text shared by the tools that move notes and folders (move_note, move_notes,
 * move_folder): how link changes, skipped notes and pending rewrites are shown to the model.
 */
import * as z from 'zod';
import type { LinkChange, NotUpdated } from '../../access/moves/apply.js';
import type { NowResolved } from '../../access/moves/plan.js';
import { noteIdField } from '../schemas.js';

export const updateLinksField = z
  .boolean()
  .optional()
  .describe('Rewrite the links that point at what moves (default true); false moves without touching links');

export const dryRunField = z
  .boolean()
  .optional()
  .describe('true: change nothing, return the plan (every link that would change, before and after)');

export const LinkChangeShape = z.object({
  note: z.string().describe('The note holding the link (its name before the move)'),
  kind: z
    .enum(['wikilink', 'markdown', 'frontmatter', 'html'])
    .describe('The kind of link; html is an <a href> or <img src> of an HTML vault'),
  line: z.number().describe('1-based line of the link'),
  before: z.string().describe('The link as written before'),
  after: z.string().describe('The link as written after'),
});

const NotUpdatedShape = z.object({
  name: z.string(),
  reason: z.enum(['read_only', 'changed', 'not_supported', 'too_large', 'staging_full']),
  message: z.string(),
});

const NowResolvedShape = z.object({
  note: z.string(),
  noteId: noteIdField.optional().describe('The id of the note holding the link'),
  line: z.number(),
  raw: z.string(),
  target: z.string().describe('What the link finds now'),
  targetId: noteIdField.optional().describe('The id of the note the link finds now'),
});

/** Fields every move result carries about links. */
export const linkFields = {
  dryRun: z.boolean().describe('true: this is a plan; nothing was changed'),
  committed: z.boolean().describe('true when the move was made'),
  group: z
    .string()
    .optional()
    .describe('Journal group of the move and its rewrites; the owner can undo all of it at once'),
  changes: z.array(LinkChangeShape).describe('Link changes, at most 1000 listed'),
  changesTotal: z.number().describe('How many links change in all'),
  updated: z.array(z.string()).describe('Notes whose links were (dry run: would be) rewritten'),
  staged: z
    .array(z.object({ note: z.string(), pendingId: z.string() }))
    .describe("Rewrites of notes in staged folders: waiting for the owner's review, not applied"),
  notUpdated: z.array(NotUpdatedShape).describe('Notes whose links were NOT rewritten, and why'),
  nowResolved: z
    .array(NowResolvedShape)
    .describe('Links that resolved to nothing before and find a note now (left as written)'),
};

export const MoveNoteShape = z.object({
  name: z.string().describe('The old name'),
  newName: z.string().describe('The new name'),
  id: noteIdField.optional().describe("The note's id: the same before and after the move"),
  etag: z.string().optional().describe('The moved note’s etag at its new name'),
  ...linkFields,
});

/** A result's report on links, in words. */
export function describeLinks(r: {
  dryRun: boolean;
  changesTotal: number;
  updated: readonly string[];
  staged: readonly { note: string; pendingId: string }[];
  notUpdated: readonly NotUpdated[];
  nowResolved: readonly NowResolved[];
  changes: readonly LinkChange[];
}): string {
  const lines: string[] = [];
  const would = r.dryRun ? 'would change' : 'changed';
  lines.push(
    r.changesTotal === 0
      ? 'No link needed to change.'
      : `${r.changesTotal} link(s) ${would} in ${r.updated.length + r.staged.length} note(s):`,
  );
  for (const c of r.changes) lines.push(`- ${c.note} line ${c.line}: ${c.before} → ${c.after}`);
  if (r.changes.length < r.changesTotal) lines.push(`- … ${r.changesTotal - r.changes.length} more`);
  for (const s of r.staged)
    lines.push(`Staged for review, not applied: the rewrite of ${s.note} (${s.pendingId}).`);
  for (const n of r.notUpdated) lines.push(`Not updated: ${n.name} — ${n.message}.`);
  for (const p of r.nowResolved) {
    lines.push(
      `Note: ${p.raw} in ${p.note} line ${p.line} resolved to nothing before and now finds ${p.target} (left as written).`,
    );
  }
  if (!r.dryRun && r.updated.length > 0) {
    lines.push('The rewritten notes have new etags: read them again before you edit them.');
  }
  return lines.join('\n');
}
