/**
 * @module
 * A note's outline through the gate (SPEC 12.3): its structure from the stored text, and how many
 * links it has each way as agents may see them (hidden notes count nowhere).
 */
import { NotedError } from '../common/errors.js';
import { formatOf } from '../format/formats.js';
import { backlinks as backlinksOf, outgoingLinkCount } from '../index/queries/links.js';
import { type NoteOutline, outlineOf } from '../markdown/outline.js';
import type { AccessContext } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

export interface NoteOutlineResult extends NoteOutline {
  readonly name: string;
  readonly etag: string;
  /** Links in the note (body and frontmatter), and notes linking to it. */
  readonly links: { readonly outgoing: number; readonly backlinks: number };
}

export function noteOutline(ctx: AccessContext, rules: Rules, input: string): NoteOutlineResult {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  const why = formatOf(ctx.vault).unsupportedEdit('read_part');
  if (why !== null) throw new NotedError('not_supported', `get_note_outline is not available here: ${why}.`);
  ctx.index.refresh();
  const visible = visibleOption(rules);
  // Only counts: a note's links are counted, not resolved (a note may hold hundreds of thousands).
  let outgoing = outgoingLinkCount(ctx.index.db, name, visible);
  if (outgoing === null) {
    // Written a moment ago by another program and not reported yet: index it on the spot.
    ctx.index.touched([name]);
    outgoing = outgoingLinkCount(ctx.index.db, name, visible);
  }
  const incoming = backlinksOf(ctx.index.db, name, visible);
  return {
    name,
    etag: stored.etag,
    ...outlineOf(stored.text),
    links: { outgoing: outgoing ?? 0, backlinks: incoming?.length ?? 0 },
  };
}
