/**
 * search_notes' scores never degenerate (SPEC 17.7, issue 32): a word in every note still scores by
 * term frequency and length with Lucene's idf (not FTS5's clamp to 1e-6), and a hit matched only by
 * operators scores by recency (newer higher), not 0.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const scores = (r: { structured: Structured }): [string, number][] =>
  r.structured.results.map((h: Structured) => [h.name, h.score] as [string, number]);

it('a word in every visible note ranks by frequency and length, with scores that are not noise', async () => {
  vault = await openTestVault({
    'often.md': 'budget budget budget for the year\n',
    'once.md': 'the budget\n',
    'long.md': `budget ${'and many other words about the plans '.repeat(30)}\n`,
  });
  const r = await vault.call('search_notes', { query: 'budget' });
  expect(r.isError, r.text).toBe(false);
  const got = scores(r);
  expect(got.map(([name]) => name)).toEqual(['often.md', 'once.md', 'long.md']);
  for (const [, score] of got) expect(score).toBeGreaterThan(0.01);
  // Lucene's idf for a word in 3 of 3 notes is log(1 + 0.5/3.5) ≈ 0.1335: the best note scores about that.
  expect(got[0]?.[1]).toBeGreaterThan(0.1);
  expect(got[0]?.[1]).toBeGreaterThan(got[1]?.[1] ?? 0);
  expect(got[1]?.[1]).toBeGreaterThan(got[2]?.[1] ?? 0);
});

it('a rarer word still scores above a common one', async () => {
  vault = await openTestVault({
    'a.md': 'budget plan\n',
    'b.md': 'budget kestrel\n',
    'c.md': 'budget notes\n',
    'd.md': 'budget words\n',
  });
  const common = scores(await vault.call('search_notes', { query: 'budget' }));
  const rare = scores(await vault.call('search_notes', { query: 'kestrel' }));
  expect(rare[0]?.[1]).toBeGreaterThan(common[0]?.[1] ?? Number.POSITIVE_INFINITY);
});

it('hits matched only by operators score by recency, newest highest, never 0', async () => {
  vault = await openTestVault(
    { 'old.md': '#tagged old\n', 'new.md': '#tagged new\n', 'mid.md': '#tagged mid\n' },
    {
      prepare: (dir) => {
        const day = 86_400_000;
        const now = Date.now();
        for (const [name, age] of [
          ['old.md', 300],
          ['mid.md', 10],
          ['new.md', 0],
        ] as const) {
          const t = new Date(now - age * day);
          fs.utimesSync(path.join(dir, name), t, t);
        }
      },
    },
  );
  const r = await vault.call('search_notes', { query: 'tag:tagged' });
  expect(r.isError, r.text).toBe(false);
  const got = scores(r);
  expect(got.map(([name]) => name)).toEqual(['new.md', 'mid.md', 'old.md']);
  for (const [, score] of got) expect(score).toBeGreaterThan(0);
  expect(got[0]?.[1]).toBeGreaterThan(got[1]?.[1] ?? 0);
  expect(got[1]?.[1]).toBeGreaterThan(got[2]?.[1] ?? 0);
});

it('a text of several words ranks by Lucene’s BM25: a common word counts again, and each word adds what it scores alone', async () => {
  // 21 notes of ten words: budget in 14 (bm25() would give it an idf of 1e-6), meeting in 9.
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');
  const files: Record<string, string> = {
    'first.md': `meeting meeting budget ${filler(7)}\n`,
    'second.md': `meeting ${'budget '.repeat(8)}${filler(1)}\n`,
  };
  for (let i = 0; i < 12; i++) files[`b${i}.md`] = `budget ${filler(9)}\n`;
  for (let i = 0; i < 7; i++) files[`m${i}.md`] = `meeting ${filler(9)}\n`;
  vault = await openTestVault(files);
  const both = await vault.call('search_notes', { query: 'budget meeting' });
  expect(both.isError, both.text).toBe(false);
  // bm25() ranked first.md first (two meetings), as if budget were not asked for; Lucene's idf for
  // budget (log(1 + 7.5/14.5) ≈ 0.42) makes eight mentions of it outweigh a second meeting.
  expect(scores(both).map(([name]) => name)).toEqual(['second.md', 'first.md']);
  const alone = async (word: string) =>
    new Map(scores(await vault!.call('search_notes', { query: word, max_results: 50 })));
  const budget = await alone('budget');
  const meeting = await alone('meeting');
  // Scores are shown to four significant digits, each of the three rounded on its own.
  for (const [name, score] of scores(both)) {
    const sum = (budget.get(name) ?? 0) + (meeting.get(name) ?? 0);
    expect(Math.abs(score - sum)).toBeLessThanOrEqual(1e-3 * sum);
  }
});
