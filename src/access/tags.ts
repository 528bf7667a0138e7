/**
 * @module
 * Tags through the gate (SPEC 2, list_tags and list_by_tag): counted and found as Obsidian's Tags
 * view does (nested tags count toward their parents, case-insensitive), over visible notes only.
 */
import { positionOf } from '../common/cursor.js';
import { type Keyset, type PageRequest, pageOf } from '../common/paging.js';
import {
  type SortedTagCount,
  sortedTagCounts,
  type TagCount,
  type TaggedNote,
  taggedNotesPage,
  tagOrder,
} from '../index/queries/tags.js';
import type { AccessContext } from './context.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

export interface TagList {
  readonly tags: TagCount[];
  /** Distinct tags in the vault, before `limit`. */
  readonly total: number;
  readonly more: boolean;
  readonly nextCursor?: string;
}

export interface TaggedNotes {
  /** The tag asked for, without `#`. */
  readonly tag: string;
  readonly notes: TaggedNote[];
  readonly more: boolean;
  readonly nextCursor?: string;
}

/** Every tag with its note count, most used first, a page at a time. */
export function listTags(ctx: AccessContext, rules: Rules, request: PageRequest): TagList {
  ctx.index.refresh();
  const page = pageOf(sortedTagCounts(ctx.index.db, visibleOption(rules)), request, TAG_ORDER);
  return {
    tags: page.items.map(({ tag, count }) => ({ tag, count })),
    total: page.total,
    more: page.more,
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/** A page boundary keeps its place when counts change: the next page starts after (count, tag). */
const TAG_ORDER: Keyset<SortedTagCount, { c: number; t: string }> = {
  kind: 'tags',
  position: (tag) => ({ c: tag.count, t: tag.lower }),
  isPosition: positionOf<{ c: number; t: string }>({ c: 'number', t: 'string' }),
  compare: (tag, p) => tagOrder(tag, { count: p.c, lower: p.t }),
};

/** The notes carrying a tag or one nested below it, newest first, a page at a time. */
export function notesByTag(
  ctx: AccessContext,
  rules: Rules,
  options: { tag: string } & PageRequest,
): TaggedNotes {
  ctx.index.refresh();
  const page = taggedNotesPage(ctx.index.db, options.tag, {
    limit: options.limit,
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
    ...visibleOption(rules),
  });
  return { tag: options.tag.trim().replace(/^#/, ''), ...page };
}
