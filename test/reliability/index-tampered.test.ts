/**
 * Another program writing the index (SPEC 1.6a: the index is a cache, never a reason to fail). FTS5
 * takes totals of no rows, with rows present, for a malformed file: every ranked search answered
 * "database disk image is malformed" until the next start repaired them (the race of two servers that
 * once did this is fixed in fts-totals.ts; another program can still write the record). The search
 * puts the totals right as the start would and answers as before.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { writeVarints } from '../../src/index/store/fts-totals.js';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const ranked = (r: { structured: Structured }) =>
  r.structured.results.map((h: Structured) => [h.name, h.score]);

it('a search after another program zeroed the BM25 totals answers as before, and so do the ones after it', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++)
    files[`n${i}.md`] = `budget ${i % 3 === 0 ? 'meeting meeting' : 'notes'} ${i}\n`;
  vault = await openTestVault(files);
  const queries = ['budget', 'budget meeting', 'meeting OR notes', 'line:(budget meeting)'];
  const before = [];
  for (const query of queries) before.push(ranked(await vault.call('search_notes', { query })));
  const other = new Database(path.join(vault.dir, '.noted', 'index.sqlite'));
  try {
    other.unsafeMode(true);
    other.prepare('UPDATE notes_fts_data SET block = ? WHERE id = 1').run(writeVarints([0, 0, 0, 0]));
  } finally {
    other.close();
  }
  for (const [i, query] of queries.entries()) {
    const r = await vault.call('search_notes', { query });
    expect(r.isError, r.text).toBe(false);
    expect(ranked(r)).toEqual(before[i]);
  }
});
