/**
 * A query's repeated terms count once (SPEC 3.3a, issue 25 item 2): terms are the same when FTS5 splits
 * them into the same words, and the query without the repeats matches exactly the same notes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery, type QueryNode } from '../../../../src/index/search/parse/query.js';
import { dedupeQuery, termWords } from '../../../../src/index/search/parse/terms.js';
import { compileSearch } from '../../../../src/index/search/plan/compile.js';
import { searchSql } from '../../../../src/index/search/plan/sql.js';
import { runSearch } from '../../../../src/index/search/run/run.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';
import { and, field, not, or, phrase, word } from '../../query-nodes.js';

const deduped = (query: string): QueryNode => dedupeQuery(parseSearchQuery(query));

describe('termWords: the words the index makes of a term', () => {
  it('splits and folds as the index does, ASCII here and everything else by FTS5 itself', () => {
    expect(termWords(['Plan-B 2026', 'Café crème', '東京都', 'ΟΔΟΣ', 'İstanbul', 'e\u0301te', '--'])).toEqual(
      [['plan', 'b', '2026'], ['cafe', 'creme'], ['東', '京', '都'], ['οδοσ'], ['istanbul'], ['ete'], []],
    );
  });

  it('reads a NUL as the separator FTS5 reads it as', () => {
    expect(termWords(['a\u0000b', 'é\u0000b'])).toEqual([
      ['a', 'b'],
      ['e', 'b'],
    ]);
  });
});

describe('dedupeQuery: each term once', () => {
  it('keeps one of terms that split into the same words, the first as typed', () => {
    expect(deduped('lorem OR lorem OR lorem')).toEqual(word('lorem'));
    expect(deduped('Lorem lorem LOREM')).toEqual(word('Lorem'));
    expect(deduped('café cafe CAFÉ')).toEqual(word('café'));
    expect(deduped('plan-b "plan b" plan_b')).toEqual(word('plan-b'));
    expect(deduped('東京 "東京"')).toEqual(word('東京'));
    expect(deduped(Array.from({ length: 100 }, () => 'the').join(' '))).toEqual(word('the'));
  });

  it('keeps terms that differ, in their order', () => {
    expect(deduped('plan "plan b" b')).toEqual(and(word('plan'), phrase('plan b'), word('b')));
    expect(deduped('a OR b OR a OR c')).toEqual(or(word('a'), word('b'), word('c')));
    expect(deduped('a -a')).toEqual(and(word('a'), not(word('a'))));
  });

  it('compares fields as the compiler does, and groups and exclusions by their parts', () => {
    expect(deduped('tag:#Work tag:work/ tag:WORK')).toEqual(field('tag', '#Work'));
    expect(deduped('path:Notes path:notes file:notes')).toEqual(
      and(field('path', 'Notes'), field('file', 'notes')),
    );
    expect(deduped('(a OR b) (b OR A) c')).toEqual(and(or(word('a'), word('b')), word('c')));
    expect(deduped('x -(a b) -(B a)')).toEqual(and(word('x'), not(and(word('a'), word('b')))));
  });

  it('merges a group left of its parent’s kind into the parent, and a group left with one term is that term', () => {
    expect(deduped('a (a b)')).toEqual(and(word('a'), word('b')));
    expect(deduped('(a OR a) b')).toEqual(and(word('a'), word('b')));
    expect(deduped('(a a) OR (b b)')).toEqual(or(word('a'), word('b')));
    expect(deduped('((a b) OR (a b)) c')).toEqual(and(word('a'), word('b'), word('c')));
    expect(deduped('a ((a b) OR (b a))')).toEqual(and(word('a'), word('b')));
  });
});

describe('a query without its repeats matches the same notes', () => {
  const WORDS = ['apple', 'Apple', 'berry', 'café', 'cafe', 'cider'];
  let vault: IndexedVault;
  beforeAll(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++) {
      files[`n${i}.md`] = WORDS.filter((_, j) => ((i * 7 + 3) >> j) & 1).join(' ');
    }
    vault = indexedVault(files);
  });
  afterAll(() => vault.close());

  const term = fc.constantFrom(...WORDS, '"apple berry"', '"Cafe cider"');
  const query: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
    q: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      term,
      term,
      fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} ${b}`),
      fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a}) OR (${b})`),
      fc.tuple(tie('q'), term).map(([a, b]) => `${a} -${b}`),
    ),
  })).q;

  const matches = async (node: QueryNode): Promise<string[]> => {
    const page = await runSearch(vault.db, node, searchSql(compileSearch(node), { limit: 50 }), 'all');
    return page!.rows.map((r) => r.path).sort();
  };

  it('holds for generated queries with repeats', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        let parsed: QueryNode;
        try {
          parsed = parseSearchQuery(q);
        } catch {
          return; // only exclusions: refused either way
        }
        expect(await matches(dedupeQuery(parsed)), q).toEqual(await matches(parsed));
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it('ranks a repeated word as that word once', async () => {
    const once = await runSearch(
      vault.db,
      word('apple'),
      searchSql(compileSearch(word('apple')), { limit: 50 }),
      'all',
    );
    const repeated = deduped('apple apple OR APPLE');
    const again = await runSearch(
      vault.db,
      repeated,
      searchSql(compileSearch(repeated), { limit: 50 }),
      'all',
    );
    expect(again).toEqual(once);
    expect(once!.rows.length).toBeGreaterThan(3);
  });
});
