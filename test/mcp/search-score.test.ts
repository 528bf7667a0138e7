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
