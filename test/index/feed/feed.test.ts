/**
 * The change feed as the index records it (index/feed/feed.ts, SPEC 12.1), batch by batch as a watcher
 * would report paths: replaying the feed onto a copy of the vault as it was when the feed started
 * must give the vault as it is, whatever order a batch's paths come in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { attachFeed, changesAfter, recordClaims, startFeed } from '../../../src/index/feed/feed.js';
import { syncPaths } from '../../../src/index/sync/sync-paths.js';
import { etagOf } from '../../../src/vault/etag.js';
import { countArrayWork } from '../../helpers/array-work.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let vaults: IndexedVault[] = [];
afterEach(() => {
  for (const v of vaults) v.close();
  vaults = [];
});

/** The notes in `dir`, by name. */
function notesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.md'))
    .sort();
}

function feedVault(files: Record<string, string>) {
  const v = indexedVault(files);
  vaults.push(v);
  attachFeed(v.db, v.dir);
  startFeed(v.db, Date.now());
  const start = notesIn(v.dir);
  const abs = (rel: string) => path.join(v.dir, ...rel.split('/'));
  return {
    ...v,
    abs,
    /** Syncs the paths of one watcher batch, in this order. */
    batch: (paths: string[]) => syncPaths(v.db, v.dir, paths),
    rename: (from: string, to: string) => {
      fs.mkdirSync(path.dirname(abs(to)), { recursive: true });
      fs.renameSync(abs(from), abs(to));
    },
    /** Writes a new file (a new inode) in place of whatever is at `rel`. */
    replace: (rel: string, text: string) => {
      fs.writeFileSync(`${abs(rel)}.tmp`, text);
      fs.renameSync(`${abs(rel)}.tmp`, abs(rel));
    },
    feed: () =>
      changesAfter(v.db, 0, 10_000).map((c) => [c.kind, c.path, ...(c.from_path ? [c.from_path] : [])]),
    /** The vault's notes as a copy taken at the start and replayed from the feed has them. */
    replayed: () => {
      const copy = new Set(start);
      for (const c of changesAfter(v.db, 0, 10_000)) {
        if (c.kind === 'deleted') copy.delete(c.path);
        else {
          if (c.kind === 'moved' && c.from_path !== null) copy.delete(c.from_path);
          copy.add(c.path);
        }
      }
      return [...copy].sort();
    },
    now: () => notesIn(v.dir),
  };
}

it('a note renamed and a new one written at its old name with the same text, the new name synced first', async () => {
  const v = feedVault({ 'a/x.md': 'same\n' });
  v.rename('a/x.md', 'a/a.md');
  v.replace('a/x.md', 'same\n');
  v.batch(['a/a.md', 'a/x.md']);
  expect(v.feed()).toEqual([
    ['moved', 'a/a.md', 'a/x.md'],
    ['created', 'a/x.md'],
  ]);
  expect(v.replayed()).toEqual(v.now());
});

it('a note renamed whose old name was never reported, then renamed back', async () => {
  const v = feedVault({ 'a/n.md': 'n\n' });
  fs.writeFileSync(v.abs('a/x.md'), 'x\n');
  v.batch(['a/x.md']);
  // Created and renamed within one batch: the watcher reports only the new name.
  v.rename('a/x.md', 'a/y.md');
  v.batch(['a/y.md']);
  v.rename('a/y.md', 'a/x.md');
  v.batch(['a/x.md', 'a/y.md']);
  expect(v.replayed()).toEqual(v.now());
  expect(v.feed()).toEqual([
    ['created', 'a/x.md'],
    ['moved', 'a/y.md', 'a/x.md'],
    ['moved', 'a/x.md', 'a/y.md'],
  ]);
});

it("an agent's move (a new file) indexed before its old name, which has a new file with the old text", async () => {
  const v = feedVault({ 'a/x.md': 'x\n' });
  // The gate claims the move; the move writes the note anew (its links rewritten) and removes the old.
  recordClaims(
    v.db,
    [{ path: 'a/y.md', etag: etagOf('x\n'), from: 'a/x.md', session: 's', client: null }],
    Date.now(),
  );
  fs.writeFileSync(v.abs('a/y.md'), 'x\n');
  // An editor puts the old text back at the old name at once (a new file: a new inode).
  v.replace('a/x.md', 'x\n');
  v.batch(['a/y.md']);
  v.batch(['a/x.md']);
  expect(v.replayed()).toEqual(v.now());
  expect(v.feed()).toEqual([
    ['moved', 'a/y.md', 'a/x.md'],
    ['created', 'a/x.md'],
  ]);
});

/** A folder of `n` notes renamed as a whole, synced as the watcher reports it: the work it took. */
function folderRenameWork(n: number): number {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`f/n${i}.md`] = `note ${i}\n`;
  const v = feedVault(files);
  v.rename('f', 'g');
  // A few searches per note at most (5 now); pairing by searching the batch passes this at once.
  const { work } = countArrayWork(() => v.batch(['f', 'g']), { budget: 50 * n });
  const feed = v.feed();
  expect(feed).toHaveLength(n);
  expect(feed.every(([kind, to, from]) => kind === 'moved' && from === to?.replace(/^g\//, 'f/'))).toBe(true);
  return work;
}

it('pairing the notes of a renamed folder into moves takes work in proportion to them', () => {
  const small = folderRenameWork(300);
  const large = folderRenameWork(600);
  // Pairing each new path by searching the batch's changes from the start grew as n² (4× here).
  expect(large / small).toBeLessThan(2.5);
});
