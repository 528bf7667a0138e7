/**
 * @module
 * Pages of a list sorted in memory (SPEC 3.3): tags, trash, folders, backlinks, query rows. The
 * cursor keeps the last item's sort position and its index. When that index still holds the same
 * item, the next page starts right after it; when the list changed in between (notes added or
 * removed), the next page starts at the first item sorting after that position (keyset), so no item
 * is given twice and none that stayed is skipped.
 */
import { decodeCursor, encodeCursor } from './cursor.js';

export interface PageRequest {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

export interface Page<T> {
  readonly items: T[];
  /** Items in the whole list. */
  readonly total: number;
  /** True when items follow this page; `nextCursor` then reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

/** How a list is ordered, for its cursors. */
export interface Keyset<T, P> {
  /** Which list a cursor belongs to: a cursor of another list is refused, not misread. */
  readonly kind: string;
  /** What a cursor keeps of an item: its sort keys, as JSON. */
  position(item: T): P;
  isPosition(data: unknown): data is P;
  /** Negative when `item` sorts before `position`, 0 at it, positive after it. */
  compare(item: T, position: P): number;
}

interface Stored<P> {
  readonly a: P;
  readonly i: number;
}

/**
 * The page of `sorted` that `request.cursor` points to (the first page without one).
 *
 * @example
 * const page = pageOf(tags, { limit: 2 }, TAG_ORDER); // { items: [t0, t1], total: 5, more: true, nextCursor }
 * pageOf(tags, { limit: 2, cursor: page.nextCursor }, TAG_ORDER).items // [t2, t3]
 */
export function pageOf<T, P>(sorted: readonly T[], request: PageRequest, keyset: Keyset<T, P>): Page<T> {
  const start = request.cursor === undefined ? 0 : startOf(sorted, request.cursor, keyset);
  const items = sorted.slice(start, start + request.limit);
  const end = start + items.length;
  const last = items[items.length - 1];
  const more = end < sorted.length && last !== undefined;
  const page = { items, total: sorted.length, more };
  if (!more) return page;
  return { ...page, nextCursor: encodeCursor(keyset.kind, { a: keyset.position(last), i: end }) };
}

function startOf<T, P>(sorted: readonly T[], cursor: string, keyset: Keyset<T, P>): number {
  const stored = decodeCursor(keyset.kind, cursor, (data): data is Stored<P> => {
    const d = data as Partial<Stored<P>> | null;
    return Number.isSafeInteger(d?.i) && (d?.i as number) >= 0 && keyset.isPosition(d?.a);
  });
  const before = sorted[stored.i - 1];
  if (before !== undefined && keyset.compare(before, stored.a) === 0) return stored.i;
  // The list changed: the first item after the position (the list is sorted, so search by halves).
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keyset.compare(sorted[mid] as T, stored.a) > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Compares two strings by UTF-16 code units, as `Array.prototype.sort` does: the same on every machine. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
