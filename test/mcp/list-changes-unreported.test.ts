/**
 * list_changes (SPEC 12.1) and the changes a file watcher never reports. @parcel/watcher nets a
 * path's events out over each batch it delivers, and leaves out a file created and then deleted or
 * renamed away within one batch. A server indexes its agents' writes at once, without waiting for
 * the watcher: when the owner's editor deletes or moves such a note right after, within the same
 * batch, no event says so. These tests deliver the batches the watcher would (ManualWatcher), so
 * each interleaving is exact; the e2e test change-feed-replay.test.ts meets them by chance, under load.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ManualWatcher } from '../helpers/manual-watcher.js';
import { type Connection, connect, makeVault, type Structured, within } from '../helpers/vault.js';

/** What each test leaves to undo, last first: servers closed before their vault is removed. */
const undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

async function serve(files: Record<string, string>): Promise<{ dir: string; watcher: ManualWatcher }> {
  const made = makeVault(files);
  undo.push(() => fs.rmSync(made.base, { recursive: true, force: true }));
  return { dir: made.dir, watcher: new ManualWatcher() };
}

async function server(dir: string, watcher?: ManualWatcher): Promise<Connection> {
  const c = await connect(dir, watcher === undefined ? {} : { watch: true, watcher: watcher.start });
  undo.push(() => c.close());
  return c;
}

/** Every change after `cursor`, as [kind, name, from?]. */
async function changesAfter(c: Connection, cursor: string): Promise<string[][]> {
  const r = await c.call('list_changes', { cursor, limit: 1000 });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured.more).toBe(false);
  return r.structured.changes.map((ch: Structured) => [
    ch.kind,
    ch.name,
    ...(ch.from === undefined ? [] : [ch.from]),
  ]);
}

/** Waits (generously: a busy machine) until the feed after `cursor` is `expected`; returns what it was. */
async function feedBecomes(c: Connection, cursor: string, expected: string[][]): Promise<string[][]> {
  let seen: string[][] = [];
  await within(15_000, async () => {
    seen = await changesAfter(c, cursor);
    return JSON.stringify(seen) === JSON.stringify(expected);
  });
  return seen;
}

async function nowCursor(c: Connection): Promise<string> {
  return (await c.call('list_changes', {})).structured.nextCursor;
}

it("a note an agent created and an editor deleted within one watcher batch: the feed says it's gone", async () => {
  const { dir, watcher } = await serve({ 'a.md': 'a\n' });
  const s = await server(dir, watcher);
  const cursor = await nowCursor(s);
  expect((await s.call('create_note', { name: 'x', content: 'x\n' })).isError).toBe(false);
  fs.unlinkSync(path.join(dir, 'x.md'));
  // The batch held x.md's creation and its deletion: the watcher leaves both out.
  watcher.deliver([]);
  const expected = [
    ['created', 'x.md'],
    ['deleted', 'x.md'],
  ];
  expect(await feedBecomes(s, cursor, expected)).toEqual(expected);
  expect((await s.call('read_note', { name: 'x' })).structured.code).toBe('not_found');
});

it('a note an agent created, moved into a hidden folder and edited by an editor within one batch: deleted', async () => {
  const { dir, watcher } = await serve({
    'a/n.md': 'n\n',
    'private/p.md': 'p\n',
    '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
  });
  const s = await server(dir, watcher);
  const cursor = await nowCursor(s);
  expect((await s.call('create_note', { name: 'a/x', content: 'x\n' })).isError).toBe(false);
  fs.renameSync(path.join(dir, 'a/x.md'), path.join(dir, 'private/x.md'));
  fs.appendFileSync(path.join(dir, 'private/x.md'), 'secret\n');
  // a/x.md was created and renamed away within the batch: only private/x.md is reported.
  watcher.deliver(['private/x.md']);
  const expected = [
    ['created', 'a/x.md'],
    ['deleted', 'a/x.md'],
  ];
  expect(await feedBecomes(s, cursor, expected)).toEqual(expected);
});

it("the writing server is idle and only its watcher saw the deletion: another server's feed still has it", async () => {
  const { dir, watcher: writerWatcher } = await serve({ 'a.md': 'a\n' });
  const readerWatcher = new ManualWatcher();
  const writer = await server(dir, writerWatcher);
  const reader = await server(dir, readerWatcher);
  const cursor = await nowCursor(reader);
  expect((await writer.call('create_note', { name: 'x', content: 'x\n' })).isError).toBe(false);
  // The writer's watcher delivers the creation on its own; then an editor deletes the note.
  writerWatcher.deliver(['x.md']);
  fs.unlinkSync(path.join(dir, 'x.md'));
  writerWatcher.deliver(['x.md']);
  // The reader (another process, other batches) had both events in one batch: it hears nothing.
  readerWatcher.deliver([]);
  const expected = [
    ['created', 'x.md'],
    ['deleted', 'x.md'],
  ];
  // The writer answers no request meanwhile: what its watcher reported is applied all the same.
  expect(await feedBecomes(reader, cursor, expected)).toEqual(expected);
});

it('a note written after the watcher started and read by the start-up sync, deleted in the same batch: deleted', async () => {
  const { dir, watcher } = await serve({ 'a.md': 'a\n' });
  const first = await server(dir);
  const cursor = await nowCursor(first);
  await first.close();
  // Written once the watcher is live and before the start-up sync walks the vault, which finds it.
  watcher.onSubscribe = () => fs.writeFileSync(path.join(dir, 'late.md'), 'late\n');
  const s = await server(dir, watcher);
  fs.unlinkSync(path.join(dir, 'late.md'));
  watcher.deliver([]);
  const expected = [
    ['created', 'late.md'],
    ['deleted', 'late.md'],
  ];
  expect(await feedBecomes(s, cursor, expected)).toEqual(expected);
});
