/**
 * @module
 * A note's outline through the gate (SPEC 12.3, 17.4): its structure from the stored text (tags and
 * tables too), how many links it has each way, and its embeds and attachment links resolved, as agents
 * may see them (hidden notes count nowhere, hidden files resolve to nothing).
 */
import { NotedError } from '../common/errors.js';
import { unobservedWork, type Work } from '../common/work.js';
import { formatOf } from '../format/formats.js';
import { type EmbedLink, embedLinks } from '../index/queries/embeds.js';
import { backlinks as backlinksOf, outgoingLinkCount } from '../index/queries/links.js';
import { fullOutlineOf, type NoteOutline } from '../markdown/outline.js';
import type { OutlineTable, OutlineTag } from '../markdown/outline-parts.js';
import type { AccessContext } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

export interface NoteOutlineResult extends NoteOutline {
  readonly name: string;
  readonly etag: string;
  /** Links in the note (body and frontmatter), and notes linking to it. */
  readonly links: { readonly outgoing: number; readonly backlinks: number };
  /** Frontmatter, then inline tags, with their lines (SPEC 17.4). */
  readonly tags: OutlineTag[];
  /** Embeds and links to attachments, resolved. */
  readonly embeds: EmbedLink[];
  readonly tables: OutlineTable[];
  /** The lists that stop at their bound (1,000 tags, 1,000 embeds, 100 tables); absent when none. */
  readonly cut?: ('tags' | 'embeds' | 'tables')[];
}

/** Embeds and attachment links listed at most. */
export const MAX_OUTLINE_EMBEDS = 1_000;

/**
 * `work` is asked at a safe point between what the index gives and the outline of the text (an outline
 * changes nothing, so a cancelled one simply stops), and other clients are served there.
 */
export async function noteOutline(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  work: Work = unobservedWork(),
): Promise<NoteOutlineResult> {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  const why = formatOf(ctx.vault).unsupportedEdit('read_part');
  if (why !== null) throw new NotedError('not_supported', `get_note_outline is not available here: ${why}.`);
  ctx.index.refresh();
  const visible = visibleOption(rules);
  // Links are counted, not resolved (a note may hold hundreds of thousands); of them only the embeds
  // and attachment links listed are resolved, a bounded number (index/queries/embeds.ts).
  let outgoing = outgoingLinkCount(ctx.index.db, name, visible);
  if (outgoing === null) {
    // Written a moment ago by another program and not reported yet: index it on the spot.
    ctx.index.touched([name]);
    outgoing = outgoingLinkCount(ctx.index.db, name, visible);
  }
  const incoming = backlinksOf(ctx.index.db, name, visible);
  // Read with the counts, before any safe point: a write let in at one would give embeds (and their
  // lines) of a newer text than the one outlined below under the etag above.
  const embeds = embedLinks(ctx.index.db, name, MAX_OUTLINE_EMBEDS, visible) ?? { links: [], cut: false };
  await work.checkpoint();
  const { cut: partsCut, ...outline } = fullOutlineOf(stored.text);
  const cut = [
    ...(partsCut.tags ? ['tags' as const] : []),
    ...(embeds.cut ? ['embeds' as const] : []),
    ...(partsCut.tables ? ['tables' as const] : []),
  ];
  return {
    name,
    etag: stored.etag,
    ...outline,
    links: { outgoing: outgoing ?? 0, backlinks: incoming?.length ?? 0 },
    embeds: embeds.links,
    ...(cut.length === 0 ? {} : { cut }),
  };
}
