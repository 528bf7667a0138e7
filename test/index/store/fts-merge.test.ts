/**
 * When the full-text index merges (index/store/fts-merge.ts): a large sync writes without FTS5's merge work
 * and the merging follows in small steps, with the same search answers throughout; options a stopped
 * process left changed are put back on start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openVault } from '../../../src/access/open.js';
import { createWork } from '../../../src/common/work.js';
import type { Db } from '../../../src/index/db/database.js';
import { NOTE_ID_INDEXES } from '../../../src/index/db/secondary-indexes.js';
import {
  bulkLoadSettings,
  mergeStep,
  restoreFtsDefaults,
  withoutAutomerge,
} from '../../../src/index/store/fts-merge.js';
import type { parseNoteFile } from '../../../src/index/sync/parse-note.js';
import { type ParserPool, parseHere } from '../../../src/index/sync/parser-pool.js';
import { syncAll, syncAllParallel } from '../../../src/index/sync/sync.js';
import { syncPaths } from '../../../src/index/sync/sync-paths.js';
import { makeVault, testJournalKey } from '../../helpers/vault.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let iv: IndexedVault | undefined;
afterEach(() => {
  iv?.close();
  iv = undefined;
});

const option = (db: Db, k: string) =>
  (db.prepare('SELECT v FROM notes_fts_config WHERE k = ?').get(k) as { v: number } | undefined)?.v;

const hits = (db: Db, q: string) =>
  (
    db.prepare('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid').all(q) as {
      rowid: number;
    }[]
  ).map((r) => r.rowid);

/** How many segments the full-text index has. */
const segments = (db: Db) =>
  (db.prepare('SELECT count(DISTINCT segid) AS n FROM notes_fts_idx').get() as { n: number }).n;

function vaultOf(n: number): IndexedVault {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`n${i}.md`] = `note ${i} apple${i % 7} shared`;
  return indexedVault(files);
}

it('a large sync leaves automerge as it was, and its merging done in steps gives the same answers', () => {
  iv = vaultOf(300);
  const { db, dir } = iv;
  // Eight large syncs, each a new segment that nothing merges yet.
  for (let round = 0; round < 8; round++) {
    const names = Array.from({ length: 300 }, (_, i) => `n${i}.md`);
    for (const name of names) fs.writeFileSync(path.join(dir, name), `note ${name} pear${round} shared`);
    syncPaths(db, dir, names, { deferMerge: true });
    expect(option(db, 'automerge')).toBe(4);
  }
  const before = segments(db);
  const answers = [hits(db, 'shared'), hits(db, 'pear7'), hits(db, 'pear3')];
  expect(answers[0]).toHaveLength(300);
  expect(answers[1]).toHaveLength(300);
  expect(answers[2]).toHaveLength(0);
  let steps = 0;
  while (mergeStep(db)) steps++;
  expect(steps).toBeGreaterThan(0);
  expect(segments(db)).toBeLessThan(before);
  expect([hits(db, 'shared'), hits(db, 'pear7'), hits(db, 'pear3')]).toEqual(answers);
  // Nothing left to do: the next step says so at once.
  expect(mergeStep(db)).toBe(false);
});

it('a write that fails inside withoutAutomerge still puts automerge back', () => {
  iv = vaultOf(3);
  expect(() =>
    withoutAutomerge(iv?.db as Db, () => {
      throw new Error('disk full');
    }),
  ).toThrow('disk full');
  expect(option(iv.db, 'automerge')).toBe(4);
});

it('on start, options a stopped bulk load left behind are put back', () => {
  iv = vaultOf(3);
  const { db } = iv;
  bulkLoadSettings(db); // stopped before its restore ran
  expect(option(db, 'automerge')).toBe(0);
  expect(option(db, 'crisismerge')).toBe(200);
  expect(option(db, 'hashsize')).toBe(64 * 1024 * 1024);
  expect(restoreFtsDefaults(db)).toBe(true);
  expect(restoreFtsDefaults(db)).toBe(false);
  expect(option(db, 'automerge')).toBe(4);
  expect(option(db, 'crisismerge')).toBe(16);
  expect(option(db, 'hashsize')).toBe(1024 * 1024);
  db.pragma('synchronous = NORMAL');
});

it('the server merges after a large change by itself, soon after answering', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`n${i}.md`] = `note ${i} shared`;
  const { base, dir } = makeVault(files);
  const opened = await openVault({
    vaultDir: dir,
    trashRetentionDays: 30,
    watch: false,
    journalKey: testJournalKey(),
  });
  try {
    const names = Object.keys(files);
    for (let round = 0; round < 8; round++) {
      for (const name of names) fs.writeFileSync(path.join(dir, name), `note ${name} plum${round} shared`);
      opened.index.touched(names);
      // Answers are right at once, before any merging.
      expect(hits(opened.index.db, `plum${round}`)).toHaveLength(300);
    }
    const deadline = Date.now() + 5000;
    let last = -1;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      const now = segments(opened.index.db);
      if (now === last) break;
      last = now;
    }
    expect(mergeStep(opened.index.db)).toBe(false);
    expect(hits(opened.index.db, 'plum7')).toHaveLength(300);
  } finally {
    await opened.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
});

it('a large build leaves the full-text index merged into one segment, answering as a sequential build does', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4500; i++) files[`n${String(i).padStart(4, '0')}.md`] = `note ${i} kiwi${i % 3}`;
  const parallel = indexedVault({});
  const sequential = indexedVault({});
  try {
    for (const v of [parallel, sequential]) {
      for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(v.dir, rel), text);
    }
    const pool = {
      parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => parseHere(root, batch),
      close: async () => undefined,
    } as unknown as ParserPool;
    await syncAllParallel(parallel.db, parallel.dir, () => pool);
    syncAll(sequential.db, sequential.dir);
    expect(segments(parallel.db)).toBe(1);
    expect(option(parallel.db, 'automerge')).toBe(4);
    expect(option(parallel.db, 'crisismerge')).toBe(16);
    for (const q of ['kiwi0', 'kiwi2', 'note']) expect(hits(parallel.db, q)).toEqual(hits(sequential.db, q));
    expect(hits(parallel.db, 'kiwi1')).toHaveLength(1500);
  } finally {
    parallel.close();
    sequential.close();
  }
});

it('the end of a large build (lookup indexes, final merge) runs in steps that let other work in, with progress', async () => {
  // Issue 34: creating every lookup index and FTS5's 'optimize' ran in one piece at the end of the
  // build, and held the thread for seconds at 100k notes (get_vault_info went unanswered meanwhile).
  const v = indexedVault({});
  try {
    for (let i = 0; i < 4500; i++)
      fs.writeFileSync(path.join(v.dir, `n${String(i).padStart(4, '0')}.md`), `note ${i} fig${i % 3}`);
    const pool = {
      parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => parseHere(root, batch),
      close: async () => undefined,
    } as unknown as ParserPool;
    const steps: string[] = [];
    let pausesAtEnd = 0;
    const base = createWork({
      sliceMs: 0,
      onProgress: (_done, _total, step) => {
        if (step !== undefined && steps.at(-1) !== step) steps.push(step);
      },
    });
    const work = {
      ...base,
      report: base.report,
      checkpoint: () => {
        if (steps.at(-1) !== 'reading notes') pausesAtEnd++;
        return base.checkpoint();
      },
      get cancelled() {
        return base.cancelled;
      },
    };
    await syncAllParallel(v.db, v.dir, () => pool, undefined, undefined, work);
    expect(steps.slice(-2)).toEqual(['building the lookup indexes', 'merging the full-text index']);
    // One pause before each lookup index created, and at least one in the merge.
    const indexes = v.db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
      .get() as { n: number };
    expect(pausesAtEnd).toBeGreaterThanOrEqual(indexes.n - NOTE_ID_INDEXES.length + 1);
    expect(segments(v.db)).toBe(1);
    expect(option(v.db, 'automerge')).toBe(4);
    expect(option(v.db, 'crisismerge')).toBe(16);
    expect(hits(v.db, 'fig1')).toHaveLength(1500);
  } finally {
    v.close();
  }
});

it('a server started after a build was stopped midway merges what that build left unmerged', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`n${i}.md`] = `note ${i} shared`;
  const { base, dir } = makeVault(files);
  try {
    const first = await openVault({
      vaultDir: dir,
      trashRetentionDays: 30,
      watch: false,
      journalKey: testJournalKey(),
    });
    // What a build killed halfway leaves: its options, and segments written with no merging.
    bulkLoadSettings(first.index.db);
    for (let round = 0; round < 8; round++) {
      for (const name of Object.keys(files))
        fs.writeFileSync(path.join(dir, name), `note ${name} fig${round}`);
      syncPaths(first.index.db, dir, Object.keys(files));
    }
    const left = segments(first.index.db);
    expect(left).toBeGreaterThanOrEqual(8);
    await first.close();
    const again = await openVault({
      vaultDir: dir,
      trashRetentionDays: 30,
      watch: false,
      journalKey: testJournalKey(),
    });
    try {
      expect(option(again.index.db, 'automerge')).toBe(4);
      const deadline = Date.now() + 5000;
      let last = -1;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        const now = segments(again.index.db);
        if (now === last) break;
        last = now;
      }
      expect(segments(again.index.db)).toBeLessThan(left);
      expect(mergeStep(again.index.db)).toBe(false);
      expect(hits(again.index.db, 'fig7')).toHaveLength(300);
    } finally {
      await again.close();
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});
