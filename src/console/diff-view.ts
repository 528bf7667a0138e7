/**
 * @module
 * A change between two texts as the console's page shows it: a new note whole, a deleted note whole,
 * or the hunks of an update (numbered as `approve --keep` numbers them) with their changed words
 * marked. Plain data; the page renders it with `textContent` only.
 */
import { hunksOf } from '../staging/hunks.js';
import { type WordChange, wordDiff } from '../staging/word-diff.js';

export interface HunkView {
  readonly index: number;
  readonly baseStart: number;
  readonly baseCount: number;
  readonly newStart: number;
  readonly newCount: number;
  /** Unchanged lines around the hunk. */
  readonly before: readonly string[];
  readonly after: readonly string[];
  /** The removed and added lines as one marked run of words. */
  readonly words: readonly WordChange[];
}

export type DiffView =
  | { readonly kind: 'create'; readonly text: string }
  | { readonly kind: 'delete'; readonly text: string }
  | { readonly kind: 'update'; readonly hunks: readonly HunkView[] }
  /** A text recorded by hash only (over 5 MB) or missing from the journal. */
  | { readonly kind: 'unavailable'; readonly reason: string };

/** `before` null: a creation; `after` null: a deletion. */
export function diffView(before: string | null, after: string | null): DiffView {
  if (before === null) return { kind: 'create', text: after ?? '' };
  if (after === null) return { kind: 'delete', text: before };
  return {
    kind: 'update',
    hunks: hunksOf(before, after).map((h) => ({
      index: h.index,
      baseStart: h.baseStart,
      baseCount: h.baseCount,
      newStart: h.newStart,
      newCount: h.newCount,
      before: h.before,
      after: h.after,
      words: wordDiff(h.removed.join('\n'), h.added.join('\n')),
    })),
  };
}
