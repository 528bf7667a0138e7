/**
 * runSearch: a page is the same whatever order the notes were indexed in (ties go newest first, then
 * by path, even past what the fast statement looks at), and it is never read from an index that
 * follows other visibility rules than the request's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileSearch, searchSql } from '../../src/index/search-compile.js';
import { parseSearchQuery } from '../../src/index/search-query.js';
import { runSearch } from '../../src/index/search-run.js';
import { setStoredVisibility } from '../../src/index/visibility.js';
import { type IndexedVault, indexedVault } from './indexed-vault.js';

let vaults: IndexedVault[] = [];
afterEach(() => {
  for (const v of vaults) v.close();
  vaults = [];
});

function search(v: IndexedVault, query: string, limit: number, key = 'all') {
  const node = parseSearchQuery(query);
  return runSearch(v.db, node, searchSql(compileSearch(node), { limit }), key);
}

/** 60 notes with the same text (so the same score), and times that have nothing to do with their names. */
function tiedVault(): IndexedVault {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`n${String(i).padStart(2, '0')}.md`] = 'same words here\n';
  const v = indexedVault(files);
  vaults.push(v);
  for (let i = 0; i < 60; i++) {
    const name = `n${String(i).padStart(2, '0')}.md`;
    const t = new Date(1_700_000_000_000 + ((i * 37) % 60) * 60_000);
    fs.utimesSync(path.join(v.dir, name), t, t);
    v.write(name, 'same words here\n');
  }
  return v;
}

describe('runSearch', () => {
  it('pages a run of equal scores newest first even where it goes on past what the fast statement looks at', () => {
    const v = tiedVault();
    const all = search(v, 'words', 50)!;
    const expected = [...all.rows].sort((a, b) => b.mtime_ms - a.mtime_ms || (a.path < b.path ? -1 : 1));
    expect(all.rows.map((r) => r.path)).toEqual(expected.map((r) => r.path));
    for (const limit of [1, 3, 7, 20]) {
      const page = search(v, 'words', limit)!;
      expect(
        page.rows.map((r) => r.path),
        `limit ${limit}`,
      ).toEqual(all.rows.slice(0, limit).map((r) => r.path));
      expect(page.total).toBe(60);
    }
  });

  it('reads nothing from an index that follows other visibility rules, so the caller can bring it in line', () => {
    const v = indexedVault({ 'a.md': 'words' });
    vaults.push(v);
    expect(search(v, 'words', 5)?.total).toBe(1);
    expect(search(v, 'words', 5, 'other rules')).toBeNull();
    setStoredVisibility(v.db, '');
    expect(search(v, 'words', 5)).toBeNull();
  });
});
