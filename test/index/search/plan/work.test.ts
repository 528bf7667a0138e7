/**
 * A search's work is counted before it runs and bounded (SPEC 3.3a, issue 25 item 2): repeating a term
 * adds nothing, a phrase's work grows with its length and no faster, a query past the bound is
 * `too_large`, and only visible notes count, so a refusal never tells of hidden ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NotedError } from '../../../../src/common/errors.js';
import { parseSearchQuery, type QueryNode } from '../../../../src/index/search/parse/query.js';
import { dedupeQuery } from '../../../../src/index/search/parse/terms.js';
import {
  checkSearchWork,
  MAX_SEARCH_WORK,
  MAX_SEARCH_WORK_CEILING,
  searchWork,
  WORK_PER_TOKEN,
  workLimit,
} from '../../../../src/index/search/plan/work.js';
import type { IndexVisibility } from '../../../../src/index/store/visibility.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';
import { word } from '../../query-nodes.js';

let vault: IndexedVault | undefined;
afterEach(() => {
  vault?.close();
  vault = undefined;
});

/** lorem 30 times (10 in each of three notes), ipsum 5 times, dolor once. */
const FILES = {
  'a.md': `${'lorem '.repeat(10)}ipsum ipsum\n`,
  'b.md': `${'lorem '.repeat(10)}ipsum ipsum ipsum\n`,
  'c.md': `${'lorem '.repeat(10)}dolor\n`,
};

const HIDE_PRIVATE: IndexVisibility = { key: 'no-private', visible: (p) => !p.startsWith('private/') };

const work = (v: IndexedVault, query: string) => searchWork(v.db, dedupeQuery(parseSearchQuery(query)));

function refusal(fn: () => void): NotedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof NotedError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('searchWork', () => {
  it('counts terms × their occurrences, plus every word each term reads, from the index', () => {
    vault = indexedVault(FILES);
    expect(work(vault, 'lorem').work).toBe(1 * 30 + 30);
    expect(work(vault, 'lorem OR ipsum').work).toBe(2 * (30 + 5) + 35);
    // A phrase occurs no more often than its rarest word, and reads all of its words.
    expect(work(vault, '"lorem ipsum"').work).toBe(1 * 5 + 35);
    // An excluded term ranks nothing (rows holding it are not ranked), but it is read.
    expect(work(vault, 'lorem -dolor').work).toBe(2 * 30 + 31);
    expect(work(vault, 'absentword').work).toBe(0);
  });

  it('a term repeated a hundred times is the work of the term once', () => {
    vault = indexedVault(FILES);
    const once = work(vault, 'lorem').work;
    const joined = (sep: string) => Array.from({ length: 100 }, () => 'lorem').join(sep);
    expect(work(vault, joined(' OR ')).work / once).toBe(1);
    expect(work(vault, joined(' ')).work / once).toBe(1);
    expect(work(vault, `(${joined(' OR ').slice(18)}) (Lorem OR LOREM)`).work / once).toBe(1);
    // Without removing the repeats (the parser drops them) the count is 100 × 100 × 30 + 100 × 30:
    // what FTS5 would do.
    const repeated: QueryNode = { kind: 'or', operands: Array.from({ length: 100 }, () => word('lorem')) };
    expect(searchWork(vault.db, repeated).work / once).toBe(5050);
  });

  it('grows with a phrase’s length in proportion, never faster', () => {
    vault = indexedVault(FILES);
    const phrase = (n: number) => `"${'lorem '.repeat(n).trim()}"`;
    // The phrase's occurrences (at most lorem's 30) once, and lorem's 30 for each of its words.
    for (const n of [10, 100, 300]) expect(work(vault, phrase(n)).work).toBe(30 + n * 30);
    expect(work(vault, phrase(300)).work / work(vault, phrase(10)).work).toBeLessThanOrEqual(30);
  });

  it('counts only notes agents may see: the same as in the vault without the hidden ones', () => {
    const hidden = {
      'private/x.md': `${'lorem '.repeat(5000)}secretword\n`,
      'private/y.md': 'ipsum secretword',
    };
    vault = indexedVault({ ...FILES, ...hidden }, HIDE_PRIVATE);
    const without = indexedVault(FILES);
    try {
      for (const q of [
        'lorem',
        'lorem OR ipsum',
        'secretword OR lorem',
        '"lorem ipsum" dolor',
        'secretword',
      ]) {
        expect(work(vault, q), q).toEqual(work(without, q));
      }
      // And the other way: the policy changed to show them, they count at once.
      vault.useVisibility({ key: 'all', visible: () => true });
      expect(work(vault, 'lorem').work).toBe(2 * 5030);
      expect(work(vault, 'secretword').work).toBe(2 * 2);
    } finally {
      without.close();
    }
  });
});

describe('searchWork: an AND ranks only the notes holding every side (issue 26)', () => {
  it('counts each side in the share of its notes the rarest side leaves', () => {
    vault = indexedVault(FILES);
    // lorem is in 3 notes (30 times), dolor in 1 (once): lorem's 30 count for a third.
    expect(work(vault, 'lorem dolor').work).toBe(2 * (30 / 3 + 1) + 31);
    // Every side in every note: the same as the OR.
    expect(work(vault, 'lorem ipsum').work).toBe(2 * (30 * (2 / 3) + 5) + 35);
    // A word found nowhere: FTS5 ranks no note, only the reading counts.
    expect(work(vault, 'lorem absentword').work).toBe(30);
  });

  it('is far under the OR of the same words when one side is rare, the same when none is', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++)
      files[`n${i}.md`] = `${'the of and '.repeat(20)}${i === 0 ? 'zebra' : ''}\n`;
    vault = indexedVault(files);
    const and = work(vault, 'the of and zebra').work;
    const or = work(vault, 'the OR of OR and OR zebra').work;
    expect(and).toBeLessThan(or / 3);
    expect(work(vault, 'the of and').work).toBe(work(vault, 'the OR of OR and').work);
  });
});

describe('workLimit: a query may cost a few passes over the visible text', () => {
  it('grows with the words of the visible notes, within its floor and ceiling', () => {
    vault = indexedVault(FILES);
    expect(workLimit(vault.db)).toBe(MAX_SEARCH_WORK);
    const big: Record<string, string> = {};
    // 2,000 notes of 4,000 words and a one-word title: 8,002,000 words, 64 million units.
    for (let i = 0; i < 2000; i++) big[`b${i}.md`] = `${'word '.repeat(4000)}\n`;
    const large = indexedVault(big);
    try {
      expect(workLimit(large.db)).toBe(WORK_PER_TOKEN * 8_002_000);
      expect(workLimit(large.db)).toBeLessThanOrEqual(MAX_SEARCH_WORK_CEILING);
    } finally {
      large.close();
    }
  }, 120_000);

  it('counts visible text only: hidden notes neither raise nor lower it', () => {
    vault = indexedVault({ ...FILES, 'private/x.md': `${'lorem '.repeat(100_000)}\n` }, HIDE_PRIVATE);
    expect(workLimit(vault.db)).toBe(MAX_SEARCH_WORK);
  });
});

describe('checkSearchWork', () => {
  it('refuses a query past the bound as too_large, naming its most frequent words', () => {
    vault = indexedVault(FILES);
    const db = vault.db;
    const err = refusal(() => checkSearchWork(db, dedupeQuery(parseSearchQuery('lorem OR ipsum')), 100));
    expect(err.code).toBe('too_large');
    expect(err.message).toContain('"lorem" (30), "ipsum" (5)');
    expect(err.message).toContain('105 word occurrences, and the limit is 100');
    expect(err.details).toMatchObject({ limit: 100, actual: 105, terms: 2 });
    expect(() => checkSearchWork(db, dedupeQuery(parseSearchQuery('lorem OR ipsum')), 105)).not.toThrow();
  });

  it('never refuses a single word: reading it once is the least a search for it costs', () => {
    vault = indexedVault(FILES);
    const db = vault.db;
    expect(() => checkSearchWork(db, parseSearchQuery('lorem'), 1)).not.toThrow();
    expect(() => checkSearchWork(db, parseSearchQuery('"Lorem"'), 1)).not.toThrow();
    expect(refusal(() => checkSearchWork(db, parseSearchQuery('"lorem lorem"'), 1)).code).toBe('too_large');
  });

  it('does not refuse for words that only hidden notes hold', () => {
    vault = indexedVault({ ...FILES, 'private/x.md': `${'lorem ipsum '.repeat(5000)}\n` }, HIDE_PRIVATE);
    const db = vault.db;
    expect(() => checkSearchWork(db, dedupeQuery(parseSearchQuery('lorem OR ipsum')), 105)).not.toThrow();
  });
});
