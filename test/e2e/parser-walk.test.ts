/**
 * A cold build walks the vault a second time on a parser thread once the watcher is live
 * (src/index/sync.ts). That walk, run in the built server's own parser thread, must list exactly what
 * a walk on the main thread lists: notes, attachments and files reached through a link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ParserPool } from '../../src/index/parser-pool.js';
import { walkVault } from '../../src/vault/walk.js';
import { DIST, ensureBuilt } from '../helpers/server-process.js';
import { makeVault } from '../helpers/vault.js';

let base: string;
let dir: string;
let pool: ParserPool;

beforeAll(async () => {
  await ensureBuilt();
  const made = makeVault({
    'a.md': 'alpha',
    'inbox/b.md': 'beta',
    'inbox/deep/c.md': '---\ntags: [x]\n---\ngamma',
    'inbox/picture.png': 'png',
    '.obsidian/app.json': '{}',
  });
  base = made.base;
  dir = fs.realpathSync(made.dir);
  fs.symlinkSync(path.join(dir, 'inbox', 'b.md'), path.join(dir, 'linked.md'));
  pool = new ParserPool(DIST, 1);
}, 120_000);

afterAll(async () => {
  await pool?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

it('lists on a parser thread what the main thread lists', async () => {
  const here = walkVault(dir);
  const there = await pool.walk(dir);
  expect(there).toEqual(here);
  expect(there.notes.map((f) => f.name).sort()).toEqual([
    'a.md',
    'inbox/b.md',
    'inbox/deep/c.md',
    'linked.md',
  ]);
  expect(there.attachments.map((f) => f.name)).toEqual(['inbox/picture.png']);
  expect([...there.linked]).toEqual([['linked.md', 'inbox/b.md']]);
});

it('parses on the same thread after walking', async () => {
  const files = walkVault(dir).notes.filter((f) => f.name === 'inbox/deep/c.md');
  const [parsed] = await pool.parse(dir, files);
  expect(parsed?.derived.tags).toEqual(['x']);
});
