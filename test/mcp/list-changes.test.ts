/**
 * list_changes (SPEC 12.1): every change in order, by agents and from outside (also while no server
 * ran), moves as moves, hidden notes never, cursors that survive restarts and say reset when the feed
 * no longer covers them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Connection,
  connect,
  openTestVault,
  type Structured,
  type TestVault,
  within,
} from '../helpers/vault.js';

let vaults: TestVault[] = [];
let extra: Connection[] = [];
afterEach(async () => {
  for (const c of extra) await c.close();
  extra = [];
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>, watch = false): Promise<TestVault> {
  const v = await openTestVault(files, { watch });
  vaults.push(v);
  return v;
}

async function now(c: Connection): Promise<string> {
  const r = await c.call('list_changes', {});
  expect(r.isError, r.text).toBe(false);
  expect(r.structured.changes).toEqual([]);
  return r.structured.nextCursor;
}

/** Every change after `cursor`, page by page. */
async function drain(c: Connection, cursor: string, args: Record<string, unknown> = {}) {
  const all: Structured[] = [];
  let next = cursor;
  for (let i = 0; i < 1000; i++) {
    const r = await c.call('list_changes', { cursor: next, ...args });
    expect(r.isError, r.text).toBe(false);
    all.push(...r.structured.changes);
    next = r.structured.nextCursor;
    if (!r.structured.more) break;
  }
  return { changes: all, cursor: next };
}

const brief = (changes: Structured[]) =>
  changes.map((c) => [c.kind, c.name, ...(c.from === undefined ? [] : [c.from])]);

/** Returns once the clock has moved past the millisecond it is in (change times are in milliseconds). */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((r) => setTimeout(r, 1));
}

function write(dir: string, rel: string, text: string): void {
  const abs = path.join(dir, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

describe('list_changes', () => {
  it('without a cursor: no changes and the cursor of now; the notes of the first build are not changes', async () => {
    const v = await open({ 'a.md': 'a', 'b/c.md': 'c' });
    const cursor = await now(v);
    expect((await drain(v, cursor)).changes).toEqual([]);
  });

  it("agents' writes, in order, with session, client and etags", async () => {
    const v = await open({ 'a.md': 'a\n', 'idx.md': '[[a]]\n' });
    const cursor = await now(v);
    const created = await v.call('create_note', { name: 'inbox/new', content: 'new' });
    const updated = await v.call('update_note', { name: 'a', content: 'a2\n' });
    await v.call('delete_note', { name: 'inbox/new' });
    await v.call('move_note', { name: 'a', new_name: 'archive/a' });
    const { changes } = await drain(v, cursor);
    expect(brief(changes)).toEqual([
      ['created', 'inbox/new.md'],
      ['modified', 'a.md'],
      ['deleted', 'inbox/new.md'],
      ['moved', 'archive/a.md', 'a.md'],
    ]);
    expect(
      changes.every((c) => c.by === 'agent' && c.client === 'noted-test' && typeof c.session === 'string'),
    ).toBe(true);
    expect(changes[0]?.etag).toBe(created.structured.etag);
    expect(changes[1]?.etag).toBe(updated.structured.etag);
    expect(changes[2]?.etag).toBeNull();
    const seqs = changes.map((c) => c.seq);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('a move whose links are rewritten (a new file) is still one move', async () => {
    const v = await open({ 'Plan.md': 'see [[Plan#x]]\n\n# x\n' });
    const cursor = await now(v);
    await v.call('move_note', { name: 'Plan', new_name: 'p/Roadmap' });
    expect(brief((await drain(v, cursor)).changes)).toEqual([['moved', 'p/Roadmap.md', 'Plan.md']]);
  });

  it('move_folder moves every note as a move', async () => {
    const v = await open({ 'f/a.md': 'a', 'f/s/b.md': 'b', 'x.md': '[[a]]' });
    const cursor = await now(v);
    const r = await v.call('move_folder', { folder: 'f', new_folder: 'g' });
    expect(r.isError, r.text).toBe(false);
    const kinds = brief((await drain(v, cursor)).changes);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['moved', 'g/a.md', 'f/a.md'],
        ['moved', 'g/s/b.md', 'f/s/b.md'],
      ]),
    );
    expect(kinds.filter((k) => k[0] !== 'moved' && k[1] !== 'x.md')).toEqual([]);
  });

  it('outside changes: an editor writes, renames a note and a folder, deletes (with the watcher)', async () => {
    const v = await open({ 'a.md': 'a\n', 'dir/one.md': '1\n', 'dir/two.md': '2\n', 'gone.md': 'g\n' }, true);
    const cursor = await now(v);
    write(v.dir, 'a.md', 'edited\n');
    write(v.dir, 'fresh.md', 'fresh\n');
    fs.unlinkSync(path.join(v.dir, 'gone.md'));
    let changes: Structured[] = [];
    const taken = async (n: number) =>
      within(15_000, async () => {
        changes = (await drain(v, cursor)).changes;
        return changes.length >= n;
      });
    // The folder's rename once the rest is in: the watcher may deliver a batch while it is still
    // taking in the events of a burst, and a rename cut in two reads as deletions and creations.
    expect(await taken(3), JSON.stringify(brief(changes))).not.toBeNull();
    fs.renameSync(path.join(v.dir, 'dir'), path.join(v.dir, 'renamed'));
    const settled = await taken(5);
    expect(settled, JSON.stringify(brief(changes))).not.toBeNull();
    expect(brief(changes)).toEqual(
      expect.arrayContaining([
        ['modified', 'a.md'],
        ['created', 'fresh.md'],
        ['moved', 'renamed/one.md', 'dir/one.md'],
        ['moved', 'renamed/two.md', 'dir/two.md'],
        ['deleted', 'gone.md'],
      ]),
    );
    expect(changes).toHaveLength(5);
    expect(changes.every((c) => c.by === 'outside' && c.session === undefined)).toBe(true);
  });

  it('changes made while no server ran are found at the next start; the cursor survives the restart', async () => {
    const v = await open({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' });
    const cursor = await now(v);
    await v.call('update_note', { name: 'a', content: 'by agent\n' });
    await v.opened.close();
    write(v.dir, 'b.md', 'edited offline\n');
    fs.renameSync(
      path.join(v.dir, 'c.md'),
      path.join(v.dir, 'moved/c.md').replace('moved/c.md', 'c-renamed.md'),
    );
    write(v.dir, 'new.md', 'new offline\n');
    const again = await connect(v.dir);
    extra.push(again);
    const { changes } = await drain(again, cursor);
    expect(brief(changes)[0]).toEqual(['modified', 'a.md']);
    const offline = brief(changes.slice(1))
      .map((c) => c.join(' '))
      .sort();
    expect(offline).toEqual(['created new.md', 'modified b.md', 'moved c-renamed.md c.md']);
    expect(changes[0]?.by).toBe('agent');
  });

  it('hidden notes never appear; a move across the hidden edge reads as created or deleted', async () => {
    const v = await open({
      'open/a.md': 'a\n',
      'private/s.md': 's\n',
      'private/t.md': 't\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    const cursor = await now(v);
    const access = v.opened.access;
    // The owner's own tools (no policy) move notes across the edge: the index sees moves.
    fs.renameSync(path.join(v.dir, 'private/s.md'), path.join(v.dir, 'open/s.md'));
    fs.renameSync(path.join(v.dir, 'open/a.md'), path.join(v.dir, 'private/a.md'));
    write(v.dir, 'private/t.md', 'secret edit\n');
    access.ctx.index.touched(['private/s.md', 'open/s.md', 'open/a.md', 'private/a.md', 'private/t.md']);
    const { changes } = await drain(v, cursor);
    expect(brief(changes).sort()).toEqual([
      ['created', 'open/s.md'],
      ['deleted', 'open/a.md'],
    ]);
    expect(JSON.stringify(changes)).not.toContain('private');
  });

  it('folder: only that folder, a move across its edge reads as created or deleted', async () => {
    const v = await open({ 'w/a.md': 'a', 'x/b.md': 'b', 'w/c.md': 'c' });
    const cursor = await now(v);
    await v.call('move_note', { name: 'w/a', new_name: 'x/a' });
    await v.call('move_note', { name: 'x/b', new_name: 'w/b' });
    await v.call('update_note', { name: 'w/c', content: 'c2' });
    await v.call('update_note', { name: 'x/a', content: 'elsewhere' });
    expect(brief((await drain(v, cursor, { folder: 'W' })).changes)).toEqual([
      ['deleted', 'w/a.md'],
      ['created', 'w/b.md'],
      ['modified', 'w/c.md'],
    ]);
  });

  it('pages with limit, more and nextCursor; each change once', async () => {
    const v = await open({ 'a.md': 'a' });
    const cursor = await now(v);
    for (let i = 0; i < 7; i++) await v.call('update_note', { name: 'a', content: `v${i}` });
    const first = await v.call('list_changes', { cursor, limit: 3 });
    expect(first.structured.changes).toHaveLength(3);
    expect(first.structured.more).toBe(true);
    const rest = await drain(v, first.structured.nextCursor, { limit: 3 });
    expect(rest.changes).toHaveLength(4);
    const all = [...first.structured.changes, ...rest.changes].map((c) => c.seq);
    expect(new Set(all).size).toBe(7);
  });

  it('since starts at a time; a time before the feed began is a reset', async () => {
    const v = await open({ 'a.md': 'a' });
    await v.call('update_note', { name: 'a', content: 'one' });
    // 'one' was recorded by now, perhaps within this very millisecond: mid comes after it, 'two' after mid.
    await nextMillisecond();
    const mid = new Date().toISOString();
    await nextMillisecond();
    await v.call('update_note', { name: 'a', content: 'two' });
    const r = await v.call('list_changes', { since: mid });
    expect(r.structured.changes.map((c: Structured) => c.etag)).toEqual([
      (await v.call('read_note', { name: 'a' })).structured.etag,
    ]);
    const old = await v.call('list_changes', { since: '2001-01-01T00:00:00Z' });
    expect(old.structured).toMatchObject({ changes: [], reset: true });
    expect((await v.call('list_changes', { since: 'yesterday' })).structured.code).toBe('validation_error');
    // Read as every tool reads times: an impossible date is refused, not rolled into March, and a time
    // without an offset is UTC (the same changes as with its Z), whatever the server's zone.
    expect((await v.call('list_changes', { since: '2026-02-30' })).structured.code).toBe('validation_error');
    const noZone = await v.call('list_changes', { since: mid.replace(/Z$/, '') });
    expect(noZone.structured.changes.map((c: Structured) => c.etag)).toEqual(
      r.structured.changes.map((c: Structured) => c.etag),
    );
    expect(
      (await v.call('list_changes', { since: mid, cursor: r.structured.nextCursor })).structured.code,
    ).toBe('validation_error');
  });

  it('a cursor from another index is a reset with the cursor of now; a made-up one is refused', async () => {
    const v = await open({ 'a.md': 'a' });
    const cursor = await now(v);
    await v.opened.close();
    fs.rmSync(path.join(v.dir, '.noted/index.sqlite'));
    const again = await connect(v.dir);
    extra.push(again);
    const r = await again.call('list_changes', { cursor });
    expect(r.structured).toMatchObject({ changes: [], reset: true, more: false });
    expect(r.structured.nextCursor).not.toBe(cursor);
    expect(r.text).toContain('export_notes');
    expect((await again.call('list_changes', { cursor: 'bm90IGEgY3Vyc29y' })).structured.code).toBe(
      'validation_error',
    );
  });
});
