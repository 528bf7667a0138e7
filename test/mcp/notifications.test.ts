/**
 * Notifications (SPEC 14.3, issue 19): resources/list_changed when notes appear or go (or the policy
 * changes what agents see), resources/subscribe and unsubscribe with resources/updated for subscribed
 * notes, from any source — this server's tools, a file saved on disk, another server process on the
 * same vault — and never a word about hidden notes. The logging capability: logging/setLevel, and the
 * server's diagnostics as log messages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { noteUri } from '../../src/mcp/resources.js';
import { createMcpServer } from '../../src/mcp/server.js';
import {
  type Connection,
  connect,
  makeVault,
  openTestVault,
  type TestVault,
  within,
} from '../helpers/vault.js';

const open: { close(): Promise<void> }[] = [];
let base: string | undefined;
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

interface Heard {
  listChanged: number;
  updated: string[];
  logs: { level: string; data: unknown }[];
}

function listen(client: Client): Heard {
  const heard: Heard = { listChanged: 0, updated: [], logs: [] };
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    heard.listChanged++;
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    heard.updated.push(n.params.uri);
  });
  client.setNotificationHandler('notifications/message', (n) => {
    heard.logs.push({ level: n.params.level, data: n.params.data });
  });
  return heard;
}

async function vault(files: Record<string, string>, watch = false): Promise<TestVault> {
  const v = await openTestVault(files, { watch });
  open.push(v);
  return v;
}

describe('resources/list_changed', () => {
  it('is sent when a note appears or goes, not when one only changes', async () => {
    const v = await vault({ 'a.md': 'a\n' });
    const heard = listen(v.client);
    const edit = await v.call('update_note', { name: 'a', content: 'a, changed\n' });
    expect(edit.isError).toBe(false);
    await v.call('list_notes');
    expect(heard.listChanged).toBe(0);
    await v.call('create_note', { name: 'b', content: 'b\n' });
    expect(await within(5000, () => heard.listChanged === 1)).not.toBeNull();
    await v.call('delete_note', { name: 'b' });
    expect(await within(5000, () => heard.listChanged === 2)).not.toBeNull();
  });

  it('is sent when the owner changes the policy', async () => {
    const v = await vault({ 'a.md': 'a\n', 'private/p.md': 'p\n' });
    const heard = listen(v.client);
    await v.call('list_notes');
    fs.mkdirSync(path.join(v.dir, '.noted'), { recursive: true });
    fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  private: hidden\n');
    expect(await within(5000, () => heard.listChanged >= 1)).not.toBeNull();
  });
});

describe('resources/subscribe', () => {
  it('a subscribed note changed through a tool is announced, until unsubscribed', async () => {
    const v = await vault({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const heard = listen(v.client);
    await v.client.subscribeResource({ uri: noteUri('a.md') });
    await v.call('update_note', { name: 'b', content: 'b2\n' });
    await v.call('update_note', { name: 'a', content: 'a2\n' });
    expect(await within(5000, () => heard.updated.length > 0)).not.toBeNull();
    expect(heard.updated).toEqual([noteUri('a.md')]);
    await v.client.unsubscribeResource({ uri: noteUri('a.md') });
    await v.call('update_note', { name: 'a', content: 'a3\n' });
    await v.call('list_notes');
    expect(heard.updated).toEqual([noteUri('a.md')]);
  });

  it('a subscribed note saved on disk by another program is announced', async () => {
    const v = await vault({ 'inbox/a.md': 'a\n' }, true);
    const heard = listen(v.client);
    await v.client.subscribeResource({ uri: noteUri('inbox/a.md') });
    fs.writeFileSync(path.join(v.dir, 'inbox', 'a.md'), 'saved in an editor\n');
    expect(await within(10_000, () => heard.updated.includes(noteUri('inbox/a.md')))).not.toBeNull();
  });

  it('a change made by another server process on the vault is announced, and each once', async () => {
    const made = makeVault({ 'a.md': 'a\n' });
    base = made.base;
    const first: Connection = await connect(made.dir, { watch: true });
    open.push(first);
    const second: Connection = await connect(made.dir, { watch: true });
    open.push(second);
    const heard = listen(second.client);
    const mine = listen(first.client);
    await second.client.subscribeResource({ uri: noteUri('a.md') });
    await first.client.subscribeResource({ uri: noteUri('a.md') });
    expect(
      (await first.call('update_note', { name: 'a', content: 'from the first process\n' })).isError,
    ).toBe(false);
    expect(await within(10_000, () => heard.updated.length > 0)).not.toBeNull();
    expect(heard.updated).toEqual([noteUri('a.md')]);
    // The first process hears its own change once, not again when its watcher reports the file.
    await new Promise((r) => setTimeout(r, 800));
    expect(mine.updated).toEqual([noteUri('a.md')]);
  });

  it('a subscription to a malformed URI is refused; past 1000 subscriptions too', async () => {
    const v = await vault({ 'a.md': 'a\n' });
    await expect(v.client.subscribeResource({ uri: 'noted://note/../secret.md' })).rejects.toThrow(
      /leave the vault/,
    );
    await expect(v.client.subscribeResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/not a resource/);
    for (let i = 0; i < 1000; i++) await v.client.subscribeResource({ uri: noteUri(`n${i}.md`) });
    await expect(v.client.subscribeResource({ uri: noteUri('one-more.md') })).rejects.toThrow(/1000/);
    // Subscribing again to one already held is fine.
    await v.client.subscribeResource({ uri: noteUri('n0.md') });
  });
});

describe('hidden notes', () => {
  it('nothing is announced about a note the policy hides, even to a client subscribed to its URI', async () => {
    const v = await vault(
      { 'a.md': 'a\n', 'private/p.md': 'p\n', '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n' },
      true,
    );
    const heard = listen(v.client);
    await v.client.subscribeResource({ uri: noteUri('private/p.md') });
    await v.client.subscribeResource({ uri: noteUri('private/new.md') });
    await v.client.subscribeResource({ uri: noteUri('a.md') });
    fs.writeFileSync(path.join(v.dir, 'private', 'p.md'), 'p changed\n');
    fs.writeFileSync(path.join(v.dir, 'private', 'new.md'), 'new and hidden\n');
    fs.rmSync(path.join(v.dir, 'private', 'p.md'));
    // Once the index has taken those in, a visible change: the only thing heard.
    expect(await within(10_000, () => fs.existsSync(path.join(v.dir, 'private', 'new.md')))).not.toBeNull();
    await new Promise((r) => setTimeout(r, 600));
    await v.call('list_notes');
    fs.writeFileSync(path.join(v.dir, 'a.md'), 'a changed\n');
    expect(await within(10_000, () => heard.updated.length > 0)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(heard.updated).toEqual([noteUri('a.md')]);
    expect(heard.listChanged).toBe(0);
  });
});

describe('logging', () => {
  it('logging/setLevel is answered, and diagnostics arrive as log messages at or above the level', async () => {
    const v = await vault({ 'a.md': 'a\n' });
    const heard = listen(v.client);
    const diagnostics = v.opened.access.ctx.diagnostics;
    diagnostics.warn('a first warning');
    expect(await within(5000, () => heard.logs.length === 1)).not.toBeNull();
    expect(heard.logs[0]).toEqual({ level: 'warning', data: 'a first warning' });
    await v.client.setLoggingLevel('error');
    diagnostics.warn('below the level');
    diagnostics.error('at the level');
    expect(await within(5000, () => heard.logs.length === 2)).not.toBeNull();
    expect(heard.logs[1]).toEqual({ level: 'error', data: 'at the level' });
  });

  it('a client that connects later still hears the last diagnostics', async () => {
    const made = makeVault({ 'a.md': 'a\n' });
    base = made.base;
    const first = await connect(made.dir);
    open.push(first);
    first.opened.access.ctx.diagnostics.warn('said before the second client came');
    let heard: Heard | undefined;
    const later = await connectAgain(first, (client) => {
      heard = listen(client);
    });
    open.push(later);
    expect(await within(5000, () => (heard?.logs.length ?? 0) > 0)).not.toBeNull();
    expect(heard?.logs.map((l) => l.data)).toContain('said before the second client came');
  });
});

describe('issue 35 finding 9: log messages name nothing hidden', () => {
  it('a start-up message naming a note hidden since is kept from clients, the replayed ones included; stderr still has it', async () => {
    const made = makeVault({ 'a.md': 'a\n', 'private/merger.md': 'before\n' });
    base = made.base;
    const first = await connect(made.dir);
    const read = await first.call('read_note', { name: 'private/merger' });
    const edit = await first.call('update_note', {
      name: 'private/merger',
      content: 'the agent wrote this\n',
      expected_etag: read.structured.etag,
    });
    expect(edit.isError).toBe(false);
    await first.close();
    // The owner puts the text back and hides the folder.
    fs.writeFileSync(path.join(made.dir, 'private', 'merger.md'), 'before\n');
    fs.writeFileSync(path.join(made.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  private: hidden\n');

    const second = await connect(made.dir);
    open.push(second);
    const owner: string[] = [];
    second.opened.access.ctx.diagnostics.subscribe((d) => owner.push(d.message));
    expect(owner.some((m) => m.includes('private/merger.md'))).toBe(true);
    const diagnostics = second.opened.access.ctx.diagnostics;
    diagnostics.warn(
      `could not read: ENOENT: no such file or directory, open '${path.join(made.dir, 'private', 'x.md')}'`,
    );
    diagnostics.warn('about "a.md": told, it is visible');
    let heard: Heard | undefined;
    const later = await connectAgain(second, (client) => {
      heard = listen(client);
    });
    open.push(later);
    expect(
      await within(5000, () => (heard?.logs ?? []).some((l) => String(l.data).includes('a.md'))),
    ).not.toBeNull();
    diagnostics.warn('a note was not checked', ['private/merger.md']);
    diagnostics.warn('last: "a.md"');
    expect(
      await within(5000, () => (heard?.logs ?? []).some((l) => l.data === 'last: "a.md"')),
    ).not.toBeNull();
    const told = (heard?.logs ?? []).map((l) => String(l.data));
    expect(
      told.filter((m) => m.includes('private') || m.includes('merger') || m.includes('not checked')),
    ).toEqual([]);
  });
});

/** A second client on the same opened vault (one server process, two connections). */
async function connectAgain(c: Connection, before: (client: Client) => void): Promise<Connection> {
  const server = createMcpServer(c.opened.access, { name: 'noted-mcp', version: 'test' });
  const client = new Client({ name: 'later', version: '0' });
  before(client);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  return {
    client,
    opened: c.opened,
    call: c.call,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
