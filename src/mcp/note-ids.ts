/**
 * @module
 * Ids in results (SPEC 17.3): each item a result gives for a note gains the note's `id`, looked up by
 * the path the item already names, so no result can name more than it did.
 */
import type { VaultAccess } from '../access/gate.js';

/** `item` with the id of the note its `key` field names, right after that field's place. */
export function withId<T extends object>(
  access: VaultAccess,
  item: T,
  key: keyof T & string = 'name' as never,
): T {
  const path = item[key];
  if (typeof path !== 'string') return item;
  const id = access.idOf(path);
  return id === undefined ? item : { ...item, [idKey(key)]: id };
}

/** Every item of `list` with the id of the note its `key` field names. */
export function withIds<T extends object>(
  access: VaultAccess,
  list: readonly T[],
  key: keyof T & string = 'name' as never,
): T[] {
  return list.map((item) => withId(access, item, key));
}

/** `name` → `id`; `note` → `noteId`; `newName` → `id` (the note now); `target` → `targetId`. */
function idKey(key: string): string {
  if (key === 'name' || key === 'newName') return 'id';
  return `${key}Id`;
}
