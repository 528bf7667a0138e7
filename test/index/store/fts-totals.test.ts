/**
 * The BM25 totals of the full-text index stay equal to those of a fresh build however often notes are
 * re-indexed or removed (regression: on FTS5's contentless-delete table every re-index counted the
 * note once more, so after many edits a search ranked differently from a rebuild of the same files —
 * found by test/reliability/concurrency.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../../../src/index/db/database.js';
import {
  contentlessDeleteKeepsTotals,
  readAverages,
  readVarints,
  repairFtsTotals,
  writeVarints,
} from '../../../src/index/store/fts-totals.js';
import { syncAll } from '../../../src/index/sync/sync.js';
import { openTestVault, type TestVault } from '../../helpers/vault.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let vault: IndexedVault | undefined;
let served: TestVault | undefined;
afterEach(async () => {
  vault?.close();
  vault = undefined;
  await served?.close();
  served = undefined;
});

const FILES = {
  'a.md': '# Alpha\n\nshared words here and a rare zebra\n',
  'b.md': '# Beta\n\nshared words again, longer text with more tokens in it\n',
  'c.md': '---\ntags: [topic]\n---\n# Gamma\n\nshared words, a third note\n',
};

/** The averages of a new index built from the files of `dir`. */
function freshAverages(dir: string): ReturnType<typeof readAverages> {
  const file = path.join(fs.mkdtempSync(path.join(path.dirname(dir), 'fresh-')), 'index.sqlite');
  const { db } = openIndexDatabase(file);
  try {
    syncAll(db, dir);
    return readAverages(db);
  } finally {
    db.close();
  }
}

describe('FTS5 averages (rows and tokens per column) as a rebuild has them', () => {
  it('knows whether this SQLite leaves them alone on a contentless delete (so a fixed SQLite is not corrected twice)', () => {
    // Without the correction: the old row's tokens stay counted after a delete (SQLite 3.53 does this).
    vault = indexedVault(FILES);
    const before = readAverages(vault.db);
    vault.db.prepare('DELETE FROM notes_fts WHERE rowid = (SELECT id FROM notes WHERE path = ?)').run('a.md');
    const kept = readAverages(vault.db)?.rows === before?.rows;
    expect(contentlessDeleteKeepsTotals()).toBe(kept);
  });

  it('reads and writes SQLite varints', () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 40 + 5];
    expect(readVarints(writeVarints(values))).toEqual(values);
    expect([...writeVarints([300])]).toEqual([0x82, 0x2c]);
  });

  it('re-indexing and removing notes keeps them equal to a fresh build', () => {
    vault = indexedVault(FILES);
    for (let i = 0; i < 20; i++)
      vault.write('b.md', `# Beta\n\nshared words, edit ${i} ${'more '.repeat(i)}\n`);
    vault.remove('c.md');
    vault.write('d.md', '# Delta\n\nshared words\n');
    expect(readAverages(vault.db)).toEqual(freshAverages(vault.dir));
    expect(readAverages(vault.db)?.rows).toBe(3);
  });

  it('an index whose totals drifted (written before the fix) is repaired on start', () => {
    vault = indexedVault(FILES);
    const right = readAverages(vault.db);
    // As the index of an earlier version was after 37 re-indexes: rows and tokens counted again each time.
    vault.db.unsafeMode(true);
    vault.db
      .prepare('UPDATE notes_fts_data SET block = ? WHERE id = 1')
      .run(writeVarints([40, 900, 80, 5000]));
    vault.db.unsafeMode(false);
    expect(repairFtsTotals(vault.db)).toBe(true);
    expect(readAverages(vault.db)).toEqual(right);
    expect(repairFtsTotals(vault.db)).toBe(false);
  });

  it('search scores after many edits through the client equal those of a rebuilt index', async () => {
    served = await openTestVault(FILES);
    for (let i = 0; i < 30; i++) {
      const read = await served.call('read_note', { name: 'b' });
      const r = await served.call('update_note', {
        name: 'b',
        content: `# Beta\n\nshared words, edit ${i}\n`,
        expected_etag: read.structured.etag,
      });
      expect(r.isError).toBe(false);
    }
    const before = (await served.call('search_notes', { query: 'zebra' })).structured.results;
    // The same files, without the index: the server builds a new one.
    const files = served.dir;
    const copy = (d: string) =>
      fs.cpSync(files, d, {
        recursive: true,
        filter: (src) => !path.basename(src).startsWith('index.sqlite'),
      });
    const rebuilt = await openTestVault({}, { prepare: copy });
    await served.close();
    served = rebuilt;
    const after = (await served.call('search_notes', { query: 'zebra' })).structured.results;
    expect(before).toHaveLength(1);
    expect(before[0].score).toBeCloseTo(after[0].score, 9);
  });
});
