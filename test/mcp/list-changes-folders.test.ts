/**
 * list_changes (SPEC 12.1) after a folder holding folders appears, with the real file watcher. On
 * Linux the watcher (inotify) watches a renamed or moved-in folder itself but not the folders inside
 * it: those renamed with it went on being reported under their old paths, those moved in from outside
 * the vault not at all, so a note deleted or edited in them afterwards never reached the index or the
 * feed. The server starts its watcher again when such a folder appears (VaultWatcher.rewatch).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault, within } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

/** The feed after `cursor` as [kind, name], once `done` says it holds what was awaited (generously). */
async function feedOnce(
  v: TestVault,
  cursor: string,
  done: (seen: string[][]) => boolean,
): Promise<string[][]> {
  let seen: string[][] = [];
  await within(20_000, async () => {
    const r = await v.call('list_changes', { cursor, limit: 1000 });
    seen = r.structured.changes.map((c: Structured) => [c.kind, c.name]);
    return done(seen);
  });
  return seen;
}

it('a folder renamed with a folder inside: later changes in the inner folder are in the feed', async () => {
  const v = await openTestVault(
    { 'b/sub/x.md': 'x\n', 'b/sub/y.md': 'y\n', 'b/top.md': 't\n' },
    { watch: true },
  );
  vaults.push(v);
  const cursor = (await v.call('list_changes', {})).structured.nextCursor;
  fs.renameSync(path.join(v.dir, 'b'), path.join(v.dir, 'c'));
  // The rename taken in (as moves, or as deletions and creations when seen in two batches).
  await feedOnce(v, cursor, (seen) => seen.some(([, name]) => name === 'c/sub/y.md'));
  const after = (await v.call('list_changes', {})).structured.nextCursor;
  fs.unlinkSync(path.join(v.dir, 'c/sub/x.md'));
  fs.writeFileSync(path.join(v.dir, 'c/sub/y.md'), 'y edited\n');
  const wanted = [
    ['deleted', 'c/sub/x.md'],
    ['modified', 'c/sub/y.md'],
  ];
  expect((await feedOnce(v, after, (seen) => seen.length >= 2)).sort()).toEqual(wanted);
  // And later on, once the server has taken all that in.
  fs.unlinkSync(path.join(v.dir, 'c/sub/y.md'));
  expect(await feedOnce(v, after, (seen) => seen.length >= 3)).toContainEqual(['deleted', 'c/sub/y.md']);
});

it('a folder tree moved in from outside the vault: a note deleted in its inner folder is in the feed', async () => {
  const v = await openTestVault({ 'a.md': 'a\n' }, { watch: true });
  vaults.push(v);
  const outside = path.join(v.base, 'elsewhere');
  fs.mkdirSync(path.join(outside, 'proj/deep'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'proj/deep/z.md'), 'z\n');
  const cursor = (await v.call('list_changes', {})).structured.nextCursor;
  fs.renameSync(path.join(outside, 'proj'), path.join(v.dir, 'proj'));
  await feedOnce(v, cursor, (seen) => seen.length >= 1);
  fs.unlinkSync(path.join(v.dir, 'proj/deep/z.md'));
  const wanted = [
    ['created', 'proj/deep/z.md'],
    ['deleted', 'proj/deep/z.md'],
  ];
  expect(await feedOnce(v, cursor, (seen) => seen.length >= 2)).toEqual(wanted);
});
