/**
 * The scope operators on one note (issue 26): finding each word once in the whole body and placing
 * its matches in lines and blocks gives what checking each part on its own gives. The part-by-part
 * check runs for a scope nested in another, and a line or block always lies inside one section, so
 * `line:(X)` must equal `section:(line:(X))` on any note, and both a plain reading of the lines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CandidateFacts, matchesNote } from '../../../../src/index/search/check/check.js';
import { foldText } from '../../../../src/index/search/check/excerpt.js';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { NoteRegions } from '../../../../src/index/words/regions.js';

const WORDS = ['dog', 'cat', 'Café', 'cafe', 'the', 'dog-cat', 'naïve'];
const BREAKS = ['\n', '\n\n', '\n# Head\n', '\n## Sub\n', '\n- ', '\n> ', '\n```\n', '\n---\n'];

const body = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.constantFrom(...BREAKS)), {
    minLength: 1,
    maxLength: 40,
  })
  .map((parts) => parts.join(' '));

const term = fc.oneof(
  fc.constantFrom('dog', 'cat', 'cafe', 'naive', 'the'),
  fc.constantFrom('"dog cat"', '"the dog"', '"cat dog"'),
);
const operand: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { weight: 4, arbitrary: term },
    { weight: 1, arbitrary: term.map((t) => `-${t} dog`) },
    { weight: 2, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} ${b})`) },
    { weight: 2, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} OR ${b})`) },
  ),
})).expr;

function facts(text: string): CandidateFacts {
  const regions = new NoteRegions(text);
  return {
    path: 'n.md',
    title: 'n',
    tags: () => [],
    tasks: () => [],
    properties: () => [],
    regions: () => regions,
  };
}

/** Whole words, case and accents ignored, each line on its own: the rule written out plainly. */
function plainLine(line: string, word: string): boolean {
  return ` ${foldText(line).replace(/[^\p{L}\p{N}]+/gu, ' ')} `.includes(` ${word} `);
}

describe('scope operators: one scan of the body equals checking part by part', () => {
  it('line:(X) = section:(line:(X)) and block:(X) = section:(block:(X)), on any note', () => {
    const seen = { yes: 0, no: 0 };
    fc.assert(
      fc.property(body, operand, (text, op) => {
        const f = facts(text);
        for (const scope of ['line', 'block']) {
          const direct = matchesNote(parseSearchQuery(`${scope}:(${op})`), f);
          const nested = matchesNote(parseSearchQuery(`section:(${scope}:(${op}))`), f);
          expect({ text, op, scope, direct }).toEqual({ text, op, scope, direct: nested });
          seen[direct ? 'yes' : 'no']++;
        }
      }),
      { numRuns: 400, seed: 26 },
    );
    // Both answers came up often: the comparison was not between empty answers.
    expect(seen.yes).toBeGreaterThan(100);
    expect(seen.no).toBeGreaterThan(100);
  });

  it('line:(a b) holds exactly when some line holds both words', () => {
    let found = 0;
    fc.assert(
      fc.property(
        body,
        fc.constantFrom('dog', 'cat', 'cafe'),
        fc.constantFrom('the', 'naive', 'dog'),
        (text, a, b) => {
          const lines = new NoteRegions(text).lines();
          const expected = lines.some((l) => plainLine(l.text, a) && plainLine(l.text, b));
          found += expected ? 1 : 0;
          expect(matchesNote(parseSearchQuery(`line:(${a} ${b})`), facts(text))).toBe(expected);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    expect(found).toBeGreaterThan(40);
  });
});
