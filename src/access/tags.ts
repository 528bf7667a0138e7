/**
 * @module
 * Tags through the gate (SPEC 2, list_tags and list_by_tag): counted and found as Obsidian's Tags
 * view does (nested tags count toward their parents, case-insensitive), over visible notes only.
 */
import {
  listTags as listTagsOf,
  notesByTag as notesByTagOf,
  type TagCount,
  type TaggedNote,
} from '../index/tags-query.js';
import type { AccessContext } from './context.js';
import type { Rules } from './rules.js';
import { visibleOption } from './scope.js';

export interface TagList {
  readonly tags: TagCount[];
  /** Distinct tags in the vault, before `limit`. */
  readonly total: number;
}

export interface TaggedNotes {
  /** The tag asked for, without `#`. */
  readonly tag: string;
  readonly notes: TaggedNote[];
}

/** Every tag with its note count, most used first; `limit` keeps the most used. */
export function listTags(ctx: AccessContext, rules: Rules, options: { limit?: number } = {}): TagList {
  ctx.index.refresh();
  const all = listTagsOf(ctx.index.db, visibleOption(rules));
  return { tags: options.limit === undefined ? all : all.slice(0, options.limit), total: all.length };
}

/** The notes carrying a tag or one nested below it, newest first (50 unless `limit` says). */
export function notesByTag(
  ctx: AccessContext,
  rules: Rules,
  options: { tag: string; limit?: number },
): TaggedNotes {
  ctx.index.refresh();
  const notes = notesByTagOf(ctx.index.db, options.tag, {
    limit: options.limit ?? 50,
    ...visibleOption(rules),
  });
  return { tag: options.tag.trim().replace(/^#/, ''), notes };
}
