/**
 * The sync of the index with the files (index/sync/sync.ts) when a note cannot be read. Regression (issue
 * 10, found by the hostile-files test): a note that lost read permission after it was indexed kept its
 * row, so list_notes listed it and search_notes gave excerpts of its old text, while read_note
 * answered that it could not be read; now it is taken out until it can be read again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { createWork } from '../../../src/common/work.js';
import { type Db, openIndexDatabase } from '../../../src/index/db/database.js';
import type { parseNoteFile } from '../../../src/index/sync/parse-note.js';
import { type ParserPool, parseHere } from '../../../src/index/sync/parser-pool.js';
import { syncAll, syncAllParallel } from '../../../src/index/sync/sync.js';
import { syncPaths } from '../../../src/index/sync/sync-paths.js';
import { interceptOpen } from '../../helpers/fs-faults.js';

let base: string | undefined;
let db: Db | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  db?.close();
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
  db = undefined;
});

function vault(files: Record<string, string>): { dir: string; db: Db } {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-sync-')));
  const dir = path.join(base, 'vault');
  fs.mkdirSync(dir);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  db = openIndexDatabase(path.join(base, 'index.sqlite')).db;
  return { dir, db };
}

function indexedPaths(d: Db): string[] {
  return (d.prepare('SELECT path FROM notes ORDER BY path').all() as { path: string }[]).map((r) => r.path);
}

/** Makes reads of `abs` fail as a lost permission does, and changes its time so a sync looks at it. */
function loseReadPermission(abs: string): void {
  interceptOpen((file, open) => {
    if (file === abs)
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES', syscall: 'open' });
    return open();
  });
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(abs, later, later);
}

it('a note that can no longer be read leaves the index, and comes back once it can', () => {
  const { dir, db: d } = vault({ 'a.md': 'alpha', 'b.md': 'beta' });
  syncAll(d, dir);
  expect(indexedPaths(d)).toEqual(['a.md', 'b.md']);
  loseReadPermission(path.join(dir, 'a.md'));
  syncAll(d, dir);
  expect(indexedPaths(d)).toEqual(['b.md']);
  vi.restoreAllMocks();
  syncAll(d, dir);
  expect(indexedPaths(d)).toEqual(['a.md', 'b.md']);
});

it('the same in a large sync, where parser threads read the notes', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1200; i++) files[`n${String(i).padStart(4, '0')}.md`] = `note ${i}`;
  const { dir, db: d } = vault(files);
  syncAll(d, dir);
  // Every note changed, so the large sync reads them all; one of them cannot be read.
  const later = new Date(Date.now() + 10_000);
  for (const rel of Object.keys(files)) fs.utimesSync(path.join(dir, rel), later, later);
  loseReadPermission(path.join(dir, 'n0500.md'));
  const pool = {
    parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => parseHere(root, batch),
    close: async () => undefined,
  } as unknown as ParserPool;
  await syncAllParallel(d, dir, () => pool);
  const paths = indexedPaths(d);
  expect(paths).toHaveLength(1199);
  expect(paths).not.toContain('n0500.md');
});

it('a parser thread failing mid-build ends the open transaction, keeps what was committed and puts the settings back', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 2500; i++) files[`n${String(i).padStart(4, '0')}.md`] = `note ${i} zebra`;
  const { dir, db: d } = vault(files);
  let calls = 0;
  const pool = {
    // Batches of 125: the first commit holds 2,000 notes (16 batches); the 18th batch fails.
    parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => {
      calls++;
      if (calls === 18) throw new Error('index parser thread failed: boom');
      return parseHere(root, batch);
    },
    close: async () => undefined,
  } as unknown as ParserPool;
  await expect(syncAllParallel(d, dir, () => pool)).rejects.toThrow('boom');
  expect(d.inTransaction).toBe(false);
  expect(indexedPaths(d)).toHaveLength(2000);
  const option = (k: string) =>
    (d.prepare('SELECT v FROM notes_fts_config WHERE k = ?').get(k) as { v: number } | undefined)?.v;
  expect(option('hashsize')).toBe(1024 * 1024);
  expect(option('automerge')).toBe(4);
  expect(d.pragma('synchronous', { simple: true })).toBe(1);
  // The next sync writes the rest, and the full-text index agrees with the notes table.
  syncAll(d, dir);
  expect(indexedPaths(d)).toHaveLength(2500);
  const hits = d.prepare("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'zebra'").get() as {
    n: number;
  };
  expect(hits.n).toBe(2500);
});

it('a note deleted by another process between its stat and the look at its real path leaves the index quietly', () => {
  // Regression (found by the 120 s concurrency soak): the ENOENT of that look reached the agent whose
  // write had already succeeded, as "the vault's files could not be changed".
  const { dir, db: d } = vault({ 'a.md': 'alpha', 'b.md': 'beta' });
  syncAll(d, dir);
  const real = fs.realpathSync.native;
  vi.spyOn(fs.realpathSync, 'native').mockImplementation(((p: fs.PathLike, options?: never) => {
    if (String(p) === path.join(dir, 'a.md')) {
      fs.rmSync(path.join(dir, 'a.md'));
      throw Object.assign(new Error(`ENOENT: no such file or directory, lstat '${String(p)}'`), {
        code: 'ENOENT',
      });
    }
    return real(p, options);
  }) as typeof fs.realpathSync.native);
  const result = syncPaths(d, dir, ['a.md', 'b.md']);
  expect(result.changed).toBe(1);
  expect(indexedPaths(d)).toEqual(['b.md']);
});

it.skipIf(process.platform !== 'linux')(
  'a folder swapped for a link to outside between the walk and the read: its notes stay out of the index',
  () => {
    const { dir, db: d } = vault({ 'a.md': 'alpha' });
    fs.mkdirSync(path.join(dir, 'inbox'));
    fs.writeFileSync(path.join(dir, 'inbox', 'plan.md'), 'the plan');
    fs.symlinkSync(path.join(dir, 'a.md'), path.join(dir, 'alias.md'));
    const outside = path.join(base as string, 'private');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'plan.md'), 'private words\n- [ ] private task');
    const target = path.join(dir, 'inbox', 'plan.md');
    interceptOpen((file, open) => {
      if (file === target && !fs.lstatSync(path.join(dir, 'inbox')).isSymbolicLink()) {
        fs.renameSync(path.join(dir, 'inbox'), path.join(dir, 'moved'));
        fs.symlinkSync(outside, path.join(dir, 'inbox'));
      }
      return open();
    });
    syncAll(d, dir);
    // The walk listed inbox/plan.md; what its read opened was outside, so nothing of it was taken in.
    expect(indexedPaths(d)).toEqual(['a.md', 'alias.md']);
    expect(d.prepare("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'private'").get()).toEqual({
      n: 0,
    });
    expect(d.prepare('SELECT count(*) AS n FROM note_tasks').get()).toEqual({ n: 0 });
  },
);

it.skipIf(process.platform !== 'linux')(
  'a note replaced by a FIFO between the walk and the read is left out, and the read does not block',
  () => {
    const { dir, db: d } = vault({ 'a.md': 'alpha', 'b.md': 'beta' });
    const target = path.join(dir, 'b.md');
    interceptOpen((file, open) => {
      if (file === target && fs.lstatSync(target).isFile()) {
        fs.rmSync(target);
        execFileSync('mkfifo', [target]);
      }
      return open();
    });
    syncAll(d, dir);
    expect(indexedPaths(d)).toEqual(['a.md']);
  },
);

it('a start-up sync compares the index with the files in pages, with progress, and finds what changed, appeared and went', async () => {
  // Issue 34: the start-up comparison read every indexed row into memory in one piece, before the
  // server answered; now it reads them in pages (5,000 rows), letting other work run between them.
  const files: Record<string, string> = {};
  for (let i = 0; i < 12_000; i++) files[`n${String(i).padStart(5, '0')}.md`] = `note ${i}`;
  const { dir, db: d } = vault(files);
  syncAll(d, dir);
  const later = new Date(Date.now() + 10_000);
  fs.writeFileSync(path.join(dir, 'n11000.md'), 'note changed heron');
  fs.utimesSync(path.join(dir, 'n11000.md'), later, later);
  fs.rmSync(path.join(dir, 'n11999.md'));
  fs.writeFileSync(path.join(dir, 'new.md'), 'a new heron');
  const reports: { done: number; total: number | undefined; message: string | undefined }[] = [];
  const work = createWork({ onProgress: (done, total, message) => reports.push({ done, total, message }) });
  const pool = {
    parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => parseHere(root, batch),
    close: async () => undefined,
  } as unknown as ParserPool;
  const stats = await syncAllParallel(d, dir, () => pool, undefined, undefined, work);
  expect(stats).toMatchObject({ notes: 12_000, reindexed: 2, removed: 1 });
  const paths = indexedPaths(d);
  expect(paths).toContain('new.md');
  expect(paths).not.toContain('n11999.md');
  const hits = d.prepare("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'heron'").get();
  expect(hits).toEqual({ n: 2 });
  const comparing = reports.filter((r) => r.message === 'comparing the index with the files');
  expect(comparing.map((r) => r.done)).toEqual([0, 5000, 10_000, 12_000]);
  expect(comparing.every((r) => r.total === 12_000)).toBe(true);
});
