/**
 * @module
 * Links through the gate (SPEC 2, get_outgoing_links and get_backlinks; SPEC 10): the note is named
 * as every read names it (hidden = missing, several matches refused), and hidden notes are neither
 * link targets nor link sources (SPEC 4).
 */
import {
  type Backlink,
  backlinks as backlinksOf,
  type OutgoingLink,
  outgoingLinks as outgoingLinksOf,
} from '../index/links-query.js';
import type { AccessContext } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules.js';
import { visibleOption } from './scope.js';

export interface OutgoingLinks {
  readonly name: string;
  readonly links: OutgoingLink[];
}

export interface Backlinks {
  readonly name: string;
  readonly backlinks: Backlink[];
}

/** Every link of a note in document order, each with the file it resolves to now (or null). */
export function outgoingLinks(ctx: AccessContext, rules: Rules, input: string): OutgoingLinks {
  const name = resolveExisting(ctx, rules, input);
  const links = indexed(ctx, name, () => outgoingLinksOf(ctx.index.db, name, visibleOption(rules)));
  return { name, links };
}

/** The notes with links resolving to a note, with how many each holds; most first. */
export function backlinks(ctx: AccessContext, rules: Rules, input: string): Backlinks {
  const name = resolveExisting(ctx, rules, input);
  const found = indexed(ctx, name, () => backlinksOf(ctx.index.db, name, visibleOption(rules)));
  return { name, backlinks: found };
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
