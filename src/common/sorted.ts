/**
 * @module
 * A binary search over anything in ascending order, given by index: the search scopes (search/check/scopes.ts,
 * indexed-note.ts) place offsets and lines in parts with it, and an HTML note's reading counts the
 * line breaks between two offsets (html-read.ts).
 */

/** The last index `i < count` with `at(i) <= target`, or -1 when none is. `at` must not decrease. */
export function lastAtOrBefore(count: number, at: (i: number) => number, target: number): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) <= target) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
