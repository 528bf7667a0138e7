/**
 * @module
 * Ids in results (SPEC 17.3): each item a result gives for a note gains the note's `id`, looked up by
 * the path the item already names, so no result can name more than it did.
 */
import type { VaultAccess } from '../access/gate.js';

/**
 * `item` with the id of the note its `key` field names, in the field `field` (by default `id` for
 * `name` and `newName`, `<key>Id` for another key: `noteId`, `targetId`, `sourceId`). `at` maps the
 * path to where the note is now, for a result that names a note by its path before a move.
 */
export function withId<T extends object>(
  access: VaultAccess,
  item: T,
  key: keyof T & string = 'name' as never,
  options: { readonly field?: string; readonly at?: (path: string) => string } = {},
): T {
  const path = item[key];
  if (typeof path !== 'string') return item;
  const id = access.idOf(options.at === undefined ? path : options.at(path));
  if (id === undefined) return item;
  // Right after the field that names the note, so the two read together.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    out[k] = v;
    if (k === key) out[options.field ?? idKey(key)] = id;
  }
  return out as T;
}

/** Every item of `list` with the id of the note its `key` field names. */
export function withIds<T extends object>(
  access: VaultAccess,
  list: readonly T[],
  key: keyof T & string = 'name' as never,
  options: { readonly field?: string; readonly at?: (path: string) => string } = {},
): T[] {
  return list.map((item) => withId(access, item, key, options));
}

/**
 * A move result's `nowResolved` links with ids: `noteId` for the note holding the link (named as it
 * was before the move: `at` says where it is now) and `targetId` for the note the link finds.
 */
export function nowResolvedWithIds<T extends { note: string; target: string }>(
  access: VaultAccess,
  list: readonly T[],
  at: (path: string) => string,
): T[] {
  return list.map((item) => withId(access, withId(access, item, 'note', { at }), 'target'));
}

/** `name` → `id`; `note` → `noteId`; `newName` → `id` (the note now); `target` → `targetId`. */
function idKey(key: string): string {
  if (key === 'name' || key === 'newName') return 'id';
  return `${key}Id`;
}
