/**
 * Issue 25 item 2 through a real client: repeating a word in a search no longer multiplies its cost
 * (the answer is that of the word once), and a query whose work is past the bound is refused with a
 * clear too_large instead of holding the server for minutes. The work itself is counted in
 * test/index/search-work.test.ts; no timing here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORK } from '../../src/index/search/plan/work.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

/** 100 distinct words, each in every large note 2,000 times: 200,000 words, about 1.1 MB a note. */
const WORDS = Array.from({ length: 100 }, (_, i) => `w${i}`);
const LARGE = `${WORDS.join(' ')}\n`.repeat(2000);

let vault: TestVault;
beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`large/l${i}.md`] = `# Large ${i}\n\n${LARGE}`;
  for (let i = 0; i < 20; i++) files[`small/s${i}.md`] = `# Small ${i}\n\nw${i} and w${i + 1}, lorem ipsum\n`;
  vault = await openTestVault(files);
}, 120_000);
afterAll(async () => {
  await vault.close();
});

describe('a search’s repeated terms count once and its work is bounded (SPEC 3.3a)', () => {
  it('a word repeated a hundred times, joined by OR or side by side, answers as the word once', async () => {
    const once = await vault.call('search_notes', { query: 'w7', max_results: 50 });
    expect(once.isError).toBe(false);
    expect(once.structured.total).toBe(6);
    for (const sep of [' OR ', ' ', ' OR W7 ']) {
      const query = Array.from({ length: 50 }, () => 'w7').join(sep);
      const repeated = await vault.call('search_notes', { query, max_results: 50 });
      expect(repeated.isError, query.slice(0, 40)).toBe(false);
      expect(repeated.structured).toEqual(once.structured);
    }
  });

  it('a hundred common words over the large notes are refused as too_large, naming the commonest', async () => {
    const query = WORDS.join(' OR ');
    const refused = await vault.call('search_notes', { query });
    expect(refused.isError).toBe(true);
    expect(refused.structured.code).toBe('too_large');
    expect(refused.structured.message).toContain(`the limit is ${MAX_SEARCH_WORK.toLocaleString('en-US')}`);
    expect(refused.structured.message).toMatch(/"w\d+" \(8,00\d\)/);
    expect(refused.structured.message).toContain('Leave out very common words');
    // Fewer of them are within the bound and answered.
    const fewer = await vault.call('search_notes', { query: WORDS.slice(0, 5).join(' OR ') });
    expect(fewer.isError).toBe(false);
    expect(fewer.structured.total).toBe(9);
  });
});
