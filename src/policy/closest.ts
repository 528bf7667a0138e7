/**
 * @module
 * "Did you mean …?" for a misspelt word in the policy file: the nearest allowed word by edit distance.
 */

/**
 * The allowed word nearest to `word` (ignoring case, `_` and spaces read as `-`), or null when none is
 * close enough to be a likely typo.
 *
 * @example
 * closestWord('hiden', ['hidden', 'read-only']) // 'hidden'
 * closestWord('readonly', ['hidden', 'read-only']) // 'read-only'
 */
export function closestWord(word: string, allowed: readonly string[]): string | null {
  const probe = word.toLowerCase().replace(/[_\s]+/g, '-');
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of allowed) {
    const distance = editDistance(probe, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Two edits, or a third of the word, whichever is more: beyond that a guess misleads more than helps.
  const limit = Math.max(2, Math.floor(probe.length / 3));
  return bestDistance <= limit ? best : null;
}

/** Levenshtein distance (insert, delete, substitute), two rows at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitute));
    }
    previous = current;
  }
  return previous[b.length]!;
}
