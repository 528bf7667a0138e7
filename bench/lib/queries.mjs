/**
 * @module bench/lib/queries
 * The fixed search query set of the benchmark, one query per kind, picked deterministically
 * from the generator's vocabulary by frequency rank, so every vault answers the same queries.
 */

import { ACCENTED_WORDS, CJK_PHRASES, PHRASES, rankedVocabulary } from './lexicon.mjs';

/** @returns {{ kind: string, query: string, why: string }[]} */
export function benchQueries() {
  const { words, realRanks } = rankedVocabulary();
  const real = (k) => words[realRanks[k]];
  const rankOf = (w) => words.indexOf(w) + 1;
  const rare = words[19999];
  const mid = words[4999];
  return [
    { kind: 'common', query: words[0], why: 'rank 1: in every note' },
    { kind: 'rare', query: rare, why: 'rank 20000' },
    {
      kind: 'two-words',
      query: `${real(0)} ${real(7)}`,
      why: `ranks ${rankOf(real(0))}, ${rankOf(real(7))}`,
    },
    {
      kind: 'three-words',
      query: `${real(1)} ${real(4)} ${real(5)}`,
      why: `ranks ${rankOf(real(1))}, ${rankOf(real(4))}, ${rankOf(real(5))}`,
    },
    { kind: 'phrase', query: `"${PHRASES[6]}"`, why: `rank ${rankOf(PHRASES[6])}` },
    { kind: 'accented', query: ACCENTED_WORDS[11], why: `rank ${rankOf(ACCENTED_WORDS[11])}` },
    { kind: 'cjk', query: CJK_PHRASES[0], why: 'in ~3% of paragraphs' },
    { kind: 'or', query: `${real(7)} OR ${mid}`, why: `ranks ${rankOf(real(7))}, 5000` },
    {
      kind: 'exclusion',
      query: `${real(0)} -${real(1)}`,
      why: `ranks ${rankOf(real(0))}, ${rankOf(real(1))}`,
    },
  ];
}
