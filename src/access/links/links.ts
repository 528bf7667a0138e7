/**
 * @module
 * Links through the gate (SPEC 2, get_outgoing_links and get_backlinks; SPEC 10): the note is named
 * as every read names it (hidden = missing, several matches refused), and hidden notes are neither
 * link targets nor link sources (SPEC 4).
 */

import { positionOf } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { byCodeUnits, type Keyset, pageOf } from '../../common/paging.js';
import {
  type Backlink,
  backlinks as backlinksOf,
  type OutgoingLink,
  outgoingLinkCount,
  outgoingLinks as outgoingLinksOf,
} from '../../index/queries/links.js';
import { subpathLines } from '../../markdown/outline.js';
import { isNoteFile } from '../../vault/walk.js';
import type { AccessContext } from '../context.js';
import { notFound, resolveExisting } from '../resolve.js';
import type { Rules } from '../rules/rules.js';
import { visibleOption } from '../rules/scope.js';

/**
 * A link with the lines its `#heading` or `#^block` part points at in the target note (SPEC 12.3),
 * null when it has none, the target is not a note, or nothing there matches.
 */
export type LinkWithLines = OutgoingLink & { readonly lines: [number, number] | null };

export interface OutgoingLinks {
  readonly name: string;
  readonly links: LinkWithLines[];
}

export interface Backlinks {
  readonly name: string;
  /** One page: most links first, then by name. */
  readonly backlinks: Backlink[];
  /** How many notes link to it in all. */
  readonly total: number;
  readonly more: boolean;
  /** Present when more pages follow. */
  readonly nextCursor?: string;
}

/** Linking notes per page unless the caller asks for another size: a few kilobytes of result. */
export const BACKLINKS_PAGE = 200;

interface BacklinkPosition {
  /** The last given note's link count, and its name. */
  readonly c: number;
  readonly n: string;
}

/** The order backlinksOf sorts by: more links first, then by name. */
const BACKLINK_ORDER: Keyset<Backlink, BacklinkPosition> = {
  kind: 'backlinks',
  position: (b) => ({ c: b.count, n: b.name }),
  isPosition: positionOf<BacklinkPosition>({ c: 'number', n: 'string' }),
  compare: (b, p) => p.c - b.count || byCodeUnits(b.name, p.n),
};

/**
 * The most links get_outgoing_links answers with: each takes a few hundred bytes of the answer, so
 * 20,000 of them are within the 8 MB an answer may hold. A note with more is refused before any is
 * resolved (issue 35: `[[t]]` 800,000 times was resolved for 15 s, then refused as too large).
 */
export const MAX_OUTGOING_LINKS = 20_000;

/** Every link of a note in document order, each with the file it resolves to now (or null). */
export function outgoingLinks(ctx: AccessContext, rules: Rules, input: string): OutgoingLinks {
  const name = resolveExisting(ctx, rules, input);
  const count = indexed(ctx, name, () => outgoingLinkCount(ctx.index.db, name, visibleOption(rules)));
  if (count > MAX_OUTGOING_LINKS) {
    throw new NotedError(
      'too_large',
      `The note "${name}" holds ${count.toLocaleString('en-US')} links, and get_outgoing_links answers with at most ${MAX_OUTGOING_LINKS.toLocaleString('en-US')}. ` +
        'get_note_outline gives the counts; read_note with a line range reads the links where they are written.',
      { limit: MAX_OUTGOING_LINKS, actual: count },
    );
  }
  const links = indexed(ctx, name, () => outgoingLinksOf(ctx.index.db, name, visibleOption(rules)));
  const texts = new Map<string, string | null>();
  const textOf = (target: string): string | null => {
    if (!texts.has(target)) texts.set(target, ctx.vault.read(target, rules.sight)?.text ?? null);
    return texts.get(target) ?? null;
  };
  return {
    name,
    links: links.map((link) => {
      if (
        link.target === null ||
        (link.heading === null && link.block === null) ||
        !isNoteFile(link.target, ctx.vault.ending)
      ) {
        return { ...link, lines: null };
      }
      const text = textOf(link.target);
      return { ...link, lines: text === null ? null : subpathLines(text, link) };
    }),
  };
}

/**
 * The notes with links resolving to a note, with how many each holds; most first, a page at a time.
 * The cursor holds the last note given (its count and name), so a page boundary stays put while links
 * elsewhere change.
 */
export function backlinks(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  page: { limit?: number; cursor?: string } = {},
): Backlinks {
  const name = resolveExisting(ctx, rules, input);
  const all = indexed(ctx, name, () => backlinksOf(ctx.index.db, name, visibleOption(rules)));
  const found = pageOf(all, { limit: page.limit ?? BACKLINKS_PAGE, cursor: page.cursor }, BACKLINK_ORDER);
  return {
    name,
    backlinks: found.items,
    total: found.total,
    more: found.more,
    ...(found.nextCursor === undefined ? {} : { nextCursor: found.nextCursor }),
  };
}

/**
 * Runs an index query about one existing note. The index catches up first; a note the watcher has
 * not reported yet (written a moment ago by another program) is indexed on the spot rather than
 * answered as missing.
 */
function indexed<T>(ctx: AccessContext, name: string, query: () => T | null): T {
  ctx.index.refresh();
  let found = query();
  if (found === null) {
    ctx.index.touched([name]);
    found = query();
  }
  if (found === null) throw notFound(name);
  return found;
}
