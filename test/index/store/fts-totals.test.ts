/**
 * The BM25 totals of the full-text index stay equal to those of a fresh build however often notes are
 * re-indexed or removed (regression: on FTS5's contentless-delete table every re-index counted the
 * note once more, so after many edits a search ranked differently from a rebuild of the same files —
 * found by test/reliability/concurrency.test.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../../../src/index/db/database.js';
import {
  contentlessDeleteKeepsTotals,
  readAverages,
  readVarints,
  repairFtsTotals,
  settleWithinTransaction,
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

  it('a savepoint makes this SQLite write the totals of a transaction out and read them back (the correction commits with the deletes)', () => {
    expect(settleWithinTransaction()).toBe(true);
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

  it('another process never sees totals that disagree with the rows, however it is timed (two servers on one index)', async () => {
    vault = indexedVault(FILES);
    const file = vault.db.name;
    // A second connection, on its own thread as another server would be, reads the totals and the rows
    // in one snapshot after every commit it can catch. The correction once committed on its own after
    // the deletes: between the two, another server's repair saw too many rows, and the late correction
    // then took the deleted rows off again, down to none, where every search reported a malformed file.
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const observer = new Worker(
      `
      const { workerData, parentPort } = require('node:worker_threads');
      const Database = require(workerData.sqlite);
      const db = new Database(workerData.file, { readonly: true });
      const read = db.transaction(() => [
        db.prepare('SELECT block FROM notes_fts_data WHERE id = 1').get().block,
        db.prepare('SELECT count(*) AS n FROM notes_fts_docsize').get().n,
      ]);
      let reads = 0, disagreed = 0, seen = '';
      Atomics.store(workerData.flags, 1, 1);
      while (Atomics.load(workerData.flags, 0) === 0) {
        const [block, count] = read();
        let rows = 0;
        for (const b of block) { rows = rows * 128 + (b & 127); if (b < 128) break; }
        reads++;
        if (rows !== count) { disagreed++; seen = rows + ' rows counted, ' + count + ' there'; }
      }
      db.close();
      parentPort.postMessage({ reads, disagreed, seen });
      `,
      {
        eval: true,
        workerData: { file, flags, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
      },
    );
    const result = new Promise<{ reads: number; disagreed: number; seen: string }>((resolve, reject) => {
      observer.once('message', resolve);
      observer.once('error', reject);
    });
    const deadline = Date.now() + 60_000;
    while (Atomics.load(flags, 1) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 300; i++) vault.write('b.md', `# Beta\n\nshared words, edit ${i}\n`);
    Atomics.store(flags, 0, 1);
    const seen = await result;
    expect(seen.reads).toBeGreaterThan(0);
    expect(seen.disagreed, seen.seen).toBe(0);
    expect(readAverages(vault.db)).toEqual(freshAverages(vault.dir));
  });
});
