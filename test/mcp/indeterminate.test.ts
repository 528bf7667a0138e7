/**
 * Outcome flags (SPEC 17.2, issue 32): a write whose outcome the server cannot know — the rename
 * landed, then the file system reported a failure — answers `indeterminate: true` with the etag to
 * compare, never `committed: false`.
 */
import fs from 'node:fs';
import { afterEach, expect, it, vi } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, type TestVault, within } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await vault?.close();
  vault = undefined;
});

/** Renames onto a file ending `suffix` happen, then fail with EIO (as a network file system may). */
function renameLandsThenFails(suffix: string): void {
  const realRename = fs.renameSync;
  vi.spyOn(fs, 'renameSync').mockImplementation((from: fs.PathLike, to: fs.PathLike) => {
    realRename(from, to);
    if (String(to).endsWith(suffix)) {
      throw Object.assign(new Error(`EIO: i/o error, rename '${String(from)}' -> '${String(to)}'`), {
        code: 'EIO',
        errno: -5,
        syscall: 'rename',
      });
    }
  });
}

it('update_note whose rename landed but reported EIO: indeterminate with the etag to compare', async () => {
  vault = await openTestVault({ 'a.md': 'old\n' });
  renameLandsThenFails('a.md');
  const r = await vault.call('update_note', { name: 'a', content: 'new\n' });
  vi.restoreAllMocks();
  expect(r.isError).toBe(true);
  expect(r.structured.indeterminate).toBe(true);
  expect(r.structured.committed).toBeUndefined();
  expect(r.structured.etag).toBe(etagOf('new\n'));
  expect(r.text).toContain('The outcome is unknown');
  expect(r.text).not.toContain(vault.base);
  // The agent compares: the note has that etag, so the change was made.
  const read = await vault.call('read_note', { name: 'a' });
  expect(read.structured.etag).toBe(r.structured.etag);
});

it('a failure before anything was written is still committed: false', async () => {
  vault = await openTestVault({ 'a.md': 'old\n' });
  vi.spyOn(fs, 'renameSync').mockImplementation(() => {
    throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO', errno: -5, syscall: 'rename' });
  });
  const r = await vault.call('update_note', { name: 'a', content: 'new\n' });
  vi.restoreAllMocks();
  expect(r.structured.committed).toBe(false);
  expect(r.structured.indeterminate).toBeUndefined();
});

it('a cancel that races a write: the write is made, and the client that cancelled is told so in a log message', async () => {
  vault = await openTestVault({});
  const v = vault;
  const logs: {
    data?: { tool?: string; cancelled?: boolean; committed?: boolean; outcome?: { etag?: string } };
  }[] = [];
  v.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
  // The gate's createNote held until the client's cancel has reached the server: the cancel then
  // arrives while the write is under way, as it would during a slow disk's write.
  const access = v.opened.access;
  const real = access.createNote.bind(access);
  let entered: () => void = () => undefined;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.spyOn(access, 'createNote').mockImplementation(async (...args) => {
    entered();
    await released;
    return real(...args);
  });
  const controller = new AbortController();
  const call = v.client.callTool(
    { name: 'create_note', arguments: { name: 'raced', content: 'made all the same\n' } },
    { signal: controller.signal },
  );
  await inside;
  controller.abort('changed my mind');
  await expect(call).rejects.toThrow();
  // Messages arrive in order: once the ping is answered, the server has taken in the cancel.
  await v.client.ping();
  release();
  expect(await within(20_000, () => logs.some((l) => l.data?.tool === 'create_note'))).not.toBeNull();
  const told = logs.find((l) => l.data?.tool === 'create_note');
  expect(told?.data).toMatchObject({ tool: 'create_note', cancelled: true, committed: true });
  const made = fs.readFileSync(`${v.dir}/raced.md`, 'utf8');
  expect(made).toBe('made all the same\n');
  expect(told?.data?.outcome?.etag).toBe(etagOf(made));
});

it('a read or a dry run that finishes after the cancel is told as committed: false, a change it never made', async () => {
  vault = await openTestVault({ 'a.md': 'alpha words\n' });
  const v = vault;
  const logs: { data?: { tool?: string; cancelled?: boolean; committed?: boolean } }[] = [];
  v.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
  const access = v.opened.access;
  for (const [tool, method, args] of [
    ['search_notes', 'search', { query: 'alpha' }],
    ['move_note', 'moveNote', { name: 'a', new_name: 'b', dry_run: true }],
  ] as const) {
    const real = (access[method] as (...a: unknown[]) => unknown).bind(access);
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The call's work is done before the cancel comes: it is then answered, not stopped at a safe point.
    const spy = vi.spyOn(access, method).mockImplementation((async (...a: unknown[]) => {
      const answer = await real(...a);
      entered();
      await released;
      return answer;
    }) as never);
    const controller = new AbortController();
    const call = v.client.callTool({ name: tool, arguments: args }, { signal: controller.signal });
    await inside;
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await v.client.ping();
    release();
    expect(await within(20_000, () => logs.some((l) => l.data?.tool === tool))).not.toBeNull();
    spy.mockRestore();
    expect(logs.find((l) => l.data?.tool === tool)?.data).toMatchObject({
      tool,
      cancelled: true,
      committed: false,
    });
  }
  // The dry run moved nothing.
  expect((await v.call('read_note', { name: 'a' })).isError).toBe(false);
});
