/**
 * The log of full-text rows written (store/fts-added.ts) keeps its last 10,000 rows however the writes
 * come: a writer is made per sync, and the watcher's and agents' writes are a note or two each.
 */
import { afterEach, expect, it } from 'vitest';
import { FtsAddedLog, ftsAddedHigh, ftsAddedSince } from '../../../src/index/store/fts-added.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let vault: IndexedVault | undefined;
afterEach(() => {
  vault?.close();
  vault = undefined;
});

it('is trimmed to its last 10,000 rows when every row comes from a writer of its own', () => {
  vault = indexedVault({ 'a.md': 'alpha\n' });
  const db = vault.db;
  db.transaction(() => {
    for (let i = 0; i < 25_000; i++) new FtsAddedLog(db).added(1 + (i % 7));
  })();
  const rows = (db.prepare('SELECT count(*) AS n FROM fts_added').get() as { n: number }).n;
  expect(rows).toBeGreaterThanOrEqual(10_000);
  expect(rows).toBeLessThanOrEqual(11_000);
  const high = ftsAddedHigh(db);
  // The latest rows are still named; rows older than the last 10,000 are not.
  expect(ftsAddedSince(db, high - 5_000, high)).toHaveLength(7);
  expect(ftsAddedSince(db, high - 20_000, high)).toBeNull();
});
