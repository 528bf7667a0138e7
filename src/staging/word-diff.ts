/**
 * @module
 * The changed words between two texts, for showing a staged change to its owner (SPEC 5.2). Words,
 * punctuation, line breaks and runs of spaces are the units (jsdiff's `diffWordsWithSpace`), so the
 * pieces put together give back both texts exactly.
 */
import { diffWordsWithSpace } from 'diff';

/** Above this many word edits the comparison gives up and shows the whole texts as replaced. */
export const MAX_WORD_EDITS = 2_000;

export interface WordChange {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
}

/**
 * The pieces of `before` and `after`: the `same` and `removed` pieces in order make `before`, the
 * `same` and `added` ones make `after`.
 *
 * @example
 * wordDiff('the quick fox', 'the slow fox')
 * // [{same 'the '}, {removed 'quick'}, {added 'slow'}, {same ' fox'}]
 */
export function wordDiff(before: string, after: string): WordChange[] {
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_WORD_EDITS });
  if (changes === undefined) {
    return [
      { kind: 'removed' as const, text: before },
      { kind: 'added' as const, text: after },
    ].filter((c) => c.text !== '');
  }
  return changes
    .filter((c) => c.value !== '')
    .map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}
